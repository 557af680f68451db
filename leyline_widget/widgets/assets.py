"""Where the front-end files live: ``static/`` beside this module, in a wheel and in a checkout.

The bundle ``static/widget.js`` is built from ``js/src/`` by ``npm run build`` and committed, so
``pip install`` from a clean clone works without Node (CI checks that it matches the sources).

>>> asset("widget.js").name
'widget.js'
"""

from __future__ import annotations

from pathlib import Path

from ..core.echo import quote

__all__ = ["STATIC", "asset", "repo_root"]

_HERE = Path(__file__).resolve().parent
STATIC = _HERE / "static"


def asset(name: str) -> Path:
    """The path of the front-end file ``name`` (``widget.js`` or ``widget.css``)."""
    path = STATIC / name
    if not path.is_file():
        raise FileNotFoundError(
            f"front-end file {quote(name)} not found in {STATIC}; in a checkout run `npm run "
            f"build`, "
            "else reinstall leyline_widget")
    return path


def repo_root() -> Path | None:
    """The source checkout holding this package (it has ``js/src``), or None in a wheel."""
    root = _HERE.parents[1]
    return root if (root / "js" / "src" / "index.js").is_file() else None
