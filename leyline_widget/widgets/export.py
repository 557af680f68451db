"""Static HTML: standalone offline pages of a widget as it is now and of a replay.

The default page (:func:`widget_html`, ``LeylineWidget.to_html``) and the replay page
(:func:`replay_html`) are one self-contained file each: the bundle ``static/widget.js`` inlined
and imported from a Blob URL (as anywidget does in Jupyter), the CSS inlined, and the data in a
JSON script element; no CDN, no npm, nothing fetched, so they work from a wheel install and
offline. ``assets="cdn"`` (or ``"copy"``) still writes the ipywidgets embed instead.

Nothing here imports anywidget or traitlets at module level: writing a replay page loads no
Jupyter machinery.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..core.echo import quote
from ..core.files import write_atomic
from ..core.version import VERSION
from ..replays.replay import Replay
from ..replays.study import Study
from .assets import asset, repo_root
from .book import replay_book
from .presenters import escape_html

__all__ = ["board_html", "replay_html", "study_html", "widget_html"]

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


def _inline_script(code: str) -> str:
    # Only these sequences could end or confuse an inline script; both are no-ops in JS text.
    code = code.replace("</script", "<\\/script").replace("<!--", "<\\!--")
    return f"<script>{code}</script>"


def widget_html(widgets: Any, path: str | Path, *, title: str = "Leyline",
                assets: str = "inline", node_modules: str | Path | None = None) -> Path:
    """Write a static HTML page showing ``widgets`` as they are now; returns its path.

    ``assets="inline"`` (the default) writes one self-contained offline page of one widget
    (:func:`board_html`): its board read-only, from the widget's synced state, with no
    kernel, CDN or npm. ``"cdn"`` writes the ipywidgets embed (one widget or a list) linking
    require.js and the HTML manager from the jsDelivr CDN; ``"copy"`` puts local copies of
    them (from ``node_modules``, the repository's by default) in ``leyline-assets/``.
    """
    if assets not in ("inline", "copy", "cdn"):
        raise ValueError(f"assets must be 'inline', 'copy' or 'cdn', got {quote(assets)}")
    if assets == "inline":
        if isinstance(widgets, (list, tuple)):
            if len(widgets) != 1:
                raise ValueError("an inline page shows one widget; write one page each, or use "
                                 "assets='cdn' for the ipywidgets embed of several")
            widgets = widgets[0]
        return board_html(widgets, path, title=title)
    from ipywidgets.embed import dependency_state, embed_data, escape_script

    views = list(widgets) if isinstance(widgets, (list, tuple)) else [widgets]
    path = Path(path)
    # Defaults must stay: anywidget models have no JS-side defaults for _esm or _view_name.
    data = embed_data(views=views, state=dependency_state(views, drop_defaults=False))
    state = escape_script(json.dumps(data["manager_state"]))
    body = [f'<script type="application/vnd.jupyter.widget-state+json">\n{state}\n</script>']
    body += [f'<script type="application/vnd.jupyter.widget-view+json">\n'
             f'{escape_script(json.dumps(spec))}\n</script>' for spec in data["view_specs"]]
    from ipywidgets._version import __html_manager_version__ as manager_version

    from .amd import anywidget_amd

    amd = anywidget_amd()
    if assets == "cdn":
        scripts = [f'<script src="{_CDN}requirejs@2.3.7/require.js"></script>',
                   _inline_script(amd),
                   f'<script src="{_CDN}@jupyter-widgets/html-manager@{manager_version}'
                   f'/dist/embed-amd.js"></script>']
    else:
        folder = Path(node_modules) if node_modules is not None else _node_modules()
        if folder is None or not all((folder / rel).is_file() for rel in _LOADERS.values()):
            raise FileNotFoundError(
                "assets='copy' needs local copies of require.js and @jupyter-widgets/html-manager "
                "(run `npm install` in the repository, or pass node_modules=...); the default "
                "assets='inline' page needs neither")
        target = path.parent / "leyline-assets"
        target.mkdir(parents=True, exist_ok=True)
        for name, rel in _LOADERS.items():
            write_atomic(target / name, (folder / rel).read_bytes())
        write_atomic(target / "anywidget.js", amd)
        scripts = [f'<script src="leyline-assets/{name}"></script>'
                   for name in ("require.js", "anywidget.js", "embed-amd.js")]
    html = _HTML.format(title=escape_html(title), scripts="\n".join(scripts),
                        body="\n".join(body))
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_atomic(path, html)


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
<noscript><p>This Leyline {what} needs JavaScript to show the board.</p></noscript>
<div id="{root}"></div>
<p class="ll-pagenote" id="{root}-note">{footer}</p>
<script type="application/json" id="{root}-{data}">{payload}</script>
<script type="module">{boot}</script>
</body>
</html>
"""

# The page runs widget.js from a Blob URL, exactly as anywidget does in Jupyter, over a
# model built in the page ({start}) instead of one that asks a kernel.
_BOOT = """
const root = document.getElementById("{root}");
try {{
  const source = {source};
  const url = URL.createObjectURL(new Blob([source], {{ type: "text/javascript" }}));
  const widget = await import(url);
  URL.revokeObjectURL(url);
  const data = JSON.parse(document.getElementById("{root}-{data}").textContent);
  {start}
  root.querySelector(".leyline")?.focus({{ preventScroll: true }}); // the arrow keys work at once
}} catch (err) {{
  root.textContent = "This {what} could not be shown: " + err;
}}
"""

# A read-only model over the widget's synced state: the page may change its own choices
# (set/save_changes), but nothing it sends can reach a kernel, and the note says so.
_STATIC_MODEL = """const handlers = new Map();
  const note = document.getElementById("{root}-note");
  const fire = (name) => (handlers.get(name) || new Set()).forEach((cb) => cb());
  const model = {{
    get: (k) => data[k],
    set(k, v) {{ data[k] = v; }},
    save_changes() {{ fire("change"); }},
    send() {{
      note.textContent = "This is a static page of the board: clicks cannot reach a kernel, " +
        "so nothing can be played here. Open the notebook to play on.";
    }},
    on(name, cb) {{ handlers.set(name, (handlers.get(name) || new Set()).add(cb)); }},
    off(name, cb) {{ (handlers.get(name) || new Set()).delete(cb); }},
  }};"""


#: How a page with a model starts: the bundle's render over it.
_RENDER = """{model}
  widget.default.render({{ model, el: root }});"""


def _script_json(value: Any) -> str:
    """JSON that is safe inside a <script> element: no "<" can end it or open a comment."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return (text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")
            .replace("\u2028", "\\u2028").replace("\u2029", "\\u2029"))


def replay_html(replay: Replay, path: str | os.PathLike[str], viewer: int | None = None, *,
                      step: int = 0, variation: int | None = None, title: str | None = None,
                      hide_tags: Iterable[str] = ("spoiler",), exclude_tags: Iterable[str] = (),
                      show_memory_of: int | None = None, reveal_ms: int = 1500) -> Path:
    """Write the standalone replay page (see :meth:`Replay.to_html`); returns its path.

    >>> import tempfile
    >>> from leyline_widget import Game
    >>> replay = Replay.from_game(Game.new(players=["Ada", "Bo"], seed=7))
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     page = replay_html(replay, Path(folder) / "bo.html", viewer=1)   # Bo's eyes only
    ...     print(page.name, page.read_text("utf-8").startswith("<!DOCTYPE html>"))
    bo.html True
    """
    book = replay_book(replay, viewer, step=step, variation=variation, hide_tags=hide_tags,
                       exclude_tags=exclude_tags, show_memory_of=show_memory_of,
                       reveal_ms=reveal_ms)
    names = ", ".join(replay.players)
    who = ("all-seeing view (every card shown; players' views in the menu)" if viewer is None
           else f"{replay.players[viewer]}'s view only")
    return _standalone(
        path, what="replay", root="leyline-replay", data="book", payload=book,
        start=_RENDER.format(model="const model = widget.bookModel(data);"),
        generator=book["generator"],
        title=title if title is not None else f"Leyline replay: {names}",
        footer=f"Leyline replay of {names}, {len(replay)} actions; {who}. "
               "Opens offline; arrow keys step through it.")


def study_html(study: Study, path: str | os.PathLike[str], viewer: int | None = None, *,
               title: str | None = None, hide_tags: Iterable[str] = ("spoiler",),
               exclude_tags: Iterable[str] = (), reveal_ms: int = 1500) -> Path:
    """Write one offline page of a :class:`~leyline_widget.replays.study.Study`: a chapter menu
    over the replay page of each chapter. ``viewer`` (a seat) makes every chapter that seat's
    view (a chapter with fewer seats shows its last seat); None is the all-seeing page, which
    also offers the study file as a download.

    >>> import tempfile
    >>> from leyline_widget import Game
    >>> study = Study("Two deals")
    >>> for seed in (7, 8):
    ...     chapter = study.add(Replay.from_game(Game.new(players=["Ada", "Bo"], seed=seed)))
    >>> with tempfile.TemporaryDirectory() as folder:
    ...     print(study_html(study, Path(folder) / "study.html").name)
    study.html
    """
    data = study_page_data(study, viewer, hide_tags=hide_tags, exclude_tags=exclude_tags,
                           reveal_ms=reveal_ms)
    who = "all-seeing view" if viewer is None else f"seat {viewer}'s view only"
    return _standalone(
        path, what="study", root="leyline-replay", data="book", payload=data,
        start="widget.studyPage(data, root);", generator=data["generator"],
        title=title if title is not None else study.title,
        footer=f"Leyline study: {study.title}, {len(study)} chapters; {who}. Opens offline.")


def study_page_data(study: Study, viewer: int | None = None, *,
                    hide_tags: Iterable[str] = ("spoiler",), exclude_tags: Iterable[str] = (),
                    reveal_ms: int = 1500) -> dict[str, Any]:
    """What a study page (:func:`study_html`) renders from: each chapter's replay book, JSON-safe.

    >>> from leyline_widget import Game, Replay, Study
    >>> study = Study("Openings")
    >>> _ = study.add(Replay.from_game(Game.new(players=2, seed=1)), "Seed 1")
    >>> [c["name"] for c in study_page_data(study)["chapters"]]
    ['Seed 1']
    """
    if not isinstance(study, Study):
        raise ValueError(f"study_html needs a Study, got {type(study).__name__}")
    if not len(study):
        raise ValueError("the study has no chapters to show")
    chapters = []
    for chapter in study.chapters:
        seats = len(chapter.replay.players)
        seat = None if viewer is None else min(viewer, seats - 1)
        chapters.append({"name": chapter.name, "notes": chapter.notes, "book": replay_book(
            chapter.replay, seat, hide_tags=hide_tags, exclude_tags=exclude_tags,
            reveal_ms=reveal_ms)})
    generator = f"leyline_widget {VERSION}"
    data: dict[str, Any] = {"format": "leyline-study-page", "version": 1, "generator": generator,
            "title": study.title,
            "notes": study.notes, "chapters": chapters,
            "downloads": ({"json": study.to_json()}
                          if viewer is None and not set(exclude_tags) else {})}
    return data


def board_html(widget: Any, path: str | os.PathLike[str], *, title: str = "Leyline") -> Path:
    """Write one self-contained offline page of ``widget``'s board as it is now, read-only.

    The page holds the widget's synced state (``view``, ``events``, ``info``, ... exactly what
    its front-end already has, so no more than its viewer may see) with nothing clickable;
    the bundle runs over a small static model. No kernel, CDN or npm is needed.
    """
    static = getattr(widget, "static_state", None)
    if not callable(static):
        raise ValueError(f"board_html shows a Leyline widget, got {type(widget).__name__}")
    state = static()
    return _standalone(
        path, what="board", root="leyline-board", data="state", payload=state,
        start=_RENDER.format(model=_STATIC_MODEL.format(root="leyline-board")),
        generator=f"leyline_widget {VERSION}", title=title,
        footer=f"{widget!r}: a static page of the board as it was when it was written; "
               "clicks cannot reach a kernel. Opens offline.")


def _standalone(path: str | os.PathLike[str], *, what: str, root: str, data: str,
                payload: Any, start: str, generator: str, title: str, footer: str) -> Path:
    css = asset("widget.css").read_text("utf-8")
    if "</" in css:
        raise RuntimeError("widget.css must not contain '</': it is inlined in a <style> element")
    boot = _BOOT.format(source=_script_json(asset("widget.js").read_text("utf-8")), root=root,
                        data=data, start=start, what=what)
    digest = base64.b64encode(hashlib.sha256(boot.encode("utf-8")).digest()).decode("ascii")
    # Only this page's own script runs (by its hash) and the module it imports from a Blob
    # URL; nothing can be fetched, so the page works offline and a note that smuggled in
    # markup could neither run a script nor load an image.
    csp = (f"default-src 'none'; script-src 'sha256-{digest}' blob:; "
           "style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'")
    page = _PAGE.format(csp=csp, generator=escape_html(generator), title=escape_html(title),
                        css=css, what=what, root=root, data=data, payload=_script_json(payload),
                        boot=boot, footer=escape_html(footer))
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    return write_atomic(path, page)
