"""The one coupling to anywidget's internals: its AMD bundle, named for a plain script tag.

The ipywidgets embed page (``widget_html(..., assets="cdn")``, or ``"copy"``) loads widgets
with require.js. anywidget ships an *anonymous* AMD module (``nbextension/index.js``,
``define(["@jupyter-widgets/base"], ...)``), which require.js can only load from a URL; the
page needs it inlined, so it must carry the name ``anywidget``. That rename is the only place
this package reads anywidget's files, and it is here, checked against every anywidget the
package supports (0.9 to 0.x: ``./dev test-oldest`` runs the lowest).

The standalone pages (the default ``to_html``) do not use this: they run the widget's own
bundle from a Blob URL, as anywidget does in Jupyter, with no loader at all.
"""

from __future__ import annotations

import re
from pathlib import Path

__all__ = ["SUPPORTED", "anywidget_amd", "name_amd"]

#: The anywidget versions whose AMD bundle :func:`name_amd` understands (pyproject's pin).
SUPPORTED = ">=0.9,<1"

_ANONYMOUS = re.compile(r"""define\(\s*\[\s*(["'])@jupyter-widgets/base\1""")
_NAMED = re.compile(r"""define\(\s*(["'])anywidget\1\s*,""")


def name_amd(source: str) -> str:
    """``source`` (anywidget's AMD bundle) with its module named ``anywidget``.

    >>> name_amd('define(["@jupyter-widgets/base"], function (b) {})')
    'define("anywidget", ["@jupyter-widgets/base"], function (b) {})'
    >>> name_amd('define("anywidget", ["@jupyter-widgets/base"], f)')
    'define("anywidget", ["@jupyter-widgets/base"], f)'
    """
    if _NAMED.search(source):
        return source
    found = list(_ANONYMOUS.finditer(source))
    if len(found) != 1:
        raise RuntimeError(
            "this anywidget's AMD bundle (nbextension/index.js) has an unexpected form "
            f"({len(found)} anonymous define calls on @jupyter-widgets/base); the ipywidgets "
            f"embed export supports anywidget {SUPPORTED}. The default to_html page does not "
            "need it.")
    at = found[0].start() + len("define(")
    return f'{source[:at]}"anywidget", {source[at:].lstrip()}'


def anywidget_amd() -> str:
    """The installed anywidget's AMD bundle, named ``anywidget`` (see :func:`name_amd`)."""
    import anywidget

    path = Path(anywidget.__file__).parent / "nbextension" / "index.js"
    if not path.is_file():
        raise RuntimeError(f"anywidget {getattr(anywidget, '__version__', '?')} has no AMD "
                           f"bundle at {path}; the ipywidgets embed export supports anywidget "
                           f"{SUPPORTED}")
    return name_amd(path.read_text("utf-8"))
