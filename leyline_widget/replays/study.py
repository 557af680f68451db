"""Studies: several replays as chapters of one lesson, saved as one file.

A :class:`Study` has a title, notes, and chapters; each chapter is a name, its own notes and
a :class:`~leyline_widget.replays.replay.Replay`, which stays the unit inside (variations,
notes, glyphs and all). The file is one JSON object whose chapters hold replay objects exactly
as ``Replay.to_dict`` writes them; ``docs/replay-format.md`` documents it.

>>> from leyline_widget import Game, Replay
>>> game = Game.new(players=2, seed=7)
>>> for _ in range(4):
...     _ = game.apply(game.legal_actions()[0])
>>> study = Study("Openings", notes="Two ways to start")
>>> _ = study.add(Replay.from_game(game), "Quiet start")
>>> _ = study.add(Replay.from_game(Game.new(players=2, seed=8)), "Another deal", notes="Try it")
>>> copy = Study.from_json(study.to_json())
>>> copy.title, [c.name for c in copy.chapters], len(copy.chapters[0].replay)
('Openings', ['Quiet start', 'Another deal'], 4)
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from ..core.echo import names, quote
from .replay import (
    MAX_BYTES,
    MAX_NOTE_CHARS,
    JsonFile,
    Replay,
    ReplayFormatError,
    _check_name,
    _check_text,
    parse_json,
    read_file,
)

__all__ = ["STUDY_FORMAT", "STUDY_VERSION", "Chapter", "Study"]

STUDY_FORMAT = "leyline-study"
#: The study format version this module writes and the newest it reads.
STUDY_VERSION = 1
MAX_CHAPTERS = 64
_TOP_FIELDS = ("format", "version", "generator", "title", "notes", "chapters")
_CHAPTER_FIELDS = ("name", "notes", "replay")


@dataclass
class Chapter:
    """One chapter: its ``name`` (one line), ``notes`` (untrusted text) and ``replay``."""

    name: str
    notes: str
    replay: Replay


class Study(JsonFile):
    """A lesson of several games: ``title``, ``notes`` and :attr:`chapters`, saved as one file.

    Names and notes are untrusted text (files are shared between strangers), limited like a
    replay's: names are one line of at most 200 characters, notes at most 10,000 characters
    without control characters other than tab and newline.

    >>> from leyline_widget import Game, Replay
    >>> study = Study("Memory duels", notes="Two games to compare")
    >>> chapter = study.add(Replay.from_game(Game.new(players=["Ada", "Bo"], seed=7)), "Opening")
    >>> study
    <Study 'Memory duels', 1 chapters>
    >>> Study.from_json(study.to_json()).chapters[0].name
    'Opening'
    """

    def __init__(self, title: str = "Leyline study", notes: str = "") -> None:
        self.title = _check_name(title, "a study title")
        self.notes = _check_text(notes, "study notes", MAX_NOTE_CHARS)
        self._chapters: list[Chapter] = []

    def __len__(self) -> int:
        return len(self._chapters)

    def __iter__(self) -> Iterator[Chapter]:
        return iter(list(self._chapters))

    def __repr__(self) -> str:
        return f"<Study {self.title!r}, {len(self)} chapters>"

    @property
    def chapters(self) -> list[Chapter]:
        """The chapters in order (a copy of the list; the chapters themselves are live)."""
        return list(self._chapters)

    def add(self, replay: Replay, name: str | None = None, notes: str = "") -> Chapter:
        """Append a chapter of ``replay`` (default name "Chapter <n>"); returns it."""
        if not isinstance(replay, Replay):
            raise ValueError(f"a chapter holds a Replay, got {type(replay).__name__}")
        if len(self._chapters) >= MAX_CHAPTERS:
            raise ValueError(f"a study holds at most {MAX_CHAPTERS} chapters")
        chapter = Chapter(
            _check_name(f"Chapter {len(self._chapters) + 1}" if name is None else name,
                  "a chapter name"),
            _check_text(notes, "chapter notes", MAX_NOTE_CHARS), replay)
        self._chapters.append(chapter)
        return chapter

    def chapter(self, index: int) -> Chapter:
        """Chapter ``index`` (negative counts from the end); an unknown index raises ValueError.

        >>> from leyline_widget import Game, Replay
        >>> study = Study("Openings")
        >>> _ = study.add(Replay.from_game(Game.new(players=2, seed=1)), "Seed 1")
        >>> study.chapter(0).name
        'Seed 1'
        """
        return self._chapters[self._index(index)]

    def rename(self, index: int, name: str) -> Chapter:
        """Rename chapter ``index``; returns it.

        >>> from leyline_widget import Game, Replay
        >>> study = Study("Openings")
        >>> _ = study.add(Replay.from_game(Game.new(players=2, seed=1)), "Seed 1")
        >>> study.rename(0, "The first deal").name
        'The first deal'
        """
        chapter = self.chapter(index)
        chapter.name = _check_name(name, "a chapter name")
        return chapter

    def set_notes(self, index: int, notes: str) -> Chapter:
        """Replace chapter ``index``'s notes; returns it.

        >>> from leyline_widget import Game, Replay
        >>> study = Study("Openings")
        >>> _ = study.add(Replay.from_game(Game.new(players=2, seed=1)), "Seed 1")
        >>> study.set_notes(0, "Watch the waters").notes
        'Watch the waters'
        """
        chapter = self.chapter(index)
        chapter.notes = _check_text(notes, "chapter notes", MAX_NOTE_CHARS)
        return chapter

    def remove(self, index: int) -> None:
        """Remove chapter ``index``.

        >>> from leyline_widget import Game, Replay
        >>> study = Study("Openings")
        >>> _ = study.add(Replay.from_game(Game.new(players=2, seed=1)), "Seed 1")
        >>> study.remove(0); len(study)
        0
        """
        del self._chapters[self._index(index)]

    def move(self, index: int, to: int) -> None:
        """Move chapter ``index`` to position ``to``."""
        chapter = self._chapters.pop(self._index(index))
        self._chapters.insert(max(0, min(len(self._chapters), to)), chapter)

    def _index(self, index: object) -> int:
        n = len(self._chapters)
        if isinstance(index, bool) or not isinstance(index, int) or not -n <= index < n:
            raise IndexError(f"the study has {n} chapter(s); there is no chapter {quote(index)}")
        return index % n

    # ------------------------------------------------------------------ JSON
    def to_dict(self) -> dict[str, Any]:
        """The study as JSON-safe data (the ``leyline-study`` format; :meth:`from_dict` reads it).

        >>> from leyline_widget import Game, Replay
        >>> study = Study("Openings")
        >>> _ = study.add(Replay.from_game(Game.new(players=2, seed=1)), "Seed 1")
        >>> Study.from_dict(study.to_dict()).chapter(0).name
        'Seed 1'
        """
        from ..core.version import VERSION as __version__

        return {
            "format": STUDY_FORMAT, "version": STUDY_VERSION,
            "generator": f"leyline_widget {__version__}",
            "title": self.title, "notes": self.notes,
            "chapters": [{"name": c.name, "notes": c.notes, "replay": c.replay.to_dict()}
                         for c in self._chapters],
        }


    @classmethod
    def load(cls, path: str | os.PathLike[str], max_bytes: int = MAX_BYTES) -> Study:
        """Read a study file; a missing, unreadable or oversized path is a ReplayFormatError
        naming it."""
        return cls.from_json(read_file(path, max_bytes, "study"), max_bytes=max_bytes)

    @classmethod
    def from_json(cls, text: str | bytes, max_bytes: int = MAX_BYTES) -> Study:
        """Read a study; every chapter's replay is checked as :meth:`Replay.from_json` does.

        Anything wrong raises :class:`ReplayFormatError` naming the chapter and the field.
        """
        data = parse_json(text, max_bytes, "study")
        return cls.from_dict(data)

    @classmethod
    def from_dict(cls, data: Any) -> Study:
        """The study from :meth:`to_dict`'s data; malformed data raises ReplayFormatError.

        >>> from leyline_widget import Game, Replay
        >>> study = Study("Openings")
        >>> _ = study.add(Replay.from_game(Game.new(players=2, seed=1)), "Seed 1")
        >>> len(Study.from_dict(study.to_dict()))
        1
        """
        if not isinstance(data, dict):
            raise ReplayFormatError(f"a study is a JSON object, got {type(data).__name__}")
        if data.get("format") != STUDY_FORMAT:
            hint = " (a single replay: use Replay.from_json)" if data.get(
                "format") == "leyline-replay" else ""
            raise ReplayFormatError(f"field 'format' must be {quote(STUDY_FORMAT)}, got "
                                    f"{quote(data.get('format'))}{hint}", field="format")
        version = data.get("version")
        if isinstance(version, bool) or not isinstance(version, int):
            raise ReplayFormatError(f"field 'version' must be an integer, got {quote(version)}",
                                    field="version")
        if version > STUDY_VERSION:
            raise ReplayFormatError(f"field 'version': this study has format version {version}, "
                                    f"newer than this leyline_widget reads ({STUDY_VERSION}); "
                                    "upgrade leyline_widget", field="version")
        if version < 1:
            raise ReplayFormatError(f"field 'version' must be from 1 to {STUDY_VERSION}, got "
                                    f"{version}", field="version")
        unknown = sorted(k for k in data if k not in _TOP_FIELDS)
        if unknown:
            raise ReplayFormatError(f"unknown field(s) {names(map(repr, unknown))}",
                                    field=unknown[0])
        if not isinstance(data.get("generator", ""), str):
            raise ReplayFormatError("field 'generator' must be a string", field="generator")
        try:
            title = _check_name(data.get("title", "Leyline study"), "a study title")
        except ValueError as err:
            raise ReplayFormatError(f"field 'title': {err}", field="title") from None
        try:
            study = cls(title, data.get("notes", ""))
        except ValueError as err:
            raise ReplayFormatError(f"field 'notes': {err}", field="notes") from None
        chapters = data.get("chapters")
        if not isinstance(chapters, list):
            raise ReplayFormatError(f"field 'chapters' must be a list, got {quote(chapters)}",
                                    field="chapters")
        if len(chapters) > MAX_CHAPTERS:
            raise ReplayFormatError(f"field 'chapters': {len(chapters)} chapters; the limit is "
                                    f"{MAX_CHAPTERS}", field="chapters")
        for n, item in enumerate(chapters):
            at = f"chapters[{n}]"
            if not isinstance(item, dict):
                raise ReplayFormatError(f"field {quote(at)} must be an object, got {quote(item)}",
                                        field=at)
            unknown = sorted(k for k in item if k not in _CHAPTER_FIELDS)
            if unknown:
                raise ReplayFormatError(f"field {quote(at)}: unknown field(s) "
                                        f"{names(map(repr, unknown))}", field=at)
            name = item.get("name", f"Chapter {n + 1}")
            try:
                name = _check_name(name, "a chapter name")
                notes = _check_text(item.get("notes", ""), "chapter notes", MAX_NOTE_CHARS)
            except ValueError as err:
                raise ReplayFormatError(f"field {quote(at)}: {err}", field=at) from None
            if "replay" not in item:
                raise ReplayFormatError(f"field '{at}.replay' is missing", field=at + ".replay")
            try:
                replay = Replay.from_dict(item["replay"])
            except ReplayFormatError as err:
                inner = f"{at}.replay" + ("" if err.field is None else f".{err.field}")
                raise ReplayFormatError(f"chapter {n + 1} ({quote(name, 40)}): {err}",
                                        field=inner, step=err.step,
                                        variation=err.variation) from None
            study._chapters.append(Chapter(name, notes, replay))
        return study
