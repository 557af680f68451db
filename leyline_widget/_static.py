"""Where the front-end files live: ``widgets/static/`` inside the package.

``js/build.mjs`` (``npm run build``) bundles ``js/src`` into ``widgets/static/widget.js`` and
copies ``widget.css`` beside it; both are committed, so a wheel or an editable install needs
no Node.

>>> asset("widget.js").name
'widget.js'
"""

from __future__ import annotations

from pathlib import Path

_HERE = Path(__file__).resolve().parent
_STATIC = _HERE / "widgets" / "static"


def asset(name: str) -> Path:
    """The path of the front-end file ``name`` (``widget.js`` or ``widget.css``)."""
    path = _STATIC / name
    if not path.is_file():
        raise FileNotFoundError(
            f"front-end file {name!r} not found in {_STATIC}; reinstall leyline_widget "
            "(in a source checkout: npm run build)")
    return path


def repo_root() -> Path | None:
    """The source checkout holding this package (it has ``js/src``), or None in a wheel."""
    root = _HERE.parent
    return root if (root / "js" / "src" / "index.js").is_file() else None
