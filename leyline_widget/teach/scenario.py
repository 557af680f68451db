"""Set up any Leyline position in a few readable lines.

A :class:`Scenario` names only what matters (the cards the learner knows, tokens, Studies, Spent
markers, the pool, the top of the deck, the phase); :meth:`Scenario.build` fills in the rest of
the grid and deck with the remaining cards, in a fixed order, and validates the whole position
through :meth:`Game.from_position`.

Grid cells are element names or unique prefixes (``fire``, ``F``, ``wa``, ``wind``...), ``?`` for
"any card" (filled automatically) and ``.`` for an empty slot. Rows may be separated by ``/`` or
new lines. Every builder method returns a new scenario, so one base can serve many lessons.

>>> s = (Scenario(rules=Rules.default())
...      .grid("? wa ? f / ? ? wa ? / ? ? ? ?")
...      .seen(1, 3, 6)
...      .tokens(3, wind=1).study(0, wind=1, fire=1))
>>> game = s.build()
>>> game.card(1), game.card(6), game.observation(0)["grid"][3]["tokens"]
('water', 'water', {'wind': 1})
>>> s.seen_cards()
{1: 'water', 3: 'fire', 6: 'water'}
>>> Scenario().study(0, fire=13).build()
Traceback (most recent call last):
...
ValueError: scenario: it places 13 fire cards (Studies 13); these rules have 12
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.echo import quote
from ..core.game import Game, Phase, player_names
from ..core.rules import Rules

__all__ = ["ANY", "EMPTY", "Cell", "Scenario", "parse_element", "prefixes"]

#: A grid cell meaning "some card; the scenario picks it".
ANY = "?"
#: A grid cell meaning "no card" (only while refilling).
EMPTY = "."

Cell = str | None  # an element id, ANY, or None for an empty slot

_SPLIT_ROWS = re.compile(r"\s*(?:/|\n)\s*")


def prefixes(elements: Sequence[str]) -> dict[str, str]:
    """The shortest unique prefix of each element, for messages and compact grids.

    >>> prefixes(("fire", "water", "earth", "wind"))
    {'fire': 'f', 'water': 'wa', 'earth': 'e', 'wind': 'wi'}
    """
    out = {}
    for el in elements:
        for n in range(1, len(el) + 1):
            if sum(other.startswith(el[:n]) for other in elements) == 1:
                out[el] = el[:n]
                break
        else:
            out[el] = el
    return out


def parse_element(word: object, rules: Rules, field: str) -> str:
    """An element id from its name or a unique prefix, case-insensitive."""
    els = rules.elements
    if isinstance(word, str):
        w = word.strip().lower()
        if w in els:
            return w
        found = [el for el in els if w and el.startswith(w)]
        if len(found) == 1:
            return found[0]
        if len(found) > 1:
            raise ValueError(f"{field}: {quote(word)} is ambiguous ({', '.join(found)}); write "
                             f"more "
                             "letters")
    short = ", ".join(prefixes(els).values())
    raise ValueError(f"{field}: {quote(word)} is not an element; write one of {', '.join(els)} "
                     f"(or a unique prefix: {short})")


def _count(value: object, field: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"{field} must be a whole number of at least 0, got {quote(value)}")
    return value


class Scenario:
    """A readable, validated set-up of a Leyline position (see the module docstring).

    ``players`` is a count or a list of names (default one player, "You"); ``rules`` defaults to
    :meth:`Rules.default`; ``seed`` shuffles the cards the scenario fills in (``?`` cells and the
    deck below :meth:`deck_top`), which stay in a fixed mixed order when it is None.

    >>> game = Scenario(players=["Ada"]).grid("f f ? ? / ? ? ? ? / ? ? ? ?").seen(0, 1).build()
    >>> game.card(0), game.card(1)
    ('fire', 'fire')
    """

    __slots__ = ("rules", "players", "_seed", "_grid", "_seen", "_active", "_tokens", "_study",
                 "_markers", "_stacked", "_pool", "_deck_top", "_deck", "_extra")

    rules: Rules
    players: tuple[str, ...]

    def __init__(self, players: int | Sequence[str] = ("You",), rules: Rules | None = None,
                 seed: int | None = None) -> None:
        rules = Rules.default() if rules is None else rules
        if not isinstance(rules, Rules):
            raise ValueError(f"rules must be a Rules, got {type(rules).__name__}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError(f"seed must be an integer or None, got {quote(seed)}")
        self.rules = rules
        self.players = player_names(players)
        self._seed = seed
        self._grid: tuple[Cell, ...] = (ANY,) * rules.grid_size
        self._seen: dict[int, frozenset[int]] = {}
        self._active: tuple[int, ...] = ()
        self._tokens: dict[int, dict[str, int]] = {}
        self._study: dict[int, dict[str, int]] = {}
        self._markers: dict[int, dict[str, int]] = {}
        self._stacked: dict[int, dict[str, int]] = {}
        self._pool: dict[str, int] = {}
        self._deck_top: tuple[str, ...] = ()
        self._deck: tuple[str, ...] | None = None
        # phase, turn, active_player, bonus_activations, effects, powers_used
        self._extra: dict[str, Any] = {}

    # ------------------------------------------------------------------ building
    def _with(self, **changes: Any) -> Scenario:
        new = Scenario.__new__(Scenario)
        for name in Scenario.__slots__:
            setattr(new, name, getattr(self, name))
        for name, value in changes.items():
            setattr(new, name, value)
        return new

    def _slot(self, slot: object, field: str) -> int:
        size = self.rules.grid_size
        if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < size:
            raise ValueError(f"{field}: slot {quote(slot)} does not exist; the grid has slots 0 to "
                             f"{size - 1}")
        return slot

    def _player(self, player: object, field: str) -> int:
        n = len(self.players)
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
            raise ValueError(f"{field}: player {quote(player)} does not exist; players are 0 to "
                             f"{n - 1}")
        return player

    def _counts(self, counts: Mapping[str, object], field: str) -> dict[str, int]:
        out: dict[str, int] = {}
        for key, n in counts.items():
            el = parse_element(key, self.rules, field)
            out[el] = out.get(el, 0) + _count(n, f"{field}.{el}")
        return {el: n for el, n in out.items() if n}

    def grid(self, layout: str | Sequence[str | None]) -> Scenario:
        """Every grid slot in row-major order: elements, ``?`` (any card) or ``.`` (empty).

        >>> Scenario().grid("f ? ? ? / ? ? ? ? / ? ? ? .")._grid[:2]
        ('fire', '?')
        """
        rules = self.rules
        if isinstance(layout, str):
            rows = [r for r in _SPLIT_ROWS.split(layout.strip()) if r]
            if len(rows) > 1:
                if len(rows) != rules.grid_rows:
                    raise ValueError(f"grid: the layout has {len(rows)} rows; these rules' grid "
                                     f"has {rules.grid_rows}")
                for i, row in enumerate(rows):
                    if len(row.split()) != rules.grid_cols:
                        raise ValueError(f"grid: row {i} has {len(row.split())} cells; rows "
                                         f"have {rules.grid_cols}")
            cells: list[str | None] = [c for r in rows for c in r.split()]
        elif isinstance(layout, Sequence):
            cells = list(layout)
        else:
            raise ValueError(f"grid must be a string or a list of cells, got "
                             f"{type(layout).__name__}")
        if len(cells) != rules.grid_size:
            raise ValueError(f"grid: the layout has {len(cells)} cells; these rules' grid has "
                             f"{rules.grid_size} slots ({rules.grid_rows} rows x "
                             f"{rules.grid_cols} columns)")
        parsed: list[Cell] = []
        for s, c in enumerate(cells):
            if c is None or c == EMPTY:
                parsed.append(None)
            elif c == ANY:
                parsed.append(ANY)
            else:
                parsed.append(parse_element(c, rules, f"grid slot {s}"))
        return self._with(_grid=tuple(parsed))

    def seen(self, *slots: int, player: int = 0) -> Scenario:
        """Cards ``player`` has seen and remembers (lessons show them as known).

        In Leyline inert cards lie element-side down, so "face up" in a scenario means "this
        player knows it"; lessons grade only with these cards and what is revealed later.
        """
        p = self._player(player, "seen")
        known = frozenset(self._slot(s, "seen") for s in slots)
        return self._with(_seen={**self._seen, p: self._seen.get(p, frozenset()) | known})

    def active(self, *slots: int) -> Scenario:
        """Cards already activated this turn (Element side up, seen by everyone)."""
        chosen = tuple(self._slot(s, "active") for s in slots)
        if len(set(chosen)) != len(chosen):
            raise ValueError(f"active lists a slot twice: {list(chosen)}")
        return self._with(_active=chosen)

    def tokens(self, slot: int, **counts: int) -> Scenario:
        """The Binding Spell tokens on the card in ``slot`` (replacing any given before)."""
        s = self._slot(slot, "tokens")
        return self._with(_tokens={**self._tokens, s: self._counts(counts, f"tokens[{s}]")})

    def study(self, player: int, **counts: int) -> Scenario:
        """The cards in ``player``'s Study."""
        p = self._player(player, "study")
        return self._with(_study={**self._study, p: self._counts(counts, f"study[{p}]")})

    def markers(self, player: int, stacked: Mapping[str, int] | None = None,
                **counts: int) -> Scenario:
        """``player``'s Spent Element markers, and the returned tokens ``stacked`` on them."""
        p = self._player(player, "markers")
        return self._with(
            _markers={**self._markers, p: self._counts(counts, f"markers[{p}]")},
            _stacked={**self._stacked, p: self._counts(stacked or {}, f"marker_tokens[{p}]")})

    def pool(self, **counts: int) -> Scenario:
        """The tokens in the shared Token Pool."""
        return self._with(_pool=self._counts(counts, "pool"))

    def deck_top(self, *cards: str) -> Scenario:
        """The top of the Leyline deck, top first; the remaining cards go below it."""
        return self._with(_deck_top=tuple(
            parse_element(c, self.rules, f"deck_top[{i}]") for i, c in enumerate(cards)))

    def deck(self, *cards: str) -> Scenario:
        """The whole deck, top first: every other card must then be placed by the scenario."""
        return self._with(_deck=tuple(
            parse_element(c, self.rules, f"deck[{i}]") for i, c in enumerate(cards)))

    def with_seed(self, seed: int | None) -> Scenario:
        """The same scenario with the cards it fills in (``?`` cells, the deck below the given
        top) dealt in another order: what a player has not seen changes, nothing else."""
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ValueError(f"seed must be an integer or None, got {quote(seed)}")
        return self._with(_seed=seed)

    def phase(self, phase: str | Phase) -> Scenario:
        """The phase of the turn (default ``activation``)."""
        try:
            value = Phase(phase).value
        except ValueError:
            raise ValueError(f"phase must be one of {', '.join(p.value for p in Phase)}, got "
                             f"{quote(phase)}") from None
        return self._with(_extra={**self._extra, "phase": value})

    def turn(self, turn: int, active_player: int | None = None) -> Scenario:
        """The turn number and, optionally, whose turn it is."""
        extra = {**self._extra, "turn": _count(turn, "turn")}
        if active_player is not None:
            extra["active_player"] = self._player(active_player, "active_player")
        return self._with(_extra=extra)

    def effects(self, *effects: str, bonus_activations: int = 0,
                powers_used: Sequence[str] = ()) -> Scenario:
        """This turn's power effects (``wildfire``, ``sanctuary``), Spark's extra activations,
        and the powers already used this turn (``"fire:minor"``...)."""
        return self._with(_extra={**self._extra, "effects": list(effects),
                                  "bonus_activations": _count(bonus_activations,
                                                              "bonus_activations"),
                                  "powers_used": list(powers_used)})

    # ------------------------------------------------------------------ reading
    @property
    def learner(self) -> int:
        """The player whose turn it is: the one a lesson teaches."""
        player: int = self._extra.get("active_player", 0)
        return player

    def seen_cards(self, player: int = 0) -> dict[int, str]:
        """``{slot: element}`` of the cards ``player`` knows at the start (seen or active)."""
        p = self._player(player, "seen_cards")
        out = {}
        for s in sorted(self._seen.get(p, frozenset()) | set(self._active)):
            cell = self._grid[s]
            if cell is None or cell == ANY:
                what = "empty" if cell is None else "'?' (any card)"
                raise ValueError(f"seen: slot {s} is {what}; a card a player has seen must be "
                                 "named in the grid")
            out[s] = cell
        return out

    def position(self) -> dict[str, Any]:
        """The whole position as a JSON-safe dict (the form :meth:`Game.position` writes)."""
        return self._position(json_rules=True)

    def build(self) -> Game:
        """The :class:`Game` at this position; an impossible set-up raises ``ValueError``."""
        position = self._position(json_rules=False)
        try:
            return Game.from_position(position)
        except ValueError as err:
            raise ValueError(f"scenario: {err}") from None

    def _position(self, json_rules: bool) -> dict[str, Any]:
        rules = self.rules
        n = len(self.players)
        for p in range(n):
            self.seen_cards(p)  # a seen '?' or empty slot is refused early
        grid, deck = self._deal()
        return {
            "rules": rules.to_dict() if json_rules else rules,
            "players": list(self.players),
            "deck": deck,
            "grid": grid,
            "active": list(self._active),
            "tokens": [dict(self._tokens.get(s, {})) for s in range(rules.grid_size)],
            "study": [dict(self._study.get(p, {})) for p in range(n)],
            "markers": [dict(self._markers.get(p, {})) for p in range(n)],
            "marker_tokens": [dict(self._stacked.get(p, {})) for p in range(n)],
            "pool": dict(self._pool),
            **self._extra,
        }

    def _deal(self) -> tuple[list[str | None], list[str]]:
        """Fill ``?`` cells and the deck with the cards the scenario has not placed."""
        rules = self.rules
        placed: dict[str, dict[str, int]] = {el: {} for el in rules.elements}

        def add(el: str, where: str, n: int = 1) -> None:
            placed[el][where] = placed[el].get(where, 0) + n

        for cell in self._grid:
            if cell is not None and cell != ANY:
                add(cell, "grid")
        for cards, where in ((self._deck_top, "deck top"), (self._deck or (), "deck")):
            for el in cards:
                add(el, where)
        for rows, where in ((self._study, "Studies"), (self._markers, "Spent markers")):
            for counts in rows.values():
                for el, k in counts.items():
                    add(el, where, k)
        left: dict[str, int] = {}
        for el in rules.elements:
            total = sum(placed[el].values())
            if total > rules.cards_per_element:
                parts = ", ".join(f"{w} {k}" for w, k in placed[el].items())
                raise ValueError(f"scenario: it places {total} {el} cards ({parts}); these "
                                 f"rules have {rules.cards_per_element}")
            left[el] = rules.cards_per_element - total
        rest: list[str] = []
        while any(left.values()):
            # Round-robin keeps the filled-in cards mixed and the order fixed.
            for el in rules.elements:
                if left[el]:
                    rest.append(el)
                    left[el] -= 1
        if self._seed is not None:
            random.Random(self._seed).shuffle(rest)
        wild = [s for s, c in enumerate(self._grid) if c == ANY]
        if len(wild) > len(rest):
            raise ValueError(f"scenario: the grid has {len(wild)} '?' slots but only "
                             f"{len(rest)} cards are left to fill them")
        grid: list[str | None] = list(self._grid)
        for s, el in zip(wild, rest):
            grid[s] = el
        rest = rest[len(wild):]
        if self._deck is None:
            return grid, [*self._deck_top, *rest]
        if rest:
            counts = {el: rest.count(el) for el in rules.elements if el in rest}
            left_over = ", ".join(f"{k} {el}" for el, k in counts.items())
            raise ValueError(f"scenario: the deck was given in full, so every other card must be "
                             f"placed, but {left_over} are left over; put them on the grid, in "
                             f"Studies or Spent markers, or use deck_top() instead of deck()")
        return grid, [*self._deck_top, *self._deck]

    def __repr__(self) -> str:
        short = prefixes(self.rules.elements)
        cols = self.rules.grid_cols
        cells = ["." if c is None else ANY if c == ANY else short[c] for c in self._grid]
        rows = [" ".join(cells[i:i + cols]) for i in range(0, len(cells), cols)]
        return f"<Scenario {list(self.players)} grid {' / '.join(rows)!r}>"
