"""Leyline with nothing installed: a static JupyterLite site with the Pyodide kernel.

:func:`build_lite` (``leyline lite --out DIR``, ``./dev lite``) writes a folder that any static
host (or ``python -m http.server``) serves: JupyterLite, the Pyodide kernel, this package's wheel
and every pure wheel it and the kernel need, the example notebooks that make sense in a browser
and the lessons. Everything is fetched while building, from PyPI (``pip download``) and the npm
registry (the ``pyodide`` package), and copied into the site, so the site asks no other server
for anything: it works offline.

Pyodide loads a package named in its lock file (``pyodide-lock.json``) from its own folder; the
npm package holds the runtime and the lock but not the wheels, so the pure wheels the kernel and
this package need are fetched from PyPI at the lock's versions and the lock is pointed at them
(their hashes differ from Pyodide's rebuilt copies). The other pure wheels go to JupyterLite's
own index (``pypi/``), where ``%pip install`` (piplite) finds them. A compiled wheel that the npm
package does not hold cannot be vendored: the build names it and stops. (So the coach notebook's
pandas and matplotlib figures stay in Jupyter; the site's coach notebook uses the widget alone.)

Each notebook gets a first cell ``%pip install -q leyline_widget`` (piplite, from the site's own
index) and no outputs.

>>> [resolve_notebook(n).name for n in ("lesson:binding", "lessons")]
['lesson-binding.ipynb', 'lessons.ipynb']
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from email.parser import Parser
from pathlib import Path
from typing import Any
from zipfile import ZipFile

from ..core.echo import quote
from ..teach.course import COURSE
from .assets import repo_root

__all__ = ["DEFAULT_NOTEBOOKS", "LiteSite", "build_lite", "resolve_notebook"]

#: The notebooks a site holds unless ``--notebook`` chooses: play, the rules tutorial, a replay,
#: the coach (the site's own, without pandas and matplotlib) and the course of lessons.
DEFAULT_NOTEBOOKS = ("01_play", "02_rules_tutorial", "03_annotate_replay", "coach", "lessons")

#: What the Pyodide kernel installs as it starts (its worker asks for these by name).
KERNEL_NEEDS = ("micropip", "ipython", "jedi", "comm")

#: Where Pyodide and the wheels are kept between builds (``LEYLINE_LITE_CACHE`` overrides).
CACHE = Path(os.environ.get("LEYLINE_LITE_CACHE") or Path.home() / ".cache" / "leyline-lite")

# The Pyodide runtime files the kernel loads (the npm package also holds docs, maps, consoles).
_RUNTIME = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip",
            "pyodide-lock.json", "pyodide.js")

# Markers as Pyodide's micropip evaluates them (a requirement only for other platforms is skipped).
_BROWSER = {"sys_platform": "emscripten", "platform_system": "Emscripten", "os_name": "posix",
            "platform_machine": "wasm32", "implementation_name": "cpython",
            "platform_python_implementation": "CPython", "extra": ""}

_INSTALL_CELL = "%pip install -q leyline_widget"

_COACH = [
    ("markdown", "# The coach, in the browser\n\nA short game between Ada (a player who "
     "remembers three cards) and the greedy bot. Press **Analyse Ada's moves** on the replay: "
     "the coach judges each of Ada's decisions from what she could know. Here the analysis "
     "runs in steps the page asks for (the browser's Python has no threads): the bar shows "
     "its progress and **Cancel** stops it."),
    ("code", "from leyline_widget import Game, Replay, ReplayWidget\n"
     "from leyline_widget.agents.bots import BotSeat, make_bot\n\n"
     "game = Game.new(players=[\"Ada\", \"Bo\"], seed=5)\n"
     "seats = [BotSeat(make_bot(\"memory\", seed=1, capacity=3), 0),\n"
     "         BotSeat(make_bot(\"greedy\", seed=2), 1)]\n"
     "while not game.is_over and game.turn <= 6:\n"
     "    game.apply(seats[game.active_player].act(game))\n"
     "replay = Replay.from_game(game)\n"
     "coach = ReplayWidget(replay, viewer=0, allow_all_seeing=False, analysis_budget=8)\n"
     "coach"),
    ("markdown", "From Python the same review is `leyline_widget.analyse(replay, player=0)`."),
]


#: The site's play notebook starts with a short solo game: in a browser, with nothing
#: installed, a first game should be whole in a few minutes (and the site's browser test plays
#: this one to its end by clicking).
PLAY_EXAMPLE = "01_play.ipynb"
_SHORT_GAME = [
    ("markdown", "## A short game first\n\nA small table for a first try: six grid slots (two "
     "rows of three) and three cards of each element, twelve in all. Every collection is "
     "refilled from the deck, and the game ends when a slot must be refilled and the deck is "
     "empty: after four collections or fewer."),
    ("code", "from leyline_widget import LeylineWidget, Rules\n\n"
     "small = Rules.default().replace(grid_rows=2, grid_cols=3, cards_per_element=3)\n"
     "short = LeylineWidget(players=[\"You\"], seed=1, rules=small)\n"
     "short"),
]


@dataclass
class LiteSite:
    """What :func:`build_lite` wrote: the folder, its notebooks and wheels, size and time.

    >>> LiteSite(Path("site"), ["01_play.ipynb"], ["leyline_widget-0.1.0-py3-none-any.whl"],
    ...          1_000_000, 12.5).summary()
    'site: 1 notebooks, 1 wheels, 1.0 MB, built in 12.5 s'
    """

    out: Path
    notebooks: list[str]
    wheels: list[str]
    size: int
    seconds: float
    skipped: list[str] = field(default_factory=list)

    def summary(self) -> str:
        """One line for the command's output."""
        return (f"{self.out}: {len(self.notebooks)} notebooks, {len(self.wheels)} wheels, "
                f"{self.size / 1e6:.1f} MB, built in {self.seconds:.1f} s")


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _write(path: Path, text: str) -> None:
    """Write ``text`` whole or not at all (a temp file in the same folder, then a rename)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _canon(name: str) -> str:
    return name.lower().replace("_", "-").replace(".", "-")


def _examples() -> Path | None:
    root = repo_root()
    folder = root / "examples" if root else None
    return folder if folder and folder.is_dir() else None


def _notebook(cells: Iterable[tuple[str, str]]) -> dict[str, Any]:
    return {"cells": [{"cell_type": kind, "metadata": {}, "source": text,
                       **({"outputs": [], "execution_count": None} if kind == "code" else {})}
                      for kind, text in cells],
            "metadata": {"kernelspec": {"display_name": "Python (Pyodide)", "language": "python",
                                        "name": "python"},
                         "language_info": {"name": "python"}},
            "nbformat": 4, "nbformat_minor": 5}


@dataclass(frozen=True)
class Notebook:
    """A notebook for the site: its file name and cells (``%pip`` cell not yet added)."""

    name: str
    content: dict[str, Any]


def resolve_notebook(spec: str) -> Notebook:
    """The notebook ``spec`` names: a path to an ``.ipynb`` file; an example's name or the end
    of it (``01_play``, ``play``, ``rules_tutorial``); ``coach`` (the site's coach notebook);
    ``lessons`` (the whole course) or ``lesson:<id>`` (one lesson). A name that matches nothing
    raises ``ValueError`` listing the choices.

    >>> resolve_notebook("lesson:no-such").name
    Traceback (most recent call last):
    ...
    ValueError: no lesson 'no-such'; the lessons are activate-collect, deactivate-pass, ...
    """
    ids = [lesson.id for lesson in COURSE]
    if spec == "lessons":
        cells = [("markdown", "# Learn Leyline: the course\n\nEach lesson is a small board: "
                  "do what it asks, and it tells you why. **Next** moves on."),
                 ("code", "from leyline_widget.widgets.lesson import LessonWidget\n\n"
                  "LessonWidget.course()")]
        return Notebook("lessons.ipynb", _notebook(cells))
    if spec.startswith("lesson:"):
        wanted = spec.partition(":")[2]
        if wanted not in ids:
            raise ValueError(f"no lesson {quote(wanted)}; the lessons are "
                             f"{', '.join(ids[:2])}, ...")
        lesson = next(x for x in COURSE if x.id == wanted)
        cells = [("markdown", f"# {lesson.title}"),
                 ("code", "from leyline_widget.widgets.lesson import LessonWidget\n\n"
                  f"LessonWidget({wanted!r})")]
        return Notebook(f"lesson-{wanted}.ipynb", _notebook(cells))
    if spec == "coach":
        return Notebook("coach.ipynb", _notebook(_COACH))
    path = Path(spec)
    if path.suffix == ".ipynb" and path.is_file():
        return Notebook(path.name, json.loads(path.read_text("utf-8")))
    folder = _examples()
    found = sorted(folder.glob("*.ipynb")) if folder else []
    hits = [p for p in found if p.stem == spec or p.stem.endswith("_" + spec)]
    if len(hits) != 1:
        names = ", ".join(p.stem for p in found) or "(no examples/ folder: run from a clone)"
        raise ValueError(f"--notebook {quote(spec)} names no notebook; choose a path to an "
                         f".ipynb file, one of {names}, coach, lessons, or lesson:<id> "
                         f"({', '.join(ids)})")
    content = json.loads(hits[0].read_text("utf-8"))
    if hits[0].name == PLAY_EXAMPLE:  # the short game goes after the introduction
        cells = content.get("cells", [])
        content["cells"] = [*cells[:1], *_notebook(_SHORT_GAME)["cells"], *cells[1:]]
    return Notebook(hits[0].name, content)


def _for_the_browser(nb: dict[str, Any]) -> dict[str, Any]:
    """The notebook with its outputs cleared and the install cell first."""
    cells = []
    for cell in nb.get("cells", []):
        cell = dict(cell)
        if cell.get("cell_type") == "code":
            cell["outputs"], cell["execution_count"] = [], None
        cells.append(cell)
    first: dict[str, Any] = {"cell_type": "code", "metadata": {"tags": ["install"]}, "outputs": [],
             "execution_count": None, "source": _INSTALL_CELL}
    out = dict(nb)
    out["cells"] = [first, *cells]
    for cell in out["cells"]:
        cell.pop("id", None)  # nbformat 4.5 ids are optional; fresh ones are made on open
    out["nbformat_minor"] = 4
    return out


# -- fetching ---------------------------------------------------------------------------------

def _run(cmd: Sequence[str], what: str, cwd: Path | None = None) -> None:
    done = subprocess.run(list(cmd), capture_output=True, text=True, check=False, cwd=cwd)
    if done.returncode:
        tail = "\n".join((done.stderr or done.stdout).strip().splitlines()[-15:])
        raise RuntimeError(f"{what} failed:\n{tail}")


def _fetch_pyodide(version: str, cache: Path) -> Path:
    """The npm ``pyodide`` package's folder, unpacked once into the cache."""
    folder = cache / f"pyodide-{version}"
    if (folder / "pyodide-lock.json").is_file():
        return folder
    cache.mkdir(parents=True, exist_ok=True)
    tgz = cache / f"pyodide-{version}.tgz"
    if not tgz.is_file():
        npm = shutil.which("npm")
        if npm:
            _run([npm, "pack", f"pyodide@{version}", "--silent", "--pack-destination",
                  str(cache)], f"npm pack pyodide@{version}")
        else:  # the registry's own tarball, checked against the integrity it publishes
            meta_url = f"https://registry.npmjs.org/pyodide/{version}"
            with urllib.request.urlopen(meta_url, timeout=60) as reply:
                dist = json.load(reply)["dist"]
            with urllib.request.urlopen(dist["tarball"], timeout=300) as reply:
                data = reply.read()
            algo, _, want = dist["integrity"].partition("-")
            if base64.b64encode(hashlib.new(algo, data).digest()).decode() != want:
                raise RuntimeError(f"the npm registry's pyodide {version} tarball fails its "
                                   "integrity check")
            tgz.write_bytes(data)
    staging = Path(tempfile.mkdtemp(dir=cache, prefix=".unpack-"))
    try:
        with tarfile.open(tgz) as tar:
            for name in _RUNTIME:
                member = tar.getmember(f"package/{name}")
                source = tar.extractfile(member)
                if source is None:
                    raise RuntimeError(f"pyodide {version}: {name} is not a file")
                (staging / name).write_bytes(source.read())
        os.replace(staging, folder)
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return folder


def _metadata(wheel: Path) -> tuple[str, list[str]]:
    """A wheel's project name and its ``Requires-Dist`` lines."""
    with ZipFile(wheel) as zf:
        name = next(n for n in zf.namelist() if n.endswith(".dist-info/METADATA"))
        meta = Parser().parsestr(zf.read(name).decode("utf-8"))
    return meta["Name"], meta.get_all("Requires-Dist") or []


def _wanted(requires: list[str], python: str) -> list[str]:
    """The requirement names that apply in the browser (markers as micropip judges them)."""
    from packaging.requirements import Requirement

    env = {**_BROWSER, "python_version": ".".join(python.split(".")[:2]),
           "python_full_version": python}
    out = []
    for line in requires:
        req = Requirement(line)
        if req.marker is None or req.marker.evaluate(env):
            out.append(req.name)
    return out


def _download(requirements: Sequence[str], into: Path, constraints: Path, links: Path,
              python: str) -> None:
    _run([sys.executable, "-m", "pip", "download", "-q", "--only-binary=:all:",
          "--platform", "any", "--implementation", "py", "--abi", "none",
          "--python-version", ".".join(python.split(".")[:2]), "-c", str(constraints),
          "--find-links", str(links), "-d", str(into), *requirements],
         "pip download of " + ", ".join(Path(r).name for r in requirements))


# -- the build --------------------------------------------------------------------------------

def build_lite(out: str | os.PathLike[str], notebooks: Sequence[str] | None = None, *,
               wheel: str | os.PathLike[str] | None = None, cache: Path | None = None,
               say: Callable[[str], None] = _say) -> LiteSite:
    """Build the site into ``out`` (emptied first; see the module docstring) and return what
    it holds. ``notebooks``: what :func:`resolve_notebook` accepts, default
    :data:`DEFAULT_NOTEBOOKS`. ``wheel``: this package's wheel (default: built from the source
    tree this module runs from). Needs ``jupyterlite-core`` and ``jupyterlite-pyodide-kernel``
    (``pip install 'leyline_widget[lite]'``) and the network while it builds (PyPI, npm).
    """
    started = time.perf_counter()
    try:
        import jupyterlite_core  # noqa: F401
        from jupyterlite_pyodide_kernel import constants
    except ImportError as err:
        raise RuntimeError("building the site needs jupyterlite-core and "
                           "jupyterlite-pyodide-kernel: pip install 'leyline_widget[lite]' "
                           "(from a clone: pip install -e '.[lite]'); "
                           f"missing {err.name}") from None
    chosen = [resolve_notebook(n) for n in (notebooks or DEFAULT_NOTEBOOKS)]
    names = [nb.name for nb in chosen]
    if len(set(names)) != len(names):
        raise ValueError(f"two notebooks would share a name: {sorted(names)}")
    cache = cache or CACHE
    target = Path(out).resolve()
    with tempfile.TemporaryDirectory(prefix="leyline-lite-") as tmp:
        work = Path(tmp)
        own = Path(wheel).resolve() if wheel else _build_wheel(work / "dist", say)
        say(f"pyodide {constants.PYODIDE_VERSION} from npm ...")
        pyodide = _fetch_pyodide(constants.PYODIDE_VERSION, cache)
        lite = work / "lite"
        static = lite / "static" / "pyodide"
        static.mkdir(parents=True)
        for name in _RUNTIME:
            shutil.copy2(pyodide / name, static / name)
        say("wheels from PyPI ...")
        wheels = _vendor_wheels(own, static, lite / "pypi", cache, constants)
        for nb in chosen:
            _write(lite / "files" / nb.name, json.dumps(_for_the_browser(nb.content), indent=1))
        settings = {"jupyter-lite-schema-version": 0, "jupyter-config-data": {
            "appName": "Leyline", "exposeAppInBrowser": True,
            "litePluginSettings": {constants.PYODIDE_KERNEL_PLUGIN_ID: {
                constants.DISABLE_PYPI_FALLBACK: True}}}}
        _write(lite / "jupyter-lite.json", json.dumps(settings, indent=1))
        say("jupyter lite build ...")
        staged = work / "site"
        _run([sys.executable, "-m", "jupyterlite_core", "build", "--lite-dir", str(lite),
              "--output-dir", str(staged), "--no-sourcemaps", "--no-unused-shared-packages"],
             "jupyter lite build", cwd=work)  # its task database stays in the temp folder
        if target.exists():
            shutil.rmtree(target)
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(staged), target)
    size = sum(p.stat().st_size for p in target.rglob("*") if p.is_file())
    return LiteSite(target, names, wheels, size, time.perf_counter() - started)


def _build_wheel(into: Path, say: Callable[[str], None]) -> Path:
    root = repo_root()
    if root is None or not (root / "pyproject.toml").is_file():
        raise RuntimeError("no source tree to build the wheel from: pass --wheel PATH "
                           "(a built leyline_widget wheel)")
    say("this package's wheel ...")
    _run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(into), str(root)],
         "pip wheel")
    return next(into.glob("leyline_widget-*.whl"))


def _vendor_wheels(own: Path, static: Path, piplite: Path, cache: Path,
                   constants: Any) -> list[str]:
    """Fetch every pure wheel the kernel and ``own`` need in the browser; put those named in
    Pyodide's lock beside it (and point the lock at them), the rest in piplite's index."""
    lock_path = static / "pyodide-lock.json"
    lock = json.loads(lock_path.read_text("utf-8"))
    python = lock["info"]["python"]
    packages: dict[str, dict[str, Any]] = lock["packages"]
    in_lock = {_canon(k): k for k in packages}
    stubs = Path(sys.prefix) / "share/jupyter/labextensions" / constants.PYODIDE_KERNEL_NPM_NAME \
        / "static" / "pypi"
    if not stubs.is_dir():
        raise RuntimeError(f"the Pyodide kernel's own wheels are missing ({stubs})")
    stub_names = {_canon(p.name.split("-")[0]): p for p in stubs.glob("*.whl")}
    # Pins: the lock's versions (Pyodide loads those) and the kernel's stand-ins (ipykernel,
    # widgetsnbextension), so pip resolves to exactly what the browser will load.
    pins = [f"{k}=={v['version']}" for k, v in packages.items()
            if v["file_name"].endswith("-none-any.whl")]
    newest: dict[str, str] = {}  # widgetsnbextension comes as 3.6.999 and 4.0.999: the newest
    for p in sorted(stubs.glob("*.whl"), key=lambda p: tuple(map(int, p.name.split("-")[1]
                                                                 .split(".")))):
        newest[p.name.split("-")[0]] = p.name.split("-")[1]
    pins += [f"{name}=={version}" for name, version in newest.items()]
    store = cache / "wheels"
    store.mkdir(parents=True, exist_ok=True)
    constraints = store / "constraints.txt"
    _write(constraints, "\n".join(pins) + "\n")
    found: dict[str, Path] = {_canon(own.name.split("-")[0]): own}
    todo = [str(own), *KERNEL_NEEDS]
    while todo:
        wanted = [t for t in todo if t.endswith(".whl") or _canon(t) not in found]
        if wanted:
            _download(wanted, store, constraints, stubs, python)
        for p in store.glob("*.whl"):
            found.setdefault(_canon(p.name.split("-")[0]), p)
        todo = []
        for name in list(_reach(found, packages, in_lock, python, own)):
            if name not in found and name not in stub_names:
                todo.append(name)
    reached = _reach(found, packages, in_lock, python, own)
    compiled = sorted(n for n in reached if n in in_lock
                      and not packages[in_lock[n]]["file_name"].endswith("-none-any.whl"))
    if compiled:
        raise RuntimeError("these packages need compiled wheels that the npm pyodide package "
                           f"does not hold: {', '.join(compiled)}")
    piplite.mkdir(parents=True, exist_ok=True)
    placed = []
    for name in sorted(reached):
        if name in stub_names:
            continue  # the kernel's own copy ships with the site
        source = found[name]
        if name in in_lock:
            entry = packages[in_lock[name]]
            entry["file_name"] = source.name
            entry["sha256"] = hashlib.sha256(source.read_bytes()).hexdigest()
            shutil.copy2(source, static / source.name)
        else:
            shutil.copy2(source, piplite / source.name)
        placed.append(source.name)
    _write(lock_path, json.dumps(lock))
    return placed


def _reach(found: dict[str, Path], packages: dict[str, dict[str, Any]], in_lock: dict[str, str],
           python: str, own: Path) -> set[str]:
    """The names the browser will load, from this package and the kernel's needs: a locked
    package brings what the lock says, any other what its wheel's metadata asks."""
    seen: set[str] = set()
    stack = [_canon(own.name.split("-")[0]), *(_canon(n) for n in KERNEL_NEEDS)]
    while stack:
        name = stack.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in in_lock:
            stack += [_canon(d) for d in packages[in_lock[name]]["depends"]]
        elif name in found:
            stack += [_canon(d) for d in _wanted(_metadata(found[name])[1], python)]
    return seen
