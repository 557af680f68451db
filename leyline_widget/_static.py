"""Where the front-end files live: in the wheel (``static/``) or in the source tree (``js/``).

Hatch force-includes ``js/widget.js`` and ``js/widget.css`` into the wheel as
``leyline_widget/static/``; an editable install reads them from ``../js`` instead.

>>> asset("widget.js").name
'widget.js'
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent
_PLACES = (_HERE / "static", _HERE.parent / "js")


def asset(name: str) -> Path:
    """The path of the front-end file ``name`` (``widget.js`` or ``widget.css``)."""
    for folder in _PLACES:
        path = folder / name
        if path.is_file():
            return path
    raise FileNotFoundError(
        f"front-end file {name!r} not found in {' or '.join(str(p) for p in _PLACES)}; "
        "reinstall leyline_widget")


def repo_root() -> Path | None:
    """The source checkout holding this package (it has ``js/``), or None in a wheel."""
    root = _HERE.parent
    return root if (root / "js" / "widget.js").is_file() else None
