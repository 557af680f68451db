"""Replays: a recorded game you can seek, annotate, branch, share and re-check.

A :class:`Replay` holds the start of a game (rules, players, initial deck or start position)
and its actions. Positions are recomputed by the engine, never stored, so a replay file
cannot smuggle in a position the rules do not reach: loading re-runs every action and
checks the state hash of every step. ``docs/replay-format.md`` documents the JSON.

>>> from leyline_widget import Game, Replay
>>> game = Game.new(players=2, seed=7)
>>> for _ in range(5):
...     _ = game.apply(game.legal_actions()[0])
>>> replay = Replay.from_game(game)
>>> len(replay), replay.game_at(5).state_hash() == game.state_hash()
(5, True)
>>> note = replay.annotate(2, "a quiet start", tags=["opening"])
>>> copy = Replay.from_json(replay.to_json())
>>> copy.annotations[2][0].text, copy.state_hash(5) == game.state_hash()
('a quiet start', True)

Variations form a tree, as in PGN or a Lichess study: :meth:`Replay.branch` hands back a live
:class:`~leyline_widget.core.game.Game` whose moves are recorded as a variation.

>>> side = replay.branch(3, name="pass instead")
>>> _ = side.apply(side.legal_actions()[-1])
>>> [(v.id, v.name, v.step, len(v.actions)) for v in replay.variations]
[(1, 'pass instead', 3, 1)]
"""

from __future__ import annotations

import gc
import itertools
import json
import marshal
import math
import os
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from typing import Any, NoReturn

from ..core.actions import Action, Activate, Deactivate
from ..core.echo import names, quote, quote_path
from ..core.files import write_atomic
from ..core.game import Frozen, Game, IllegalActionError, check_deck, visible_events
from ..core.rules import Rules
from ..core.types import Event, Observation

__all__ = [
    "FORMAT",
    "GLYPHS",
    "VERDICTS",
    "VERSION",
    "JsonFile",
    "Note",
    "Replay",
    "ReplayFormatError",
    "RerunReport",
    "Step",
    "StepError",
    "Variation",
    "VariationError",
    "check_analysis",
    "dump_json",
    "parse_json",
    "read_file",
]

FORMAT = "leyline-replay"
#: The format version this module writes and the newest it reads. Version 2 added glyphs and
#: changed the state-hash recipe (``Game.state_hash(2)``); version 3 added ``analyses`` (the
#: coach's reviews of the main line). Version-1 and version-2 files still load.
VERSION = 3

#: The coach's verdicts, best to worst (``leyline_widget.agents.analysis.VERDICTS``; the replay
#: layer stores reviews as plain JSON and cannot import the coach).
VERDICTS = ("best", "good", "inaccuracy", "mistake", "blunder")
MAX_OPTIONS = 512  # options of one reviewed decision
MAX_REASON_CHARS = 2_000

#: The move glyphs of PGN and Lichess, best to worst: brilliant, good, interesting, dubious,
#: mistake, blunder.
GLYPHS = ("!!", "!", "!?", "?!", "?", "??")

#: Limits on untrusted files (shared replays). A file this module writes stays within them
#: unless its annotations alone pass ``MAX_BYTES``.
MAX_BYTES = 32 * 1024 * 1024
MAX_ACTIONS = 200_000  # over the main line and every variation
MAX_VARIATIONS = 10_000
MAX_DEPTH = 12  # JSON nesting; the format itself needs 6
MAX_INT = 2**63 - 1
MAX_NOTE_CHARS = 10_000
MAX_NAME_CHARS = 200
MAX_TAGS = 16

#: Fast seek keeps a snapshot every SNAPSHOT_EVERY steps and after every action but the two
#: cheapest to re-apply (Activate and Deactivate), so a seek thaws a snapshot and re-applies
#: at most SNAPSHOT_EVERY - 1 of them. Snapshots are copies of the position (Game.freeze) that
#: share the game's history. One every step makes every seek one thaw, as ``game_at(1)`` is
#: (benchmarks/bench_replay.py measures seeks against it).
SNAPSHOT_EVERY = 1

_CHEAP = (Activate, Deactivate)
_TAG = re.compile(r"[a-z0-9][a-z0-9_-]{0,31}")  # matched whole (fullmatch)
_HASH = re.compile(r"[0-9a-f]{32}")
_READ_LATER = frozenset(("actions", "hashes"))  # see _check_tree
# C0 and C1 control characters other than tab and newline: terminal escapes and invisible
# tricks have no place in a note shared between strangers.
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
_TOP_FIELDS = ("format", "version", "generator", "rules", "players", "seed", "initial_deck",
               "start_position", "actions", "hashes", "annotations", "variations", "glyphs",
               "analyses")
_VARIATION_FIELDS = ("id", "name", "parent", "step", "actions", "hashes", "annotations",
                     "glyphs")
_NOTE_FIELDS = ("step", "text", "tags", "highlights")


# ---------------------------------------------------------------------- errors and values
class ReplayFormatError(ValueError):
    """A replay file that is malformed, tampered with, or from a newer version.

    ``field`` names the JSON field at fault and ``step`` the step, when there is one;
    ``variation`` the id of the variation concerned.

    >>> try:
    ...     Replay.from_json('{"format": "chess"}')
    ... except ReplayFormatError as err:
    ...     print(err.field, "/", err)
    format / field 'format' must be 'leyline-replay', got 'chess': not a Leyline replay
    """

    def __init__(self, message: str, *, field: str | None = None, step: int | None = None,
                 variation: int | None = None) -> None:
        super().__init__(message)
        self.field = field
        self.step = step
        self.variation = variation


class StepError(IndexError, ValueError):
    """A step number outside the line asked about."""


class VariationError(LookupError, ValueError):
    """An unknown variation id, or a variation operation that makes no sense."""


@dataclass(frozen=True)
class Note:
    """One annotation: untrusted ``text``, ``tags`` (lower-case ids such as ``"spoiler"``)
    and ``highlights`` (grid slots to point at). ``note["text"]`` works too.
    """

    text: str
    tags: tuple[str, ...] = ()
    highlights: tuple[int, ...] = ()

    def __getitem__(self, key: str) -> Any:
        if key not in ("text", "tags", "highlights"):
            raise KeyError(key)
        return getattr(self, key)

    def to_dict(self) -> dict[str, Any]:
        return {"text": self.text, "tags": list(self.tags), "highlights": list(self.highlights)}


@dataclass(frozen=True)
class Variation:
    """A read-only view of one variation: the moves that follow ``step`` of its parent line.

    ``parent`` is the id of the parent variation, or None for the main line. Its full line
    is the parent's first ``step`` actions followed by ``actions``; ``annotations`` maps its
    own steps (``step`` to ``end``) to notes. ``live`` is True while a Game from
    :meth:`Replay.branch` still records into it.
    """

    id: int
    name: str
    parent: int | None
    step: int
    actions: tuple[Action, ...]
    annotations: dict[int, list[Note]] = field(compare=False)
    live: bool = False
    glyphs: dict[int, str] = field(default_factory=dict, compare=False)

    @property
    def end(self) -> int:
        """The step of its last position."""
        return self.step + len(self.actions)


@dataclass(frozen=True)
class Step:
    """One step of a line, as :meth:`Replay.steps` yields it (``action`` is None at set-up)."""

    step: int
    action: Action | None
    events: list[Event]
    observation: Observation
    notes: list[Note]
    state_hash: str


@dataclass(frozen=True)
class RerunReport:
    """What :meth:`Replay.rerun` found when it replayed a line under other rules."""

    rules: Rules
    actions: int
    legal: int
    illegal_step: int | None
    illegal_action: Action | None
    reason: str | None
    first_difference: int | None
    original: dict[str, Any]
    outcome: dict[str, Any]
    game: Game = field(compare=False, repr=False)

    @property
    def same(self) -> bool:
        """Every action is still legal and the outcome is unchanged."""
        return self.illegal_step is None and self.outcome == self.original

    @property
    def step(self) -> int | None:
        """The first step where the line stops being legal, or where the positions that led
        to a different outcome began to differ; None when nothing changes."""
        if self.illegal_step is not None:
            return self.illegal_step
        return None if self.same else self.first_difference

    def __str__(self) -> str:
        if self.illegal_step is not None:
            return (f"step {self.illegal_step}: {quote(self.illegal_action)} is illegal under "
                    f"these "
                    f"rules: {self.reason}")
        if self.same:
            return f"all {self.actions} actions are legal and the outcome is the same"
        return (f"all {self.actions} actions are legal but the outcome differs "
                f"(positions differ from step {self.first_difference}): "
                f"{_outcome_words(self.original)} before, {_outcome_words(self.outcome)} now")


def _outcome(game: Game) -> dict[str, Any]:
    return {"is_over": game.is_over, "end_reason": game.end_reason, "scores": game.scores(),
            "winners": game.winners(), "turns": game.turn}


def _outcome_words(outcome: Mapping[str, Any]) -> str:
    state = f"over ({outcome['end_reason']})" if outcome["is_over"] else "not over"
    return f"{state}, scores {outcome['scores']} after {outcome['turns']} turns"


# ---------------------------------------------------------------------- validation helpers
def _check_text(value: object, what: str, limit: int) -> str:
    if not isinstance(value, str):
        raise ValueError(f"{what} must be a string, got {type(value).__name__}")
    if len(value) > limit:
        raise ValueError(f"{what} is {len(value)} characters long; the limit is {limit}")
    bad = _CONTROL.search(value)
    if bad:
        raise ValueError(f"{what} contains the control character {quote(bad.group())}")
    return value


def _check_name(value: object, what: str = "a variation name") -> str:
    name = _check_text(value, what, MAX_NAME_CHARS)
    if not name.strip() or "\n" in name:
        raise ValueError(f"{what} must be one non-empty line, got {quote(name)}")
    return name


def make_note(text: object, tags: Iterable[object] = (), highlights: Iterable[object] = (),
              grid_size: int = 12) -> Note:
    """A validated :class:`Note`; ``ValueError`` names what is wrong.

    >>> make_note("look here", tags=["hint"], highlights=[5, 2])
    Note(text='look here', tags=('hint',), highlights=(2, 5))
    """
    text = _check_text(text, "note text", MAX_NOTE_CHARS)
    if isinstance(tags, str) or not isinstance(tags, Iterable):
        raise ValueError(f"note tags must be a list of strings, got {quote(tags)}")
    tag_list: list[str] = []
    for tag in tags:
        if not isinstance(tag, str) or not _TAG.fullmatch(tag):
            raise ValueError(f"note tag {quote(tag)} is not a tag (lower-case letters, digits, _ "
                             f"and -, "
                             "at most 32 characters)")
        if tag not in tag_list:
            tag_list.append(tag)
    if len(tag_list) > MAX_TAGS:
        raise ValueError(f"a note has at most {MAX_TAGS} tags, got {len(tag_list)}")
    if isinstance(highlights, str) or not isinstance(highlights, Iterable):
        raise ValueError(f"note highlights must be a list of slots, got {quote(highlights)}")
    slots: set[int] = set()
    for slot in highlights:
        if isinstance(slot, bool) or not isinstance(slot, int) or not 0 <= slot < grid_size:
            raise ValueError(f"highlight {quote(slot)} is not a grid slot (0 to {grid_size - 1})")
        slots.add(slot)
    if not text.strip() and not slots:
        raise ValueError("a note needs text or highlighted slots")
    return Note(text, tuple(tag_list), tuple(sorted(slots)))


def _reject_constant(name: str) -> NoReturn:
    raise ReplayFormatError(f"not valid JSON: {name} is not a JSON number")


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out = dict(pairs)
    if len(out) == len(pairs):  # the common case: no key was given twice
        return out
    out = {}
    for key, value in pairs:
        if key in out:
            # Two values for one key: readers would disagree on which one counts.
            raise ReplayFormatError(f"not valid replay JSON: the key {quote(key)} appears twice in "
                                    "one object", field=key)
        out[key] = value
    return out


def _check_tree(value: Any, path: str, depth: int = 0, fractions: bool = False,
                line: bool = False) -> None:
    """Reject what no field of the format holds: deep nesting, huge or fractional numbers,
    overlong strings. Runs before any field is read, so later code sees sane values. Only
    ``analyses`` (``fractions``) holds fractions: finite ones. In a ``line`` (the replay
    object, or a list of variations or one of them) the ``actions`` and ``hashes`` lists are
    left to their readers, which check each distinct action and every hash (the bulk of a long
    file) as they read them."""
    if depth > MAX_DEPTH:
        raise ReplayFormatError(f"field {quote(path)}: nesting is deeper than {MAX_DEPTH} levels",
                                field=path)
    if isinstance(value, str):
        if len(value) > MAX_NOTE_CHARS:
            raise ReplayFormatError(f"field {quote(path)}: a string of {len(value)} characters; "
                                    f"the "
                                    f"limit is {MAX_NOTE_CHARS}", field=path)
    elif isinstance(value, bool) or value is None:
        pass
    elif isinstance(value, int):
        if not -MAX_INT <= value <= MAX_INT:
            raise ReplayFormatError(f"field {quote(path)}: the number {quote(value)} is out of "
                                    f"range "
                                    f"(at most {MAX_INT} in size)", field=path)
    elif isinstance(value, float):
        if fractions and math.isfinite(value) and abs(value) <= MAX_INT:
            return
        raise ReplayFormatError(f"field {quote(path)}: {quote(value)} is not a whole number; the "
                                "format "
                                "has no fractions", field=path)
    elif isinstance(value, list):
        for i, item in enumerate(value):
            kind = type(item)
            if kind is str and len(item) <= MAX_NOTE_CHARS:  # decks and hashes: fast
                continue
            if kind is dict and depth + 1 < MAX_DEPTH:  # actions: fast when flat and sane
                for inner in item.values():
                    t = type(inner)
                    if not ((t is int and -MAX_INT <= inner <= MAX_INT)
                            or (t is str and len(inner) <= MAX_NOTE_CHARS)
                            or (t is list and depth + 2 < MAX_DEPTH and all(
                                type(x) is int and -MAX_INT <= x <= MAX_INT for x in inner))):
                        break
                else:
                    continue
            _check_tree(item, f"{path}[{i}]", depth + 1, fractions, line)
    else:  # dict
        for key, item in value.items():
            if line and key in _READ_LATER and type(item) is list:
                continue
            _check_tree(item, f"{path}.{key}" if path else key, depth + 1,
                        fractions or (not path and key == "analyses"),
                        line and not path and key == "variations")


def _deals(rules: Rules, seed: int, deck: Sequence[str]) -> bool:
    """Whether dealing a game from ``seed`` gives exactly ``deck`` (top first)."""
    return Game.new(players=1, seed=seed, rules=rules).initial_deck == tuple(deck)


def _field(data: Mapping[str, Any], key: str, kind: type | tuple[type, ...], where: str) -> Any:
    if key not in data:
        raise ReplayFormatError(f"field {quote(where + key)} is missing", field=where + key)
    value = data[key]
    if (isinstance(value, bool) and kind is int) or not isinstance(value, kind):
        want = {int: "an integer", str: "a string", list: "a list", dict: "an object"}
        name = want.get(kind, "a value") if isinstance(kind, type) else "a value"
        raise ReplayFormatError(f"field {quote(where + key)} must be {name}, got {quote(value)}",
                                field=where + key)
    return value


# ---------------------------------------------------------------------- analyses
def _number(value: object, at: str, low: float = 0.0) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(
            value) or value < low or abs(value) > MAX_INT:
        want = "a finite number" + (" >= 0" if low == 0.0 else "")
        raise ReplayFormatError(f"field {quote(at)} must be {want}, got {quote(value)}", field=at)
    return float(value)


def _int_field(data: Mapping[str, Any], key: str, at: str, low: int, high: int) -> int:
    value = _field(data, key, int, at + ".")
    if not low <= value <= high:
        raise ReplayFormatError(f"field '{at}.{key}': {value} is not from {low} to {high}",
                                field=f"{at}.{key}")
    return int(value)


def _text(value: object, at: str, limit: int) -> str:
    try:
        return _check_text(value, f"field {quote(at)}", limit)
    except ValueError as err:
        raise ReplayFormatError(str(err), field=at) from None


def _action(value: object, at: str) -> dict[str, Any]:
    try:
        return Action.from_dict(value).to_dict()
    except (ValueError, TypeError, KeyError) as err:
        raise ReplayFormatError(f"field {quote(at)}: {quote(value, 120)} is not an action: {err}",
                                field=at) from None


def check_analysis(data: object, actions: Sequence[Action], actors: Sequence[int],
                   players: int, where: str = "analyses[0]") -> dict[str, Any]:
    """A checked copy of one seat's review (``Review.to_dict()`` of the coach) of the main line
    ``actions`` (``actors[i]`` the seat that played ``actions[i]``), or a ReplayFormatError
    naming the field: each move's ``step`` indexes an action of that seat, in order, ``played``
    is the action there, ``best`` an action, ``loss`` a finite number >= 0, ``verdict`` one of
    :data:`VERDICTS`, ``reason`` a line of text; ``options`` (optional) hold ``key``,
    ``label``, ``actions``, a finite ``value`` and a ``rollouts`` count; optional
    ``value_before``, ``value_played`` (finite numbers) and ``line``, ``played_line`` (lists of
    actions) per move, and ``values`` (a finite number per step) for the review.
    """
    at = where
    if not isinstance(data, Mapping):
        raise ReplayFormatError(f"field {quote(at)} must be an object (a review), "
                                f"got {quote(data)}",
                                field=at)
    unknown = sorted(str(k) for k in data if k not in ("player", "seed", "budget", "moves",
                                                       "values"))
    if unknown:
        raise ReplayFormatError(f"field {quote(at)}: unknown field(s) {names(map(repr, unknown))}",
                                field=f"{at}.{unknown[0]}")
    player = _int_field(data, "player", at, 0, players - 1)
    seed = _field(data, "seed", int, at + ".")
    budget = _int_field(data, "budget", at, 1, MAX_INT)
    raw = _field(data, "moves", list, at + ".")
    if len(raw) > len(actions):
        raise ReplayFormatError(f"field '{at}.moves': {len(raw)} moves for a line of "
                                f"{len(actions)} actions", field=at + ".moves")
    moves: list[dict[str, Any]] = []
    last = -1
    for k, m in enumerate(raw):
        mat = f"{at}.moves[{k}]"
        if not isinstance(m, Mapping):
            raise ReplayFormatError(f"field {quote(mat)} must be an object, got {quote(m)}",
                                    field=mat)
        extra = sorted(str(x) for x in m if x not in (
            "step", "player", "played", "best", "loss", "verdict", "reason", "options",
            "value_before", "value_played", "line", "played_line", "cause"))
        if extra:
            raise ReplayFormatError(f"field {quote(mat)}: unknown field(s) "
                                    f"{names(map(repr, extra))}", field=f"{mat}.{extra[0]}")
        step = _int_field(m, "step", mat, 0, max(0, len(actions) - 1))
        if not actions:
            raise ReplayFormatError(f"field '{mat}.step': the main line has no actions",
                                    field=mat + ".step")
        if step <= last:
            raise ReplayFormatError(f"field '{mat}.step': step {step} is not after the previous "
                                    f"move's ({last})", field=mat + ".step", step=step)
        last = step
        if _int_field(m, "player", mat, 0, players - 1) != player:
            raise ReplayFormatError(f"field '{mat}.player' must be the review's player {player}",
                                    field=mat + ".player", step=step)
        if actors[step] != player:
            raise ReplayFormatError(f"field '{mat}.step': action {step} was played by seat "
                                    f"{actors[step]}, not by seat {player}", field=mat + ".step",
                                    step=step)
        played = _action(m.get("played"), mat + ".played")
        if played != actions[step].to_dict():
            raise ReplayFormatError(f"field '{mat}.played': {quote(played)} is not the action at "
                                    f"step {step} ({actions[step].to_dict()})",
                                    field=mat + ".played", step=step)
        best = _action(m.get("best"), mat + ".best")
        loss = _number(m.get("loss"), mat + ".loss")
        verdict = m.get("verdict")
        if verdict not in VERDICTS:
            raise ReplayFormatError(f"field '{mat}.verdict': {quote(verdict)} is not one of "
                                    f"{', '.join(VERDICTS)}", field=mat + ".verdict", step=step)
        reason = _text(m.get("reason"), mat + ".reason", MAX_REASON_CHARS)
        opts = m.get("options", [])
        if not isinstance(opts, list) or len(opts) > MAX_OPTIONS:
            raise ReplayFormatError(f"field '{mat}.options' must be a list of at most "
                                    f"{MAX_OPTIONS} options", field=mat + ".options", step=step)
        options: list[dict[str, Any]] = []
        for j, o in enumerate(opts):
            oat = f"{mat}.options[{j}]"
            if not isinstance(o, Mapping) or sorted(o) != ["actions", "key", "label", "rollouts",
                                                            "value"]:
                raise ReplayFormatError(f"field {quote(oat)} must be an object with key, label, "
                                        "actions, value and rollouts", field=oat, step=step)
            plan = o["actions"]
            if not isinstance(plan, list) or len(plan) > 64:
                raise ReplayFormatError(f"field '{oat}.actions' must be a list of at most 64 "
                                        "actions", field=oat + ".actions", step=step)
            options.append({
                "key": _text(o["key"], oat + ".key", MAX_NAME_CHARS),
                "label": _text(o["label"], oat + ".label", MAX_REASON_CHARS),
                "actions": [_action(a, f"{oat}.actions[{i}]") for i, a in enumerate(plan)],
                "value": _number(o["value"], oat + ".value", -math.inf),
                "rollouts": _int_field(o, "rollouts", oat, 0, MAX_INT)})
        move = {"step": step, "player": player, "played": played, "best": best, "loss": loss,
                "verdict": verdict, "reason": reason, "options": options}
        # The values and lines of the search (optional: reviews written before them load).
        for key in ("value_before", "value_played"):
            if key in m:
                move[key] = _number(m[key], f"{mat}.{key}", -math.inf)
        for key in ("line", "played_line"):
            if key in m:
                line = m[key]
                if not isinstance(line, list) or len(line) > 256:
                    raise ReplayFormatError(f"field '{mat}.{key}' must be a list of at most 256 "
                                            "actions", field=f"{mat}.{key}", step=step)
                move[key] = [_action(a, f"{mat}.{key}[{i}]") for i, a in enumerate(line)]
        if "cause" in m:  # the coach's cause of the loss (agents/causes.py), a short name
            move["cause"] = _text(m["cause"], mat + ".cause", MAX_NAME_CHARS)
        moves.append(move)
    out = {"player": player, "seed": seed, "budget": budget, "moves": moves}
    if "values" in data:
        values = data["values"]
        if not isinstance(values, list) or len(values) > len(actions) + 1:
            raise ReplayFormatError(f"field '{at}.values' must be a list of at most one value "
                                    "per step", field=at + ".values")
        out["values"] = [_number(v, f"{at}.values[{i}]", -math.inf)
                         for i, v in enumerate(values)]
    return out


# ---------------------------------------------------------------------- lines
class _Line:
    """The main line (id 0) or a variation, with its seek caches.

    ``work`` is a game advanced to the line's end with the full history from set-up;
    ``snaps`` holds frozen positions (Game.freeze: sharing the history)
    every SNAPSHOT_EVERY steps; ``hashes[k]`` is the
    state hash at step ``start + k``.
    """

    __slots__ = ("id", "name", "parent", "start", "own", "notes", "live", "work", "snaps",
                 "hashes", "glyphs")

    def __init__(self, id: int, name: str, parent: _Line | None, start: int,
                 own: list[Action], notes: dict[int, list[Note]] | None = None,
                 live: Game | None = None) -> None:
        self.id = id
        self.name = name
        self.parent = parent
        self.start = start
        self.own = own
        self.notes: dict[int, list[Note]] = notes if notes is not None else {}
        self.glyphs: dict[int, str] = {}
        self.live = live
        self.forget()

    def forget(self) -> None:
        self.work: Game | None = None
        self.snaps: dict[int, Frozen] = {}
        self.hashes: list[str] = []

    @property
    def end(self) -> int:
        return self.start + len(self.own)

    def label(self) -> str:
        return "the main line" if self.id == 0 else f"variation {self.id} ({quote(self.name, 40)})"


class _StepFailure(Exception):
    def __init__(self, line: _Line, step: int, action: Action, error: IllegalActionError) -> None:
        super().__init__(str(error))
        self.line, self.step, self.action, self.error = line, step, action, error


def dump_json(data: Any, indent: int | None) -> str:
    """A file's JSON text: compact, or indented for people (ASCII only either way)."""
    return json.dumps(data, indent=indent, separators=(
        (",", ":") if indent is None else (",", ": ")))


def read_file(path: str | os.PathLike[str], max_bytes: int, what: str) -> bytes:
    """The bytes of a replay or study file, or a :class:`ReplayFormatError` naming the path
    when it is missing, a folder, unreadable or larger than ``max_bytes``."""
    where = os.fspath(path)
    try:
        with open(path, "rb") as f:
            size = os.fstat(f.fileno()).st_size
            if size > max_bytes:
                raise ReplayFormatError(f"{quote_path(where)}: the file is {size} bytes; the "
                                        f"limit is {max_bytes} (pass max_bytes= to allow "
                                        "more)")
            return f.read(max_bytes + 1)
    except FileNotFoundError:
        raise ReplayFormatError(f"no {what} file at {quote_path(where)}: the path does not "
                                "exist") from None
    except IsADirectoryError:
        raise ReplayFormatError(f"{quote_path(where)} is a folder, not a {what} file") from None
    except OSError as err:
        raise ReplayFormatError(f"cannot read the {what} file {quote_path(where)}: "
                                f"{err.strerror or err}") from None


def parse_json(text: str | bytes, max_bytes: int, what: str) -> Any:
    """Parse a replay or study file's JSON text, within ``max_bytes``, or raise
    :class:`ReplayFormatError` saying what is wrong with it (``what`` names the file kind)."""
    if isinstance(text, (bytes, bytearray)):
        if len(text) > max_bytes:
            raise ReplayFormatError(f"the {what} is {len(text)} bytes; the limit is "
                                    f"{max_bytes} (pass max_bytes= to allow more)")
        try:
            text = bytes(text).decode("utf-8")
        except UnicodeDecodeError as err:
            raise ReplayFormatError(f"the {what} is not UTF-8 text: {err}") from None
    if not isinstance(text, str):
        raise ReplayFormatError(f"a {what} is JSON text, got {type(text).__name__}")
    if len(text) > max_bytes:
        raise ReplayFormatError(f"the {what} is {len(text)} characters; the limit is "
                                f"{max_bytes} (pass max_bytes= to allow more)")
    try:
        return json.loads(text, object_pairs_hook=_object, parse_constant=_reject_constant)
    except ReplayFormatError:
        raise
    except RecursionError:
        raise ReplayFormatError(f"not valid {what} JSON: nesting is too deep") from None
    except json.JSONDecodeError as err:
        raise ReplayFormatError(f"not valid JSON (truncated or damaged?): {err.msg} at line "
                                f"{err.lineno} column {err.colno}") from None
    except ValueError as err:  # e.g. an integer of thousands of digits
        raise ReplayFormatError(f"not valid {what} JSON: {err}") from None


# ---------------------------------------------------------------------- the replay
class JsonFile:
    """What a replay and a study share as files: JSON text from :meth:`to_dict`, and saving."""

    def to_dict(self) -> dict[str, Any]:
        raise NotImplementedError

    def to_json(self, indent: int | None = None) -> str:
        """The file's JSON text (ASCII only); ``from_json`` reads it back."""
        return dump_json(self.to_dict(), indent)

    def save(self, path: str | os.PathLike[str], indent: int | None = None) -> None:
        """Write the file atomically: on failure (a full disk) the old file stays whole and
        :class:`~leyline_widget.core.files.WriteError` names the path and the reason."""
        write_atomic(path, self.to_json(indent))


class Replay(JsonFile):
    """A recorded game: its start, its main line of actions, notes and variations.

    Make one with ``Replay.from_game(game)``, :meth:`from_game`, :meth:`from_json` or :meth:`load`.
    Steps count actions: step 0 is the position after set-up, step ``i`` the position after
    the first ``i`` actions; negative steps count from the end of the line, as in a list.

    >>> from leyline_widget import Activate, EndPhase, Game
    >>> game = Game.new(players=["Ada", "Bo"], seed=7)
    >>> for action in (Activate(3), Activate(5), EndPhase()):
    ...     events = game.apply(action)
    >>> replay = Replay.from_game(game)
    >>> replay
    <Replay 2p, 3 actions, 0 notes, 0 variations>
    >>> replay.game_at(1).observation(0)["grid"][3]["card"]
    'active'
    >>> Replay.from_json(replay.to_json()).game_at(-1).state_hash() == game.state_hash()
    True
    """

    def __init__(self, game: Game) -> None:
        """The replay of ``game`` so far (a snapshot: later moves are not added)."""
        if not isinstance(game, Game):
            raise TypeError(f"Replay needs a Game, got {type(game).__name__}")
        start = game.start_position
        self._setup(game.rules, game.players, game.seed,
                    game.initial_deck if start is None else None,
                    None if start is None else json.loads(json.dumps(start)))
        self._main.own = list(game.actions)

    def _setup(self, rules: Rules, players: Sequence[str], seed: int | None,
               deck: Sequence[str] | None, start: dict[str, Any] | None) -> None:
        self._rules = rules
        self._players = tuple(players)
        self._seed = seed
        self._deck = None if deck is None else tuple(deck)
        self._start = start
        self._main = _Line(0, "main line", None, 0, [])
        self._vars: dict[int, _Line] = {}
        self._next_id = 1
        self._analyses: dict[int, dict[str, Any]] = {}

    @classmethod
    def from_game(cls, game: Game) -> Replay:
        """The replay of ``game`` so far; what ``Replay.from_game(game)`` returns."""
        return cls(game)

    # ------------------------------------------------------------------ reading
    def __len__(self) -> int:
        """The number of actions on the main line."""
        return len(self._main.own)

    def __repr__(self) -> str:
        self._sync()
        notes = sum(len(v) for line in self._lines() for v in line.notes.values())
        return (f"<Replay {len(self._players)}p, {len(self)} actions, {notes} notes, "
                f"{len(self._vars)} variations>")

    def _repr_html_(self, moves: int = 8) -> str:
        """A notebook's rich display: who played, how it ended, and the first ``moves``."""
        end = self.game_at(len(self))
        game = self.game_at(0)
        rows = []
        for i, action in enumerate(self.actions[:moves]):
            who = game.players[game.active_player]
            fields = ", ".join(f"{k} {v}" for k, v in action.to_dict().items() if k != "type")
            rows.append(f"<tr><td>{i + 1}</td><td>{escape(who)}</td><td>{game.turn}</td>"
                        f"<td>{escape(action.type)}</td><td>{escape(fields)}</td></tr>")
            game.apply(action)
        more = len(self) - moves
        tail = f"<tr><td colspan=5>&hellip; {more} more</td></tr>" if more > 0 else ""
        outcome = (f"over ({escape(str(end.end_reason))}), scores "
                   + ", ".join(f"{escape(n)} {s}" for n, s in zip(self._players, end.scores()))
                   if end.is_over else f"in progress at turn {end.turn}")
        return ('<div class="leyline-replay-summary" style="font-family:system-ui,sans-serif">'
                f"<div><b>Leyline replay</b> of {escape(', '.join(self._players))}: "
                f"{len(self)} actions, {len(self._vars)} variations; {outcome}</div>"
                "<table><tr><th>step</th><th>player</th><th>turn</th><th>action</th>"
                f"<th></th></tr>{''.join(rows)}{tail}</table></div>")

    @property
    def rules(self) -> Rules:
        """The rules the game was played under (stored in the file).

        >>> from leyline_widget import Game
        >>> replay = Replay.from_game(Game.new(players=["Ada", "Bo"], seed=7))
        >>> replay.rules.activations_per_turn
        3
        """
        return self._rules

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, by seat.

        >>> from leyline_widget import Game
        >>> replay = Replay.from_game(Game.new(players=["Ada", "Bo"], seed=7))
        >>> replay.players
        ('Ada', 'Bo')
        """
        return self._players

    @property
    def seed(self) -> int | None:
        """The seed the deck was shuffled from (None for a game dealt from an explicit deck).

        >>> from leyline_widget import Game
        >>> replay = Replay.from_game(Game.new(players=["Ada", "Bo"], seed=7))
        >>> replay.seed
        7
        """
        return self._seed

    @property
    def initial_deck(self) -> tuple[str, ...]:
        """The deck as dealt, top first (for a game from a position: its deck at the start)."""
        if self._deck is not None:
            return self._deck
        return tuple(self._start["deck"]) if self._start else ()

    @property
    def start_position(self) -> dict[str, Any] | None:
        """The position the game started from, for games made by ``Game.from_position``."""
        return None if self._start is None else json.loads(json.dumps(self._start))

    @property
    def actions(self) -> tuple[Action, ...]:
        """The actions of the main line."""
        return tuple(self._main.own)

    def line(self, variation: int | None = None) -> tuple[Action, ...]:
        """Every action from set-up to the end of ``variation`` (None: the main line)."""
        line = self._line(variation)
        out: list[Action] = []
        chain = self._chain(line)
        for i, part in enumerate(chain):
            stop = chain[i + 1].start if i + 1 < len(chain) else part.end
            out.extend(part.own[:stop - part.start])
        return tuple(out)

    def game_at(self, i: int, variation: int | None = None) -> Game:
        """A new Game after the first ``i`` actions of the main line or of ``variation``.

        It carries the full history (``actions``, ``event_log``) and is independent of the
        replay: moves on it are not recorded (use :meth:`branch` for that).
        """
        line = self._main if variation is None else self._line(variation)
        step = self._index(i, line)
        while line.parent is not None and step <= line.start:
            line = line.parent
        work = line.work
        if work is None or work.step < line.end:
            self._ensure(line)
        return self._seek(line, step)

    def state_hash(self, i: int, variation: int | None = None) -> str:
        """The state hash of step ``i`` (what the file records and loading checks)."""
        line = self._main if variation is None else self._line(variation)
        step = self._index(i, line)
        while line.parent is not None and step <= line.start:
            line = line.parent
        self._ensure(line)
        return line.hashes[step - line.start]

    def steps(self, variation: int | None = None, viewer: int | None = None) -> Iterator[Step]:
        """Each step of a line from set-up: its action, events and observation for ``viewer``.

        Events and observations pass through the same filters as a live game's, so a player
        viewer never learns an inert card's element or another player's private peek.
        """
        line = self._line(variation)
        game = self._origin()
        game.observation(viewer)  # a bad viewer fails here, not at the first next()
        self._ensure(line)
        actions = self.line(variation)
        chain = self._chain(line)
        hashes = self._full_hashes(line)

        def run() -> Iterator[Step]:
            yield Step(0, None, visible_events(game.event_log[0], viewer),
                       game.observation(viewer), self._notes_on(chain, 0), hashes[0])
            for k, action in enumerate(actions, 1):
                events = game.apply(action)
                yield Step(k, action, visible_events(events, viewer), game.observation(viewer),
                           self._notes_on(chain, k), hashes[k])

        return run()

    # ------------------------------------------------------------------ annotations
    @property
    def annotations(self) -> dict[int, list[Note]]:
        """Notes on the main line: step -> list of :class:`Note` (a copy)."""
        return {s: list(n) for s, n in sorted(self._main.notes.items())}

    def annotate(self, i: int, text: str, tags: Iterable[str] = (),
                 highlights: Iterable[int] = (), variation: int | None = None) -> Note:
        """Add a note on step ``i`` of the main line or of ``variation``; returns it.

        ``text`` is kept as given (it is untrusted: viewers must escape it); ``tags`` are
        lower-case ids, for example ``"spoiler"`` so a class can hide those notes;
        ``highlights`` are grid slots to point at. A variation's own steps run from its
        branch step to its end.
        """
        line = self._line(variation)
        step = self._own_step(i, line)
        note = make_note(text, tags, highlights, self._rules.grid_size)
        line.notes.setdefault(step, []).append(note)
        return note

    def remove_annotation(self, i: int, index: int | None = None,
                          variation: int | None = None) -> None:
        """Remove note ``index`` on step ``i`` (every note on that step when None)."""
        line = self._line(variation)
        step = self._own_step(i, line)
        notes = line.notes.get(step, [])
        if index is None:
            line.notes.pop(step, None)
            return
        if isinstance(index, bool) or not isinstance(index, int) or not (
                -len(notes) <= index < len(notes)):
            raise StepError(f"step {step} has {len(notes)} note(s); there is no note "
                            f"{quote(index)}")
        del notes[index]
        if not notes:
            del line.notes[step]

    # ------------------------------------------------------------------ analyses
    @property
    def analyses(self) -> dict[int, dict[str, Any]]:
        """The coach's reviews of the main line: seat -> review dict (copies)."""
        return {p: json.loads(json.dumps(a)) for p, a in sorted(self._analyses.items())}

    def analysis(self, player: int) -> dict[str, Any] | None:
        """Seat ``player``'s review of the main line (``Review.to_dict()`` form), or None.
        ``Review.from_dict(replay.analysis(0))`` makes it a Review again."""
        found = self._analyses.get(player) if isinstance(player, int) else None
        return None if found is None else json.loads(json.dumps(found))

    def set_analysis(self, player: int, review: Any) -> None:
        """Attach seat ``player``'s review of the main line: ``review.to_dict()`` of
        ``analyse(replay, player)``, or that Review itself (None removes it). It is checked as
        a file's is (each move at an action of that seat, played as recorded; a
        ReplayFormatError names the field).
        Promoting a variation into the main line drops the reviews (their moves changed).

        >>> from leyline_widget import Game
        >>> game = Game.new(players=2, seed=4)
        >>> _ = game.apply(game.legal_actions()[-1])
        >>> replay = Replay.from_game(game)
        >>> replay.set_analysis(0, {"player": 0, "seed": 0, "budget": 8, "moves": [
        ...     {"step": 0, "player": 0, "played": {"type": "end_phase"}, "reason": "Passing.",
        ...      "best": {"type": "activate", "slot": 0}, "loss": 2.0, "verdict": "blunder"}]})
        >>> replay.analysis(0)["moves"][0]["verdict"], list(replay.analyses)
        ('blunder', [0])
        """
        n = len(self._players)
        if isinstance(player, bool) or not isinstance(player, int) or not 0 <= player < n:
            raise ValueError(f"player must be a seat from 0 to {n - 1}, got {quote(player)}")
        if review is None:
            self._analyses.pop(player, None)
            return
        if hasattr(review, "to_dict") and not isinstance(review, Mapping):
            review = review.to_dict()
        data = json.loads(json.dumps(review))  # JSON-safe, and no shared structure
        _check_tree(data, "analyses", 1, True)
        checked = check_analysis(data, self._main.own, self._actors(), n, "analysis")
        if checked["player"] != player:
            raise ReplayFormatError(f"field 'analysis.player': this review is of seat "
                                    f"{checked['player']}, not of seat {player}",
                                    field="analysis.player")
        self._analyses[player] = checked

    def _actors(self) -> list[int]:
        """The seat that played each action of the main line (read off its events)."""
        game = self.game_at(len(self._main.own))
        origin = self.game_at(0)
        player = origin.active_player
        out: list[int] = []
        for events in game.event_log[1:]:
            out.append(player)
            for ev in events:
                if ev["type"] == "turn":
                    player = ev["player"]
        return out

    # ------------------------------------------------------------------ glyphs
    @property
    def glyphs(self) -> dict[int, str]:
        """Glyphs on the main line's moves: step -> glyph (a copy)."""
        return dict(sorted(self._main.glyphs.items()))

    def glyph(self, step: int, variation: int | None = None) -> str | None:
        """The glyph on the move that led to ``step`` of a line (its parents' below the
        branch), or None."""
        line = self._line(variation)
        at = self._index(step, line)
        while line.parent is not None and at <= line.start:
            line = line.parent
        return line.glyphs.get(at)

    def set_glyph(self, step: int, glyph: str | None, variation: int | None = None) -> None:
        """Mark the move that led to ``step`` with a glyph of :data:`GLYPHS` (``"!"``,
        ``"?"``, ...); None or ``""`` removes it. A variation's own moves are its steps after
        the branch step; step 0 (set-up) has no move.

        >>> from leyline_widget import Game
        >>> game = Game.new(players=2, seed=7)
        >>> _ = game.apply(game.legal_actions()[0])
        >>> replay = Replay.from_game(game)
        >>> replay.set_glyph(1, "?!")
        >>> replay.glyphs
        {1: '?!'}
        """
        line = self._line(variation)
        at = self._index(step, line)
        first = line.start + 1 if line.parent is not None else 1
        if at < first:
            where = "set-up has no move" if at == 0 else (
                f"step {at} is not a move of {line.label()}, whose own moves are steps "
                f"{first} to {line.end}; mark it on its parent line")
            raise StepError(f"no move to mark: {where}")
        if glyph is None or glyph == "":
            line.glyphs.pop(at, None)
            return
        if not isinstance(glyph, str) or glyph not in GLYPHS:
            raise ValueError(f"a glyph is one of {', '.join(GLYPHS)} (or None to remove), got "
                             f"{quote(glyph)}")
        line.glyphs[at] = glyph

    # ------------------------------------------------------------------ variations
    @property
    def variations(self) -> list[Variation]:
        """Every variation, parents before their children."""
        self._sync()
        return [self._view(line) for line in self._ordered()]

    def variation(self, id: int) -> Variation:
        """The variation ``id`` (a read-only view: its name, parent, start and actions); a
        :class:`VariationError` names an unknown id.

        >>> from leyline_widget import Game
        >>> replay = Replay.from_game(Game.new(players=["Ada", "Bo"], seed=7))
        >>> game = replay.branch(0, name="Try Activate")
        >>> replay.variation(1).name
        'Try Activate'
        """
        return self._view(self._line(id))

    def variation_of(self, game: Game) -> Variation | None:
        """The variation a Game from :meth:`branch` records into, or None."""
        self._sync()
        for line in self._vars.values():
            if line.live is game:
                return self._view(line)
        return None

    def branch(self, i: int, name: str | None = None, variation: int | None = None) -> Game:
        """A new Game at step ``i`` whose moves form a new variation of this replay.

        The variation is named ``name`` (default "Variation <id>"; rename it later with
        :meth:`rename`, finding it with :meth:`variation_of`). The Game records into it until
        the variation is promoted or removed, or a variation inside it is promoted.
        """
        line = self._new_line(i, [], name, variation)
        assert line.parent is not None
        self._ensure(line.parent)
        game = self._seek(line.parent, line.start)
        line.live = game
        self._vars[line.id] = line
        return game

    def add_variation(self, step: int, actions: Iterable[Action | Mapping[str, Any]],
                      name: str | None = None, parent: int | None = None) -> Variation:
        """Record ``actions`` as a variation after ``step`` of the main line or of ``parent``.

        Every action must be legal in turn; otherwise ``IllegalActionError`` names the
        action and its rule, and the replay is unchanged.
        """
        parsed: list[Action] = []
        for k, action in enumerate(actions):
            if isinstance(action, Action):
                parsed.append(action)
                continue
            try:
                parsed.append(Action.from_dict(action))
            except ValueError as err:
                raise IllegalActionError(f"action {k} of the variation is malformed: {err}",
                                         "actions") from None
        line = self._new_line(step, parsed, name, parent)
        self._check_total(len(parsed))
        try:
            self._ensure(line)
        except _StepFailure as failure:
            raise IllegalActionError(
                f"action {failure.step - line.start - 1} of the variation "
                f"({failure.action.to_dict()}) is illegal at step {failure.step}: "
                f"{failure.error}", failure.error.rule) from None
        self._vars[line.id] = line
        return self._view(line)

    def extend(self, id: int, actions: Iterable[Action | Mapping[str, Any]]) -> Variation:
        """Append ``actions`` to the end of variation ``id`` (each legal in turn, otherwise
        ``IllegalActionError`` and nothing changes). Not for a variation a Game from
        :meth:`branch` records into: make the moves on that Game."""
        line = self._line(id)
        if line is self._main:
            raise VariationError("the main line is the record: branch a variation instead")
        if line.live is not None:
            raise VariationError(f"{line.label()} records the moves of a Game from branch(); "
                                 "make the moves on that Game")
        parsed = [a if isinstance(a, Action) else Action.from_dict(a) for a in actions]
        self._check_total(len(parsed))
        self._ensure(line)
        trial = self._seek(line, line.end)
        for k, action in enumerate(parsed):
            why = trial.why_illegal(action)
            if why is not None:
                raise IllegalActionError(f"action {k} ({action.to_dict()}) is illegal at step "
                                         f"{line.end + k}: {why}")
            trial.apply(action)
        line.own.extend(parsed)
        self._run(line)
        return self._view(line)

    def rename(self, id: int, name: str) -> Variation:
        """Give variation ``id`` a new name; returns its view.

        >>> from leyline_widget import Game
        >>> replay = Replay.from_game(Game.new(players=["Ada", "Bo"], seed=7))
        >>> _ = replay.branch(0)
        >>> replay.rename(1, "Sharper").name
        'Sharper'
        """
        line = self._line(id)
        if line is self._main:
            raise VariationError("the main line has no name to change")
        line.name = _check_name(name)
        return self._view(line)

    def remove(self, id: int) -> None:
        """Remove a variation with every variation inside it."""
        line = self._line(id)
        if line is self._main:
            raise VariationError("the main line cannot be removed")
        doomed = {line.id}
        for other in self._ordered():
            if other.parent is not None and other.parent.id in doomed:
                doomed.add(other.id)
        for vid in doomed:
            self._vars.pop(vid).live = None

    def promote(self, id: int) -> Variation | None:
        """Make variation ``id`` the continuation of its parent line, one level up.

        The parent's former continuation, with its notes and the variations inside it,
        becomes a new variation named "former main line" (or "former <parent name>"), which
        is returned (None when the parent had no moves past the branch step). Variation
        ``id`` itself no longer exists; its notes and inner variations move to the parent.
        Promote repeatedly to make a nested variation the main line.
        """
        line = self._line(id)
        parent = line.parent
        if parent is None:
            raise VariationError("the main line cannot be promoted")
        s = line.start
        for moved in (line, parent):
            moved.live = None
        cut = s - parent.start
        tail = parent.own[cut:]
        later = {k: v for k, v in parent.notes.items() if k > s}
        later_glyphs = {k: v for k, v in parent.glyphs.items() if k > s}
        inner = [v for v in self._vars.values() if v.parent is parent and v.start > s]
        demoted: _Line | None = None
        if tail or later or inner or later_glyphs:
            name = "former main line" if parent is self._main else f"former {parent.name}"
            demoted = _Line(self._next_id, name[:MAX_NAME_CHARS], parent, s, tail, later)
            demoted.glyphs = later_glyphs
            self._next_id += 1
            for child in inner:
                child.parent = demoted
        for child in self._vars.values():
            if child.parent is line:
                child.parent = parent
        parent.own = parent.own[:cut] + line.own
        if parent is self._main:
            self._analyses = {}  # reviews of moves no longer on the main line
        parent.notes = {k: v for k, v in parent.notes.items() if k <= s}
        parent.glyphs = {k: v for k, v in parent.glyphs.items() if k <= s}
        parent.glyphs.update(line.glyphs)
        for k, notes in line.notes.items():
            parent.notes.setdefault(k, []).extend(notes)
        parent.forget()
        del self._vars[line.id]
        if demoted is None:
            return None
        self._vars[demoted.id] = demoted
        return self._view(demoted)

    # ------------------------------------------------------------------ rule exploration
    def rerun(self, rules: Rules, variation: int | None = None) -> RerunReport:
        """Replay a line's actions under ``rules``: where do they stop being legal, and does
        the outcome change? The players and initial deck stay as recorded.

        >>> from leyline_widget import Game, Rules
        >>> game = Game.new(players=2, seed=7)
        >>> for _ in range(30):  # everyone passes
        ...     _ = game.apply(game.legal_actions()[-1])
        >>> report = Replay.from_game(game).rerun(Rules.default().replace(turn_limit=1))
        >>> report.illegal_step is not None, report.reason.startswith("the game is over")
        (True, True)
        """
        if not isinstance(rules, Rules):
            raise ValueError(f"rerun needs a Rules, got {type(rules).__name__}")
        line = self._line(variation)
        actions = self.line(variation)
        self._ensure(line)
        hashes = self._full_hashes(line)
        original = _outcome(self._seek(line, line.end))
        try:
            if self._start is not None:
                start = dict(self._start)
                start["rules"] = rules.to_dict()
                game = Game.from_position(start)
            else:
                assert self._deck is not None
                game = Game.new(players=list(self._players), seed=self._seed, rules=rules,
                                deck=self._deck)
        except ValueError as err:
            raise ValueError(f"the replay's start does not fit these rules: {err}") from None
        first = None if game.state_hash() == hashes[0] else 0
        illegal: tuple[int, Action, str] | None = None
        for k, action in enumerate(actions, 1):
            why = game.why_illegal(action)
            if why is not None:
                illegal = (k, action, why)
                break
            game.apply(action)
            if first is None and game.state_hash() != hashes[k]:
                first = k
        if illegal is not None and first is None:
            first = illegal[0]
        return RerunReport(
            rules=rules, actions=len(actions),
            legal=len(actions) if illegal is None else illegal[0] - 1,
            illegal_step=None if illegal is None else illegal[0],
            illegal_action=None if illegal is None else illegal[1],
            reason=None if illegal is None else illegal[2],
            first_difference=first, original=original, outcome=_outcome(game), game=game)

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """The JSON-safe form that :meth:`to_json` writes (see docs/replay-format.md)."""
        from ..core.version import VERSION as __version__

        self._sync()
        main = self._main
        self._ensure(main)
        data: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "generator": f"leyline_widget {__version__}",
            "rules": self._rules.to_dict(),
            "players": list(self._players),
            # A seed too large for the format, or one that does not deal this deck (a game
            # given an explicit deck), is dropped: the deck, not the seed, is the record.
            "seed": self._seed if self._seed is not None and abs(self._seed) <= MAX_INT and (
                self._start is not None or _deals(self._rules, self._seed, self.initial_deck))
            else None,
        }
        if self._start is not None:
            data["start_position"] = json.loads(json.dumps(self._start))
        else:
            data["initial_deck"] = list(self.initial_deck)
        data["actions"] = [a.to_dict() for a in main.own]
        data["hashes"] = list(main.hashes)
        data["annotations"] = _notes_out(main.notes)
        data["glyphs"] = _glyphs_out(main.glyphs)
        variations = []
        for line in self._ordered():
            self._ensure(line)
            variations.append({
                "id": line.id, "name": line.name,
                "parent": None if line.parent is main or line.parent is None else line.parent.id,
                "step": line.start,
                "actions": [a.to_dict() for a in line.own],
                "hashes": line.hashes[1:],
                "annotations": _notes_out(line.notes),
                "glyphs": _glyphs_out(line.glyphs),
            })
        data["variations"] = variations
        if self._analyses:
            data["analyses"] = [json.loads(json.dumps(self._analyses[p]))
                                for p in sorted(self._analyses)]
        return data


    @classmethod
    def load(cls, path: str | os.PathLike[str], max_bytes: int = MAX_BYTES) -> Replay:
        """Read a replay file; see :meth:`from_json`.

        A path that is missing, a folder or unreadable is a :class:`ReplayFormatError`
        naming it, as is a file that is not a replay.
        """
        data = read_file(path, max_bytes, "replay")
        return cls.from_json(data, max_bytes=max_bytes)

    @classmethod
    def from_json(cls, text: str | bytes, max_bytes: int = MAX_BYTES) -> Replay:
        """Read a replay, re-run every line and check every state hash.

        Anything malformed, tampered with or from a newer format version raises
        :class:`ReplayFormatError` naming the field or the step; nothing half-loaded is
        returned.
        """
        data = parse_json(text, max_bytes, "replay")
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Replay:
        """Like :meth:`from_json`, from the parsed JSON value."""
        if not isinstance(data, dict):
            raise ReplayFormatError(f"a replay is a JSON object, got {type(data).__name__}")
        if data.get("format") != FORMAT:
            raise ReplayFormatError(f"field 'format' must be {quote(FORMAT)}, got "
                                    f"{quote(data.get('format'))}: not a Leyline replay",
                                    field="format")
        version = _field(data, "version", int, "")
        if version > VERSION:
            raise ReplayFormatError(f"field 'version': this replay has format version {version}, "
                                    f"newer than this leyline_widget reads ({VERSION}); "
                                    "upgrade leyline_widget", field="version")
        if version < 1:
            raise ReplayFormatError(f"field 'version' must be from 1 to {VERSION}, got {version}",
                                    field="version")
        _check_tree(data, "", line=True)
        unknown = sorted(k for k in data if k not in _TOP_FIELDS)
        if unknown:
            raise ReplayFormatError(f"unknown field(s) {names(map(repr, unknown))}",
                                    field=unknown[0])
        # The re-run allocates tens of thousands of small acyclic objects (history records,
        # events, snapshots); the cyclic collector's passes over them found nothing and took
        # about a third of a long load, so it pauses while the file is checked.
        enabled = gc.isenabled()
        gc.disable()
        try:
            return _Reader(data).read()
        finally:
            if enabled:
                gc.enable()

    # ------------------------------------------------------------------ internals
    def _origin(self) -> Game:
        if self._start is not None:
            return Game.from_position(self._start)
        assert self._deck is not None
        return Game.new(players=list(self._players), seed=self._seed, rules=self._rules,
                        deck=self._deck)

    def _lines(self) -> list[_Line]:
        return [self._main, *self._vars.values()]

    def _ordered(self) -> list[_Line]:
        """Variations with every parent before its children (promotion can reorder)."""
        def depth(line: _Line) -> int:
            d = 0
            while line.parent is not None:
                line, d = line.parent, d + 1
            return d
        return sorted(self._vars.values(), key=depth)

    def _chain(self, line: _Line) -> list[_Line]:
        """The lines from the main line down to ``line``."""
        chain = []
        part: _Line | None = line
        while part is not None:
            chain.append(part)
            part = part.parent
        return chain[::-1]

    def _sync(self) -> None:
        """Take in the moves made on live branched games since the last look."""
        for line in self._vars.values():
            game = line.live
            if game is not None and game.step != line.end:
                if game.step < line.end:  # cannot happen through the engine's API
                    line.live = None
                    continue
                line.own.extend(game.actions_since(line.end))

    def _line(self, id: int | None) -> _Line:
        if id is None:
            return self._main
        self._sync()
        line = self._vars.get(id) if isinstance(id, int) and not isinstance(id, bool) else None
        if line is None:
            known = ", ".join(map(str, self._vars)) or "none"
            raise VariationError(f"no variation {quote(id)}; variations are: {known}")
        return line

    def _index(self, i: object, line: _Line) -> int:
        if isinstance(i, bool) or not isinstance(i, int):
            raise StepError(f"a step is a whole number, got {quote(i)}")
        end = line.end
        step = i + end + 1 if i < 0 else i
        if not 0 <= step <= end:
            raise StepError(f"step {i} is outside {line.label()}, which has steps 0 to {end}")
        return step

    def _own_step(self, i: object, line: _Line) -> int:
        step = self._index(i, line)
        if step < line.start:
            raise StepError(f"step {quote(step)} lies before {line.label()} branches off at step "
                            f"{line.start}; annotate its parent line there")
        return step

    def _new_line(self, i: int, actions: list[Action], name: str | None,
                  parent: int | None) -> _Line:
        owner = self._line(parent)
        step = self._index(i, owner)
        while owner.parent is not None and step <= owner.start:
            owner = owner.parent
        if len(self._vars) >= MAX_VARIATIONS:
            raise VariationError(f"a replay holds at most {MAX_VARIATIONS} variations")
        vid = self._next_id
        line = _Line(vid, _check_name(f"Variation {vid}" if name is None else name), owner,
                     step, actions)
        self._next_id += 1
        return line

    def _check_total(self, extra: int) -> None:
        total = sum(len(line.own) for line in self._lines()) + extra
        if total > MAX_ACTIONS:
            raise ValueError(f"a replay holds at most {MAX_ACTIONS} actions in all; this would "
                             f"make {total}")

    def _view(self, line: _Line) -> Variation:
        return Variation(line.id, line.name,
                         None if line.parent is self._main or line.parent is None
                         else line.parent.id,
                         line.start, tuple(line.own),
                         {s: list(n) for s, n in sorted(line.notes.items())},
                         line.live is not None, dict(sorted(line.glyphs.items())))

    def _notes_on(self, chain: list[_Line], step: int) -> list[Note]:
        out: list[Note] = []
        for i, line in enumerate(chain):
            below = chain[i + 1].start if i + 1 < len(chain) else line.end
            if line.start <= step <= below:
                out.extend(line.notes.get(step, ()))
        return out

    def _full_hashes(self, line: _Line) -> list[str]:
        out: list[str] = []
        chain = self._chain(line)
        for i, part in enumerate(chain):
            stop = chain[i + 1].start if i + 1 < len(chain) else part.end
            out.extend(part.hashes[len(out) - part.start:stop - part.start + 1])
        return out

    def _ensure(self, line: _Line) -> None:
        """Bring the caches of ``line`` and of its ancestors up to their ends."""
        for part in self._chain(line):
            if part.work is None or part.work.step < part.end:
                self._run(part)

    def _run(self, line: _Line, expect: Sequence[str] | None = None, legacy: bool = False) -> None:
        """Apply the line's actions not yet run; with ``expect``, check each state hash
        (``legacy``: hashes of format version 1, checked with that version's recipe; the
        current recipe's hashes are kept either way)."""
        if line.work is None:
            parent = line.parent
            game = self._origin() if parent is None else self._seek(parent, line.start)
            line.work = game
            line.hashes = [game.state_hash()]
            line.snaps = {line.start: game.freeze()}
            first = game.state_hash(1) if legacy else line.hashes[0]
            if expect is not None and line.parent is None and expect[0] != first:
                line.forget()
                raise ReplayFormatError(
                    f"step 0 (set-up): state hash mismatch: the file has {quote(expect[0])}, "
                    f"dealing the game gives {quote(first)}; the rules, players or initial deck "
                    "were edited", field="hashes[0]", step=0)
        game = line.work
        own, start, hashes, snaps = line.own, line.start, line.hashes, line.snaps
        state_hash, every = game.state_hash, SNAPSHOT_EVERY
        done = game.step - start
        # Hashes are compared once the line has run (one list comparison); version-1
        # files' own hashes are made alongside.
        checks: list[str] | None = [] if expect is not None and legacy else None
        freeze = game.freeze
        snap = snaps.get(game.step)  # the one before the next, sharing what is unchanged
        k = done
        try:
            for digest in game.hashed(itertools.islice(own, done, None)):
                hashes.append(digest)
                if checks is not None:
                    checks.append(state_hash(1))
                # Every SNAPSHOT_EVERY steps, and after every action but the cheapest to
                # re-apply, so a seek re-applies at most SNAPSHOT_EVERY - 1 cheap actions.
                if (start + k + 1) % every == 0 or type(own[k]) not in _CHEAP:
                    snap = snaps[start + k + 1] = freeze(snap)
                k += 1
        except IllegalActionError as err:
            if expect is not None:  # a hash mismatch before this step is the first fault
                self._compare(line, expect, checks, done, k)
            line.forget()
            raise _StepFailure(line, start + k + 1, own[k], err) from None
        if expect is not None:
            self._compare(line, expect, checks, done, len(own))

    @staticmethod
    def _compare(line: _Line, expect: Sequence[str], checks: list[str] | None, first: int,
                 stop: int) -> None:
        """Raise, naming the first step, when the state hashes after the line's own actions
        ``first`` to ``stop - 1`` (``checks``, else the line's) differ from the file's."""
        offset = 1 if line.parent is None else 0
        got = checks[:stop - first] if checks is not None else line.hashes[first + 1:stop + 1]
        want = list(expect[first + offset:stop + offset])
        if got == want:
            return
        j = next(j for j, (a, b) in enumerate(zip(got, want)) if a != b)
        step, action = line.start + first + j + 1, line.own[first + j]
        where = "" if line.parent is None else f"{line.label()}, "
        line.forget()
        raise ReplayFormatError(
            f"{where}step {step}: state hash mismatch after {action.to_dict()}: the file has "
            f"{quote(want[j])}, replaying the actions gives {quote(got[j])}; an action or a "
            "hash was edited", step=step, variation=None if line.parent is None else line.id)

    def _seek(self, line: _Line, step: int) -> Game:
        # The hot path of fast seek: the nearest snapshot at or before ``step``, the shared
        # history sliced in, and fewer than SNAPSHOT_EVERY actions re-applied.
        while line.parent is not None and step <= line.start:
            line = line.parent
        snap = line.snaps.get(step)
        if snap is not None:
            return Game.thaw(snap)
        base = step - step % SNAPSHOT_EVERY
        if base < line.start:
            base = line.start
        game = Game.thaw(line.snaps[base])
        own, start = line.own, line.start
        apply = game.apply
        for k in range(base, step):
            apply(own[k - start])
        return game


# ---------------------------------------------------------------------- reading files
class _Reader:
    """Turns a parsed replay object into a verified :class:`Replay`, or raises."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.total = 0
        self.legacy = data.get("version") == 1  # version-1 hashes, no glyphs
        self.parsed: dict[bytes, Action] = {}

    def read(self) -> Replay:
        data = self.data
        try:
            rules = Rules.from_dict(_field(data, "rules", dict, ""))
        except ReplayFormatError:
            raise
        except (ValueError, TypeError) as err:
            raise ReplayFormatError(f"field 'rules': {err}", field="rules") from None
        players = _field(data, "players", list, "")
        if not 1 <= len(players) <= 4 or not all(isinstance(p, str) and p.strip()
                                                   for p in players):
            raise ReplayFormatError("field 'players' must list 1 to 4 non-empty names, got "
                                    f"{quote(players)}", field="players")
        seed = data.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ReplayFormatError(f"field 'seed' must be an integer or null, got {quote(seed)}",
                                    field="seed")
        deck: list[str] | None = None
        start: dict[str, Any] | None = None
        if ("initial_deck" in data) == ("start_position" in data):
            raise ReplayFormatError("a replay needs exactly one of the fields 'initial_deck' "
                                    "(a dealt game) and 'start_position' (a game from a position)",
                                    field="initial_deck")
        if not isinstance(data.get("generator", ""), str):
            raise ReplayFormatError("field 'generator' must be a string", field="generator")
        if "initial_deck" in data:
            try:
                deck = check_deck(rules, _field(data, "initial_deck", list, ""))
            except ReplayFormatError:
                raise
            except ValueError as err:
                raise ReplayFormatError(f"field 'initial_deck': {err}",
                                        field="initial_deck") from None
            if seed is not None and not _deals(rules, seed, deck):
                raise ReplayFormatError(f"field 'seed': seed {quote(seed)} does not deal the "
                                        "field 'initial_deck' (tampered with?); a replay of a "
                                        "hand-dealt game has a null seed", field="seed")
        else:
            start = _field(data, "start_position", dict, "")
            try:
                game = Game.from_position(start)
            except ValueError as err:
                raise ReplayFormatError(f"field 'start_position': {err}",
                                        field="start_position") from None
            if seed is not None:
                raise ReplayFormatError("field 'seed' must be null for a game from a position "
                                        "(its deck is in 'start_position')", field="seed")
            if game.rules != rules or list(game.players) != players:
                raise ReplayFormatError("field 'start_position': its rules and players must be "
                                        "those of the fields 'rules' and 'players'",
                                        field="start_position")
        replay = Replay.__new__(Replay)
        replay._setup(rules, players, seed, deck, start)
        try:
            replay._origin()
        except ValueError as err:
            raise ReplayFormatError(f"field 'players': {err}", field="players") from None
        grid = rules.grid_size

        main = replay._main
        main.own = self.actions(data, "", 0, None)
        hashes = self.hashes(data, "", len(main.own) + 1)
        main.notes = self.notes(data, "", grid, 0, len(main.own), None)
        main.glyphs = self.glyphs(data, "", 1, len(main.own), None)
        self.verify(replay, main, hashes)

        raw = _field(data, "variations", list, "") if "variations" in data else []
        if len(raw) > MAX_VARIATIONS:
            raise ReplayFormatError(f"field 'variations': {len(raw)} variations; the limit is "
                                    f"{MAX_VARIATIONS}", field="variations")
        for n, item in enumerate(raw):
            where = f"variations[{n}]."
            if not isinstance(item, dict):
                raise ReplayFormatError(f"field 'variations[{n}]' must be an object, got "
                                        f"{quote(item)}", field=f"variations[{n}]")
            unknown = sorted(k for k in item if k not in _VARIATION_FIELDS)
            if unknown:
                raise ReplayFormatError(f"field 'variations[{n}]': unknown field(s) "
                                        f"{names(map(repr, unknown))}",
                                        field=where + unknown[0])
            vid = _field(item, "id", int, where)
            if vid < 1 or vid in replay._vars:
                raise ReplayFormatError(f"field '{where}id': {vid} is not a new positive id",
                                        field=where + "id", variation=vid)
            try:
                name = _check_name(_field(item, "name", str, where))
            except ValueError as err:
                raise ReplayFormatError(f"field '{where}name': {err}", field=where + "name",
                                        variation=vid) from None
            pid = item.get("parent")
            if pid is None:
                parent = main
            else:
                found = replay._vars.get(pid) if isinstance(pid, int) and not isinstance(
                    pid, bool) else None
                if found is None:
                    raise ReplayFormatError(
                        f"field '{where}parent': {quote(pid)} is not the id of an earlier "
                        "variation", field=where + "parent", variation=vid)
                parent = found
            step = _field(item, "step", int, where)
            low = 0 if parent is main else parent.start + 1
            if not low <= step <= parent.end:
                raise ReplayFormatError(
                    f"field '{where}step': {step} is not a step of its parent "
                    f"{parent.label()} ({low} to {parent.end})", field=where + "step",
                    variation=vid)
            line = _Line(vid, name, parent, step, [])
            line.own = self.actions(item, where, step, line)
            hashes = self.hashes(item, where, len(line.own))
            line.notes = self.notes(item, where, grid, step, line.end, vid)
            line.glyphs = self.glyphs(item, where, step + 1, line.end, vid)
            self.verify(replay, line, hashes)
            replay._vars[vid] = line
        replay._next_id = max(replay._vars, default=0) + 1
        self.analyses(replay)
        return replay

    def analyses(self, replay: Replay) -> None:
        data = self.data
        if "analyses" not in data:
            return
        if data.get("version", 0) < 3:
            raise ReplayFormatError(f"field 'analyses' is new in format version 3; this file says "
                                    f"version {data.get('version')}", field="analyses")
        raw = _field(data, "analyses", list, "")
        actors = replay._actors()
        n = len(replay._players)
        for k, item in enumerate(raw):
            checked = check_analysis(item, replay._main.own, actors, n, f"analyses[{k}]")
            if checked["player"] in replay._analyses:
                raise ReplayFormatError(f"field 'analyses[{k}].player': seat "
                                        f"{checked['player']} has two analyses",
                                        field=f"analyses[{k}].player")
            replay._analyses[checked["player"]] = checked

    def actions(self, data: Mapping[str, Any], where: str, start: int,
                line: _Line | None) -> list[Action]:
        raw = _field(data, "actions", list, where)
        self.total += len(raw)
        if self.total > MAX_ACTIONS:
            raise ReplayFormatError(f"field '{where}actions': the replay holds more than "
                                    f"{MAX_ACTIONS} actions in all", field=where + "actions")
        out = []
        prefix = "" if line is None else f"{line.label()}, "
        depth = 2 if line is None else 4  # replay, actions, item; or within variations[n]
        cache = self.parsed
        dumps = marshal.dumps
        for k, item in enumerate(raw):
            try:
                # A game repeats a few hundred distinct actions: parse each once (actions are
                # immutable values). The key is the item's marshal bytes (version 2: no
                # back-references, so equal items give equal bytes), exact where == is not:
                # true is not 1, and the field order and every nested type count.
                key = dumps(item, 2)
                action = cache.get(key)
                if action is None:
                    _check_tree(item, f"{where}actions[{k}]", depth)  # see _check_tree's line
                    action = cache[key] = Action.from_dict(item)
                out.append(action)
            except ReplayFormatError:
                raise
            except ValueError as err:
                raise ReplayFormatError(
                    f"{prefix}step {start + k + 1}: action {quote(item)} is malformed: "
                    f"{err}", field=f"{where}actions[{k}]", step=start + k + 1,
                    variation=None if line is None else line.id) from None
        return out

    def hashes(self, data: Mapping[str, Any], where: str, count: int) -> list[str]:
        raw = _field(data, "hashes", list, where)
        if len(raw) != count:
            raise ReplayFormatError(f"field '{where}hashes' must hold {count} state hashes (one "
                                    f"per step), got {len(raw)}", field=where + "hashes")
        # Every entry a str of 32 characters, all of them lower-case hex digits: checked at C
        # speed (the round trip through bytes gives back exactly such text, and only that); the
        # loop below only runs to name the first bad entry.
        joined = "".join(raw) if set(map(type, raw)) <= {str} else None
        try:
            good = (joined is not None and set(map(len, raw)) <= {32}
                    and bytes.fromhex(joined).hex() == joined)
        except ValueError:  # not hex at all
            good = False
        if not good:
            for k, h in enumerate(raw):
                if not isinstance(h, str) or not _HASH.fullmatch(h):
                    raise ReplayFormatError(f"field '{where}hashes[{k}]' must be 32 hex digits, "
                                            f"got {quote(h)}", field=f"{where}hashes[{k}]")
        return list(raw)

    @staticmethod
    def step_item(item: object, at: str, fields: Sequence[str], low: int, high: int,
                  vid: int | None, what: str) -> int:
        """Check one per-step entry (a note, a glyph): an object of ``fields`` whose ``step``
        is from ``low`` to ``high``; returns the step."""
        if not isinstance(item, dict):
            raise ReplayFormatError(f"field {quote(at)} must be an object, got {quote(item)}",
                                    field=at, variation=vid)
        unknown = sorted(key for key in item if key not in fields)
        if unknown:
            raise ReplayFormatError(f"field {quote(at)}: unknown field(s) "
                                    f"{names(map(repr, unknown))}", field=at, variation=vid)
        step: int = _field(item, "step", int, at + ".")
        if not low <= step <= high:
            raise ReplayFormatError(f"field '{at}.step': step {step} is not {what} "
                                    f"(steps {low} to {high})", field=at + ".step",
                                    step=step, variation=vid)
        return step

    def notes(self, data: Mapping[str, Any], where: str, grid: int, low: int, high: int,
              vid: int | None) -> dict[int, list[Note]]:
        raw = _field(data, "annotations", list, where) if "annotations" in data else []
        out: dict[int, list[Note]] = {}
        for k, item in enumerate(raw):
            at = f"{where}annotations[{k}]"
            step = self.step_item(item, at, _NOTE_FIELDS, low, high, vid, "on this line")
            try:
                note = make_note(_field(item, "text", str, at + "."), item.get("tags", []),
                                 item.get("highlights", []), grid)
            except ReplayFormatError:
                raise
            except ValueError as err:
                raise ReplayFormatError(f"field {quote(at)} (step {step}): {err}", field=at,
                                        step=step, variation=vid) from None
            out.setdefault(step, []).append(note)
        return out

    def glyphs(self, data: Mapping[str, Any], where: str, low: int, high: int,
               vid: int | None) -> dict[int, str]:
        if "glyphs" in data and self.legacy:
            raise ReplayFormatError(f"field '{where}glyphs' is new in format version 2; this "
                                    "file says version 1", field=where + "glyphs",
                                    variation=vid)
        raw = _field(data, "glyphs", list, where) if "glyphs" in data else []
        out: dict[int, str] = {}
        for k, item in enumerate(raw):
            at = f"{where}glyphs[{k}]"
            step = self.step_item(item, at, ("step", "glyph"), low, high, vid,
                                  "a move of this line")
            if step in out:
                raise ReplayFormatError(f"field '{at}.step': step {step} has two glyphs",
                                        field=at + ".step", step=step, variation=vid)
            glyph = _field(item, "glyph", str, at + ".")
            if glyph not in GLYPHS:
                raise ReplayFormatError(f"field '{at}.glyph': {quote(glyph)} is not a glyph "
                                        f"({', '.join(GLYPHS)})", field=at + ".glyph",
                                        step=step, variation=vid)
            out[step] = glyph
        return out

    def verify(self, replay: Replay, line: _Line, hashes: list[str]) -> None:
        try:
            replay._run(line, hashes, self.legacy)
        except _StepFailure as failure:
            where = "" if line.parent is None else f"{line.label()}, "
            raise ReplayFormatError(
                f"{where}step {failure.step}: action {failure.action.to_dict()} is illegal: "
                f"{failure.error}", step=failure.step,
                variation=None if line.parent is None else line.id) from None


def _glyphs_out(glyphs: Mapping[int, str]) -> list[dict[str, Any]]:
    return [{"step": step, "glyph": glyphs[step]} for step in sorted(glyphs)]


def _notes_out(notes: Mapping[int, list[Note]]) -> list[dict[str, Any]]:
    return [{"step": step, **note.to_dict()} for step in sorted(notes) for note in notes[step]]
