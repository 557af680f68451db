"""The state hash: a stable digest of a whole position (hidden cards included).

Replay files record one after every step, so that a file whose rules, deal or actions were
edited is caught at the first step that differs. :meth:`Game.state_hash` is the door; this
module holds the recipes.
"""

from __future__ import annotations

import hashlib
from array import array
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .position import Position
    from .rules import Rules

__all__ = ["count_bytes", "counts", "deck_digest", "digest", "digest_key", "digest_v1", "keyed"]


def digest_key(rules: Rules, players: tuple[str, ...]) -> bytes:
    """The key of a game's version 2 digests: its elements and players, whose digests it
    keeps apart."""
    return hashlib.blake2b(repr((rules.elements, players)).encode(), digest_size=64,
                           person=b"leyline-state-2").digest()


def deck_digest(pos: Position) -> bytes:
    """The digest of the rest of the deck (the face-up top and the cards below it) that
    version 2 takes in."""
    return hashlib.blake2b(memoryview(pos.deck)[pos.deck_pos:], digest_size=16).digest()


def keyed(key: bytes) -> Any:
    """The hasher of version 2 under ``key``, for :func:`digest` to start from: a replay
    digests step after step under one key."""
    return hashlib.blake2b(digest_size=16, key=key)


def counts(pos: Position) -> tuple[list[int], ...]:
    """The position's counts, in the order the state hash takes them in: Binding tokens,
    Studies, Spent markers, the tokens on them, the supply and the Token Pool."""
    return pos.tokens, pos.study, pos.markers, pos.marker_tokens, pos.supply, pos.pool


def count_bytes(pos: Position) -> bytes | None:
    """:func:`counts` one byte each, as version 2 takes them in; None when one passes 255."""
    try:
        return bytes([n for row in counts(pos) for n in row])
    except ValueError:
        return None


def digest(pos: Position, rules: Rules, key: bytes, rest: bytes | None = None,
           start: Any = None, tally: bytes | None = None) -> str:
    """Version 2: the position's numbers as bytes (64-bit words when one passes 255) under
    ``key`` (:func:`digest_key`), with a digest of the rest of the deck (``rest``, when the
    caller has it: :func:`deck_digest`); ``start``, when given, is :func:`keyed` ``(key)``;
    ``tally``, when given, is :func:`count_bytes` of the position."""
    active = sorted(pos.active)
    if tally is None:
        tally = count_bytes(pos)
    # Numbers take one byte each unless one passes 255; then all take 8.
    if tally is not None and (not active or active[-1] <= 255):
        width, words = 1, bytes(active) + tally
    else:  # a number past 255 (a slot of a big grid, a big count)
        width, words = 8, array("q", [*active, *(n for row in counts(pos) for n in row)]).tobytes()
    head = "%s|%s|%d|%d%d|%d|%d|%d|%d|%d%s" % (  # noqa: UP031 - the recipe's own text
        pos.phase, pos.end_reason, pos.used, pos.threshold or 0, pos.ignore_tokens,
        pos.turn, pos.player, pos.bonus, len(active), width, _house_words(pos, rules))
    out = hashlib.blake2b(digest_size=16, key=key) if start is None else start.copy()
    if rest is None:
        rest = deck_digest(pos)
    out.update(b"".join((head.encode(), array("b", pos.grid).tobytes(), words, rest)))
    return out.hexdigest()


def digest_v1(pos: Position, rules: Rules, players: tuple[str, ...]) -> str:
    """Version 1 (replay files of format version 1): a digest of the position's ``repr``."""
    state: tuple[object, ...] = (
        rules.elements, players, pos.grid, sorted(pos.active), pos.tokens,
        pos.study, pos.markers, pos.marker_tokens, pos.supply, pos.pool, pos.phase.value,
        pos.turn, pos.player, pos.bonus, pos.threshold is not None, pos.ignore_tokens,
        pos.used, pos.end_reason)
    if _house_state(pos, rules):
        state = (*state, pos.spent, list(pos.majors), pos.turn - pos.busy)
    out = hashlib.blake2b(repr(state).encode(), digest_size=16)
    out.update(memoryview(pos.deck)[pos.deck_pos:])
    return out.hexdigest()


def _house_state(pos: Position, rules: Rules) -> bool:
    """Whether house-rule state (spent activations, Major uses, idle turns) can matter."""
    capped = rules.major_uses_per_game is not None and any(
        pw.tier == "major" for pw in rules.powers)
    return bool(pos.spent or capped or rules.idle_round_limit is not None)


def _house_words(pos: Position, rules: Rules) -> str:
    """The house-rule state in version 2, when it can matter."""
    if not _house_state(pos, rules):
        return ""
    return f"|{pos.spent}|{list(pos.majors)}|{pos.turn - pos.busy}"
