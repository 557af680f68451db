"""The position: one list of its named fields, and reading a whole position into a Game.

:class:`Position` is everything that changes during a game, field by field; the Game's copy,
its JSON form (:meth:`Game.position`), pickling and the state hash all follow from it. Loading
a position (:func:`load_position`) is validation of untrusted data (scenario files, lessons,
replays), where every refusal must name the field at fault.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, fields
from operator import attrgetter
from typing import TYPE_CHECKING, Any, cast

from .echo import quote
from .rules import Rules

if TYPE_CHECKING:
    from .game import Game, Phase

__all__ = ["FIELDS", "Position", "dump_position", "load_position"]


@dataclass(slots=True, eq=False)
class Position:
    """Everything that changes during a game. Elements are indices into the rules' elements;
    counts by element are flat lists (``row * elements + element``).

    A new field is one line here (and its reading in :func:`load_position`, its writing in
    :func:`dump_position` and its place in the state hash, when it is game state)."""

    deck: bytes                # element per card, top first; the face-up top is at deck_pos
    deck_pos: int
    grid: list[int]            # element per grid slot, -1 for an empty slot
    active: list[int]          # slots activated this turn, in the order they were activated
    tokens: list[int]          # Binding tokens: slot * elements + element
    study: list[int]           # cards in each Study: player * elements + element
    markers: list[int]         # Spent markers, by player and element
    marker_tokens: list[int]   # tokens stacked on Spent markers, by player and element
    supply: list[int]          # Binding tokens left in the supply, by element
    pool: list[int]            # the shared Token Pool, by element
    phase: Phase
    turn: int
    player: int                # the active player
    bonus: int                 # extra activations from powers this turn (Spark)
    threshold: int | None      # the collect threshold a power lowered it to (Wildfire), or None
    ignore_tokens: bool        # Binding tokens restrict no activation this turn (Sanctuary)
    used: int                  # powers used this turn: bit i for rules.powers[i]
    spent: int                 # activations spent on deactivated cards (house rule: no refund)
    majors: tuple[int, ...]    # uses this game: player * powers + power index
    busy: int                  # the last turn with a collection, a token placed or a power used
    end_reason: str | None
    # What seats were shown, not game state (neither in position() nor in the state hash): per
    # grid slot, bit p is set when seat p knows the card there (what a SeatView reads); 0 for
    # an empty slot.
    seen: list[int]
    # The cards whose Binding tokens the active player's Study satisfies this Phase 2 (all of
    # them while tokens are ignored). Tokens and Studies stand still in Phase 2, so this is
    # found once, as it begins; derived, so neither in position() nor in the state hash.
    offered: tuple[int, ...] = ()
    # The powers (by index) the active player can use now, while Phase 1 lasts. Only a use of
    # a power changes them in Phase 1, so they are found as it begins and after each use;
    # derived, so neither in position() nor in the state hash.
    ready: tuple[int, ...] = ()

    def copy(self) -> Position:
        """An independent copy (lists copied; bytes, tuples and numbers never change)."""
        return Position.thawed(_VALUES(self))

    def frozen(self, previous: tuple[Any, ...] | None = None) -> tuple[Any, ...]:
        """The values in FIELDS order, lists copied: kept as they are now, to make a position
        of again with :meth:`thawed` (a replay keeps one per step). A list equal to its value
        in ``previous`` (values kept so before) is that value: kept values are never changed,
        and a step changes few of a position's lists."""
        values = list(_VALUES(self))
        for i in _LIST_AT:
            v = values[i]
            values[i] = previous[i] if previous is not None and v == previous[i] else v[:]
        return tuple(values)

    @staticmethod
    def thawed(values: tuple[Any, ...]) -> Position:
        """A position of ``values`` (in FIELDS order), lists copied."""
        return cast(Any, Position)(  # type: ignore[no-any-return]
            *[v[:] if is_list else v for v, is_list in zip(values, _LISTS)])


#: The position's fields, in order: the one list every copy and reader walks.
FIELDS: tuple[str, ...] = tuple(f.name for f in fields(Position))
#: A position's values in FIELDS order, and which of them are lists (copied by a copy).
_VALUES = attrgetter(*FIELDS)
_LISTS = tuple(str(f.type).startswith("list") for f in fields(Position))
_LIST_AT = tuple(i for i, is_list in enumerate(_LISTS) if is_list)

#: The fields of a position's JSON form (Game.position), in order.
_FIELDS = ("rules", "players", "deck", "grid", "active", "tokens", "study", "markers",
           "marker_tokens", "pool", "phase", "turn", "active_player", "bonus_activations",
           "effects", "powers_used", "end_reason", "spent_activations", "powers_used_in_game",
           "busy_turn", "turn_threshold", "grid_shown")


def _int(value: object, field: str, low: int = 0, high: int = 10**6) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ValueError(f"{field} must be a whole number from {low} to {high}, got {quote(value)}")
    return value


def _list(value: object, field: str, length: int | None = None) -> list[Any]:
    if not isinstance(value, (list, tuple)):
        raise ValueError(f"{field} must be a list, got {type(value).__name__}")
    if length is not None and len(value) != length:
        raise ValueError(f"{field} must have {length} entries, got {len(value)}")
    return list(value)


def _counts(value: object, field: str, elements: tuple[str, ...]) -> list[int]:
    """An {element: n} mapping as a list over ``elements`` (missing elements are 0)."""
    if value is None:
        return [0] * len(elements)
    if not isinstance(value, Mapping):
        raise ValueError(f"{field} must be an object of element counts, got {quote(value)}")
    out = [0] * len(elements)
    for key, n in value.items():
        if key not in elements:
            raise ValueError(f"{field}: unknown element {quote(key)}; elements are "
                             f"{', '.join(elements)}")
        out[elements.index(key)] = _int(n, f"{field}.{key}")
    return out


def dump_position(game: Game) -> dict[str, Any]:
    """The JSON form of ``game``'s position (:meth:`Game.position`), which
    :func:`load_position` reads back."""
    rules, pos = game.rules, game._pos
    els, powers = rules.elements, rules.powers
    e, n, k = len(els), len(game.players), len(powers)

    def counts(values: list[int], row: int) -> dict[str, int]:
        return {els[i]: v for i, v in enumerate(values[row * e:(row + 1) * e]) if v}

    out: dict[str, Any] = {
        "rules": rules.to_dict(),
        "players": list(game.players),
        "deck": list(game.deck),
        "grid": [None if c < 0 else els[c] for c in pos.grid],
        "active": list(pos.active),
        "tokens": [counts(pos.tokens, s) for s in range(len(pos.grid))],
        "study": [counts(pos.study, p) for p in range(n)],
        "markers": [counts(pos.markers, p) for p in range(n)],
        "marker_tokens": [counts(pos.marker_tokens, p) for p in range(n)],
        "pool": counts(pos.pool, 0),
        "phase": str(pos.phase),
        "turn": pos.turn,
        "active_player": pos.player,
        "bonus_activations": pos.bonus,
        "effects": game._effect_names(),
        "powers_used": [pw.key for i, pw in enumerate(powers) if pos.used >> i & 1],
        "end_reason": pos.end_reason,
        "spent_activations": pos.spent,
        "powers_used_in_game": [
            {pw.key: pos.majors[p * k + i] for i, pw in enumerate(powers) if pos.majors[p * k + i]}
            for p in range(n)],
        "busy_turn": pos.busy,
    }
    if pos.threshold not in (None, 1):  # lowered by a power to other than Wildfire's 1
        out["turn_threshold"] = pos.threshold
    return out


def load_position(position: Mapping[str, Any]) -> Game:
    """The Game at ``position``, or ``ValueError`` naming the field at fault."""
    from .game import END_REASONS, MAX_PLAYERS, Game, Phase, player_names

    if not isinstance(position, Mapping):
        raise ValueError(f"a position must be an object, got {type(position).__name__}")
    unknown = sorted(str(k) for k in position if k not in _FIELDS)
    if unknown:
        raise ValueError(f"unknown position field(s) {', '.join(unknown)}; fields are "
                         f"{', '.join(_FIELDS)}")
    raw_rules = position.get("rules")
    if raw_rules is None:
        rules = Rules.default()
    elif isinstance(raw_rules, Rules):
        rules = raw_rules
    else:
        try:
            rules = Rules.from_dict(raw_rules)
        except ValueError as err:
            raise ValueError(f"rules: {err}") from None
    els = rules.elements
    e = len(els)
    try:
        names = player_names(position.get("players", 1))
    except ValueError as err:
        raise ValueError(f"players: {err}") from None
    n = len(names)
    size = rules.grid_size

    def element(value: object, field: str) -> int:
        if value not in els:
            raise ValueError(f"{field} must be one of {', '.join(els)}, got {quote(value)}")
        return els.index(str(value))

    if "grid" not in position or "deck" not in position:
        raise ValueError("a position needs both 'grid' and 'deck'")
    grid = [-1 if c is None else element(c, f"grid[{s}]")
            for s, c in enumerate(_list(position["grid"], "grid", size))]
    deck = tuple(element(c, f"deck[{i}]") for i, c in enumerate(_list(position["deck"], "deck")))

    def per_player(field: str) -> list[int]:
        rows = _list(position.get(field, [{}] * n), field, n)
        return [v for p, row in enumerate(rows) for v in _counts(row, f"{field}[{p}]", els)]

    study, markers, mtokens = per_player("study"), per_player("markers"), per_player(
        "marker_tokens")
    tokens = [v for s, row in enumerate(_list(position.get("tokens", [{}] * size), "tokens", size))
              for v in _counts(row, f"tokens[{s}]", els)]
    for s in range(size):
        if grid[s] < 0 and any(tokens[s * e:(s + 1) * e]):
            raise ValueError(f"tokens[{s}]: slot {s} is empty, and tokens lie only on cards")
    pool = _counts(position.get("pool"), "pool", els)

    # Every card of the rules is somewhere exactly once: deck, grid, Studies or Spent markers.
    for i, el in enumerate(els):
        held = (deck.count(i) + grid.count(i) + sum(study[p * e + i] for p in range(n))
                + sum(markers[p * e + i] for p in range(n)))
        if held != rules.cards_per_element:
            raise ValueError(
                f"the position holds {held} {el} cards (deck, grid, Studies and Spent markers); "
                f"these rules have {rules.cards_per_element}")
    supply = []
    for i, el in enumerate(els):
        used = (sum(tokens[s * e + i] for s in range(size)) + pool[i]
                + sum(mtokens[p * e + i] for p in range(n)))
        if used > rules.tokens_per_element:
            raise ValueError(f"the position uses {used} {el} tokens (cards, marker stacks and "
                             f"pool); these rules have {rules.tokens_per_element}")
        supply.append(rules.tokens_per_element - used)
    for p in range(n):
        for i, el in enumerate(els):
            if mtokens[p * e + i] and not markers[p * e + i]:
                raise ValueError(f"marker_tokens[{p}].{el}: tokens are stacked on a Spent {el} "
                                 f"marker that player {p} does not have")

    phase_name = position.get("phase", "activation")
    try:
        phase = Phase(phase_name)
    except ValueError:
        raise ValueError(f"phase must be one of {', '.join(p.value for p in Phase)}, "
                         f"got {quote(phase_name)}") from None
    turn = _int(position.get("turn", 1), "turn", 1)
    player = _int(position.get("active_player", 0), "active_player", 0, n - 1)
    bonus = _int(position.get("bonus_activations", 0), "bonus_activations", 0, size)
    active = [_int(s, "active", 0, size - 1) for s in _list(position.get("active", []), "active")]
    if len(set(active)) != len(active):
        raise ValueError(f"active lists a slot twice: {active}")
    if active and phase is not Phase.ACTIVATION:
        raise ValueError("active cards exist only in the activation phase")
    for s in active:
        if grid[s] < 0:
            raise ValueError(f"active: slot {s} is empty")
    spent = _int(position.get("spent_activations", 0), "spent_activations", 0,
                 rules.activations_per_turn + bonus)
    if spent and rules.deactivate_refund:
        raise ValueError("spent_activations: deactivations refund their activation under "
                         "these rules (deactivate_refund is true)")
    if spent and phase is not Phase.ACTIVATION:
        raise ValueError("spent_activations exist only in the activation phase")
    if len(active) + spent > rules.activations_per_turn + bonus:
        raise ValueError(f"active: {len(active)} cards activated and {spent} activations "
                         f"spent, but only {rules.activations_per_turn + bonus} activations "
                         "this turn")
    empty = grid.count(-1)
    if phase is Phase.REFILL and (not empty or not deck):
        raise ValueError("phase refill needs an empty grid slot and a card in the deck")
    if phase in (Phase.ABILITIES, Phase.ACTIVATION, Phase.BINDING) and empty:
        raise ValueError(f"phase {phase.value} needs a full grid; {empty} slot(s) are empty")
    effects = _list(position.get("effects", []), "effects")
    for name in effects:
        if name not in ("wildfire", "sanctuary"):
            raise ValueError(f"effects: unknown effect {quote(name)}; effects are wildfire, "
                             f"sanctuary")
    threshold: int | None = 1 if "wildfire" in effects else None
    if "turn_threshold" in position:
        threshold = _int(position["turn_threshold"], "turn_threshold", 1,
                         rules.collect_threshold)
    keys = [pw.key for pw in rules.powers]
    used = 0
    for key in _list(position.get("powers_used", []), "powers_used"):
        if key not in keys:
            raise ValueError(f"powers_used: no power {quote(key)} in these rules")
        used |= 1 << keys.index(key)
    uses = _list(position.get("powers_used_in_game", [{}] * n), "powers_used_in_game", n)
    majors = [0] * (n * len(keys))
    for p, row in enumerate(uses):
        if not isinstance(row, Mapping):
            raise ValueError(f"powers_used_in_game[{p}] must be an object of power uses")
        for key, count in row.items():
            if key not in keys:
                raise ValueError(f"powers_used_in_game[{p}]: no power {quote(key)} in these rules")
            majors[p * len(keys) + keys.index(key)] = _int(count, f"powers_used_in_game[{p}]."
                                                           f"{key}")
    busy = _int(position.get("busy_turn", turn - 1), "busy_turn", 0, turn)
    end_reason = position.get("end_reason")
    if (end_reason is None) != (phase is not Phase.GAME_OVER) or (
            end_reason is not None and end_reason not in END_REASONS):
        raise ValueError(f"end_reason must be one of {', '.join(END_REASONS)} exactly when the "
                         f"phase is game_over, got {quote(end_reason)}")
    assert n <= MAX_PLAYERS

    # A seat knows the face-up (active) cards; every inert card is news to it, unless the
    # position says every grid card was shown to every seat (as play shows each card landing).
    shown = position.get("grid_shown", False)
    if not isinstance(shown, bool):
        raise ValueError(f"grid_shown must be true or false, got {quote(shown)}")
    everyone = (1 << n) - 1
    pos = Position(
        bytes(deck), 0, grid, active, tokens, study, markers, mtokens, supply, pool, phase, turn,
        player, bonus, threshold, "sanctuary" in effects, used, spent, tuple(majors), busy,
        end_reason, [everyone if s in active or (shown and grid[s] >= 0) else 0
                     for s in range(size)])
    game = Game._from(rules, names, None, tuple(els[c] for c in deck), pos)
    if phase is Phase.ACTIVATION:
        pos.offered = game._offered()
    elif phase is Phase.ABILITIES:
        pos.ready = game._ready(player)
    game._start = game.position()
    return game
