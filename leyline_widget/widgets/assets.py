"""Where the front-end files live: ``static/`` beside this module, in a wheel and in a checkout.

The bundle ``static/widget.js`` is built from ``js/src/`` by ``npm run build`` and committed, so
``pip install`` from a clean clone works without Node (CI checks that it matches the sources).

>>> asset("widget.js").name
'widget.js'
"""

from __future__ import annotations

from pathlib import Path

__all__ = ["STATIC", "asset", "repo_root"]

_HERE = Path(__file__).resolve().parent
STATIC = _HERE / "static"
_PLACES = (STATIC, _HERE.parents[1] / "js")


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
    root = _HERE.parents[1]
    return root if (root / "js").is_dir() else None
