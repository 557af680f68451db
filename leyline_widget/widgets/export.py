"""Static HTML: a widget as it is now (the ipywidgets embed) and the standalone replay page.

Nothing here imports anywidget or traitlets at module level: writing a replay page loads no
Jupyter machinery.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..core.echo import quote
from ..replays.replay import Replay
from .assets import asset, repo_root
from .book import replay_book
from .presenters import escape_html

__all__ = ["replay_html", "widget_html"]

_CDN = "https://cdn.jsdelivr.net/npm/"
_LOADERS = {
    "require.js": "requirejs/require.js",
    "embed-amd.js": "@jupyter-widgets/html-manager/dist/embed-amd.js",
}

_HTML = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>body {{ font-family: system-ui, sans-serif; margin: 1rem auto; max-width: 52rem;
  padding: 0 1rem; }}</style>
{scripts}
</head>
<body>
{body}
</body>
</html>
"""


def _node_modules() -> Path | None:
    root = repo_root()
    candidates = [root / "node_modules"] if root else []
    candidates.append(Path.cwd() / "node_modules")
    for folder in candidates:
        if all((folder / rel).is_file() for rel in _LOADERS.values()):
            return folder
    return None


def _anywidget_amd() -> str:
    """anywidget's AMD bundle, named ``anywidget`` so a plain script tag can define it."""
    import anywidget

    source = (Path(anywidget.__file__).parent / "nbextension" / "index.js").read_text("utf-8")
    anonymous = 'define(["@jupyter-widgets/base"]'
    if anonymous not in source:
        raise RuntimeError("this anywidget's nbextension bundle has an unexpected form; "
                           "static HTML export supports anywidget 0.11")
    return source.replace(anonymous, 'define("anywidget", ["@jupyter-widgets/base"]', 1)


def _inline_script(code: str) -> str:
    # Only these sequences could end or confuse an inline script; both are no-ops in JS text.
    code = code.replace("</script", "<\\/script").replace("<!--", "<\\!--")
    return f"<script>{code}</script>"


def widget_html(widgets: Any, path: str | Path, *, title: str = "Leyline",
            assets: str = "inline", node_modules: str | Path | None = None) -> Path:
    """Write a static HTML page showing ``widgets`` (one or a list) as they are now.

    The page needs no kernel: it holds the widgets' state and the loaders (require.js, the
    ipywidgets HTML manager and anywidget's AMD bundle). ``assets="inline"`` puts the loaders
    in the page (one self-contained file); ``"copy"`` writes them to ``leyline-assets/`` next
    to it; ``"cdn"`` links the jsDelivr CDN. Local loaders come from ``node_modules`` (the
    repository's, by default), installed by ``npm install``.
    """
    from ipywidgets.embed import dependency_state, embed_data, escape_script

    if assets not in ("inline", "copy", "cdn"):
        raise ValueError(f"assets must be 'inline', 'copy' or 'cdn', got {quote(assets)}")
    views = list(widgets) if isinstance(widgets, (list, tuple)) else [widgets]
    path = Path(path)
    # Defaults must stay: anywidget models have no JS-side defaults for _esm or _view_name.
    data = embed_data(views=views, state=dependency_state(views, drop_defaults=False))
    state = escape_script(json.dumps(data["manager_state"]))
    body = [f'<script type="application/vnd.jupyter.widget-state+json">\n{state}\n</script>']
    body += [f'<script type="application/vnd.jupyter.widget-view+json">\n'
             f'{escape_script(json.dumps(spec))}\n</script>' for spec in data["view_specs"]]
    from ipywidgets._version import __html_manager_version__ as manager_version

    amd = _anywidget_amd()
    if assets == "cdn":
        scripts = [f'<script src="{_CDN}requirejs@2.3.7/require.js"></script>',
                   _inline_script(amd),
                   f'<script src="{_CDN}@jupyter-widgets/html-manager@{manager_version}'
                   f'/dist/embed-amd.js"></script>']
    else:
        folder = Path(node_modules) if node_modules is not None else _node_modules()
        if folder is None or not all((folder / rel).is_file() for rel in _LOADERS.values()):
            raise FileNotFoundError(
                "static HTML needs local copies of require.js and @jupyter-widgets/html-manager "
                "(run `npm install` in the repository, or pass node_modules=...); "
                "assets='cdn' links them from the CDN instead")
        if assets == "inline":
            scripts = [_inline_script((folder / _LOADERS["require.js"]).read_text("utf-8")),
                       _inline_script(amd),
                       _inline_script((folder / _LOADERS["embed-amd.js"]).read_text("utf-8"))]
        else:
            target = path.parent / "leyline-assets"
            target.mkdir(parents=True, exist_ok=True)
            for name, rel in _LOADERS.items():
                shutil.copyfile(folder / rel, target / name)
            (target / "anywidget.js").write_text(amd, "utf-8")
            scripts = [f'<script src="leyline-assets/{name}"></script>'
                       for name in ("require.js", "anywidget.js", "embed-amd.js")]
    html = _HTML.format(title=escape_html(title), scripts="\n".join(scripts),
                        body="\n".join(body))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(html, "utf-8")
    return path


_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="{generator}">
<title>{title}</title>
<style>
{css}
</style>
<style>body {{ font-family: system-ui, sans-serif; margin: 1rem auto; max-width: 54rem;
  padding: 0 1rem; }} @media (prefers-color-scheme: dark) {{ body {{ background: #111;
  color: #eee; }} }} .ll-pagenote {{ font-size: 0.85em; opacity: 0.75; }}</style>
</head>
<body>
<noscript><p>This Leyline replay needs JavaScript to show the board.</p></noscript>
<div id="leyline-replay"></div>
<p class="ll-pagenote">{footer}</p>
<script type="application/json" id="leyline-replay-book">{book}</script>
<script type="module">{boot}</script>
</body>
</html>
"""

# The page runs widget.js from a Blob URL, exactly as anywidget does in Jupyter, over a
# model that looks positions up in the book instead of asking a kernel.
_BOOT = """
const root = document.getElementById("leyline-replay");
try {{
  const source = {source};
  const url = URL.createObjectURL(new Blob([source], {{ type: "text/javascript" }}));
  const widget = await import(url);
  URL.revokeObjectURL(url);
  const book = JSON.parse(document.getElementById("leyline-replay-book").textContent);
  widget.default.render({{ model: widget.bookModel(book), el: root }});
  root.querySelector(".leyline").focus({{ preventScroll: true }}); // the arrow keys work at once
}} catch (err) {{
  root.textContent = "This replay could not be shown: " + err;
}}
"""


def _script_json(value: Any) -> str:
    """JSON that is safe inside a <script> element: no "<" can end it or open a comment."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def replay_html(replay: Replay, path: str | os.PathLike[str], viewer: int | None = None, *,
                      step: int = 0, variation: int | None = None, title: str | None = None,
                      hide_tags: Iterable[str] = ("spoiler",), exclude_tags: Iterable[str] = (),
                      show_memory_of: int | None = None, reveal_ms: int = 1500) -> Path:
    """Write the standalone replay page (see :meth:`Replay.to_html`); returns its path."""
    book = replay_book(replay, viewer, step=step, variation=variation, hide_tags=hide_tags,
                       exclude_tags=exclude_tags, show_memory_of=show_memory_of,
                       reveal_ms=reveal_ms)
    css = asset("widget.css").read_text("utf-8")
    if "</" in css:
        raise RuntimeError("widget.css must not contain '</': it is inlined in a <style> element")
    boot = _BOOT.format(source=_script_json(asset("widget.js").read_text("utf-8")))
    digest = base64.b64encode(hashlib.sha256(boot.encode("utf-8")).digest()).decode("ascii")
    # Only this page's own script runs (by its hash) and the module it imports from a Blob
    # URL; nothing can be fetched, so the page works offline and a note that smuggled in
    # markup could neither run a script nor load an image.
    csp = (f"default-src 'none'; script-src 'sha256-{digest}' blob:; "
           "style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'")
    names = ", ".join(replay.players)
    who = ("all-seeing view (every card shown; players' views in the menu)" if viewer is None
           else f"{replay.players[viewer]}'s view only")
    page = _PAGE.format(
        csp=csp, generator=escape_html(book["generator"]),
        title=escape_html(title if title is not None else f"Leyline replay: {names}"),
        css=css, book=_script_json(book), boot=boot,
        footer=escape_html(f"Leyline replay of {names}, {len(replay)} actions; {who}. "
                           "Opens offline; arrow keys step through it."))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(page, "utf-8")
    return path
