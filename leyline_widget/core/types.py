"""The JSON shapes the core hands out: events, observations and positions, in one place.

They are ``TypedDict`` s, so they are plain dicts at run time (JSON-safe, cheap) and checked
shapes for mypy. An event carries ``type`` and, by type, the keys listed in :class:`Event`;
``visible_to`` is ``"all"`` or the list of seats that may see a private reveal.
"""

from __future__ import annotations

from typing import Any, Literal, TypedDict

__all__ = ["Cell", "Event", "Observation", "PlayerView", "Position", "Visibility"]

Visibility = Literal["all"] | list[int]


class Event(TypedDict, total=False):
    """One thing that happened, as the engine reports it (the keys present depend on ``type``).

    Types: ``reveal`` (slot, element, cause, visible_to), ``activate`` (player, slot, element),
    ``deactivate`` (player, slot), ``pass``, ``collect`` (player, element, slots, count),
    ``flip_back`` (player, slots), ``token_return`` (player, slot, element, to), ``refill``,
    ``place_token`` (player, slot, element, source), ``power`` (player, element, tier, effect,
    targets), ``swap`` (slots), ``tide`` (slot, to_deck), ``phase`` (phase, player), ``turn``
    (turn, player), ``game_over`` (reason: one of ``END_REASONS``, scores, winners, turns played).
    """

    type: str
    player: int
    slot: int
    slots: list[int]
    element: Any  # an element id; None in a reveal hidden from this viewer
    cause: str
    visible_to: Visibility
    count: int
    phase: str
    turn: int
    tier: str
    effect: str
    name: str
    targets: list[int]
    source: str
    to: str
    to_deck: str
    reason: str
    scores: list[int]
    winners: list[int]
    turns: int


class Cell(TypedDict):
    """One grid slot as a viewer sees it: ``element`` is None for an inert card (players)."""

    card: Literal["empty", "inert", "active"]
    element: Any  # an element id; None for an empty slot, and for an inert card but to the teacher
    tokens: dict[str, int]


class PlayerView(TypedDict):
    name: str
    study: dict[str, int]
    markers: dict[str, int]
    marker_tokens: dict[str, int]
    score: int
    unlocked: list[str]


class Observation(TypedDict):
    """``Game.observation(viewer)``: the position as one viewer may see it."""

    viewer: int | None
    phase: str
    turn: int
    active_player: int
    elements: list[str]
    grid_rows: int
    grid_cols: int
    deck: dict[str, Any]
    grid: list[Cell]
    players: list[PlayerView]
    supply: dict[str, int]
    pool: dict[str, int]
    activations: dict[str, int]
    collect_threshold: int
    effects: list[str]
    powers_used: list[str]
    is_over: bool
    end_reason: str | None
    scores: list[int]
    winners: list[int]


class Position(TypedDict, total=False):
    """``Game.position()``: the whole position, hidden cards included (see core.position)."""

    rules: dict[str, Any]
    players: list[str]
    deck: list[str]
    grid: list[str | None]
    active: list[int]
    tokens: list[dict[str, int]]
    study: list[dict[str, int]]
    markers: list[dict[str, int]]
    marker_tokens: list[dict[str, int]]
    pool: dict[str, int]
    phase: str
    turn: int
    active_player: int
    bonus_activations: int
    effects: list[str]
    powers_used: list[str]
    end_reason: str | None
    spent_activations: int                  # deactivated without refund (house rule)
    powers_used_in_game: list[dict[str, int]]  # per player: power key -> uses this game
    busy_turn: int                          # the last turn with a collection, token or power
