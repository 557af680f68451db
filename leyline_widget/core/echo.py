"""Quoting input back in a message, shortened: a refusal never repeats junk in full.

Every message that names a value it was given (a malformed action, a refused page write, a
tampered replay field) quotes it through :func:`quote`, so a million-target Whisper or a
megabyte string makes an error of a line, not of megabytes.

>>> quote("fire")
"'fire'"
>>> len(quote("x" * 1_000_000)) <= MAX_ECHO
True
>>> quote(list(range(10**6)))
'[0, 1, 2, 3, 4, 5, ...] (1000000 items)'
"""

from __future__ import annotations

import reprlib
from collections.abc import Iterable, Sized
from itertools import islice

__all__ = ["MAX_ECHO", "MAX_PATH_ECHO", "names", "quote", "quote_path"]

#: The most characters of a given value that a message repeats.
MAX_ECHO = 80
#: The most characters of a file path a message repeats (its end: the file's name).
MAX_PATH_ECHO = 240

_REPR = reprlib.Repr()
_REPR.maxstring = 60
_REPR.maxother = 60
_REPR.maxlong = 40
_REPR.maxlevel = 3
for _name in ("maxlist", "maxtuple", "maxdict", "maxset", "maxfrozenset", "maxdeque",
              "maxarray"):
    setattr(_REPR, _name, 6)


def quote(value: object, limit: int = MAX_ECHO) -> str:
    """``repr(value)``, shortened to at most ``limit`` (:data:`MAX_ECHO`) characters.

    Containers show their first items and how many there are; long strings their two ends.
    Never builds the full repr of a large value.
    """
    try:
        text = _REPR.repr(value)
    except ValueError:  # an integer too long to write out (Python's digit limit)
        return f"an integer of {value.bit_length()} bits" if isinstance(value, int) else "?"
    if (isinstance(value, (list, tuple, dict, set, frozenset)) and isinstance(value, Sized)
            and len(value) > 6):
        text = f"{text} ({len(value)} items)"
    limit = min(limit, MAX_ECHO)
    if len(text) > limit:
        text = text[:limit - 3] + "..."
    return text


def names(items: Iterable[object]) -> str:
    """Names (field names, ids) joined by commas, shortened like :func:`quote`.

    >>> names(["a", "b"])
    'a, b'
    >>> len(names(["q" * 10**6, "r"])) <= MAX_ECHO
    True
    """
    text = ", ".join(str(item)[:MAX_ECHO] for item in islice(items, 12))
    return text if len(text) <= MAX_ECHO else text[:MAX_ECHO - 3] + "..."


def quote_path(path: object) -> str:
    """A file path for a message: quoted in full up to :data:`MAX_PATH_ECHO` characters, else
    its end (where the file's name is), so the message still says which file.

    >>> quote_path("/tmp/game.json")
    "'/tmp/game.json'"
    >>> text = quote_path("/d" * 10**6 + "/game.json")
    >>> len(text) <= MAX_PATH_ECHO and text.endswith("/game.json'")
    True
    """
    try:
        text = repr(str(path)) if isinstance(path, str) else repr(path)
    except Exception:  # a path-like whose repr fails: say so, never crash
        return "a path"
    if len(text) <= MAX_PATH_ECHO:
        return text
    return "'..." + text[-(MAX_PATH_ECHO - 4):]
