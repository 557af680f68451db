"""Adapters to other ecosystems (OpenSpiel, PettingZoo/Gymnasium); each needs an optional extra."""

__all__: list[str] = []
