"""Recorded games: the Replay, its variation tree and notes, seek, rerun, and the JSON format."""

from .replay import Note, Replay, ReplayFormatError, StepError, VariationError

__all__ = ["Note", "Replay", "ReplayFormatError", "StepError", "VariationError"]
