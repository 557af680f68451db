"""The house in layers: imports only point down, and only widgets/ knows Jupyter.

Layers, bottom to top: core <- replays <- agents, teach, interop <- tables <- widgets <- cli.
A module may import from its own folder and from layers below; never from one above or beside it.
Every import counts, lazy ones inside functions included.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

import leyline_widget
from leyline_widget.core.game import Game

PACKAGE = Path(leyline_widget.__file__).parent
RANK = {"core": 0, "replays": 1, "agents": 2, "teach": 2, "interop": 2, "tables": 3,
        "widgets": 4, "cli": 5}
JUPYTER = ("anywidget", "ipywidgets", "traitlets", "ipykernel", "IPython")


def modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py") if "static" not in p.parts)


def layer_of(module: str) -> str | None:
    """The layer of ``leyline_widget.X...``; None for the package's own __init__."""
    parts = module.split(".")
    if parts[0] != "leyline_widget" or len(parts) == 1:
        return None
    return parts[1]


def module_name(path: Path) -> str:
    rel = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path, name: str | None = None) -> list[tuple[int, str]]:
    """Every module ``path`` imports, as absolute names, with line numbers (lazy ones too)."""
    tree = ast.parse(path.read_text("utf-8"))
    name = module_name(path) if name is None else name
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    found: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - (node.level - 1)]
                target = ".".join(base + ([node.module] if node.module else []))
                if not node.module:  # from . import x: each name may be a module
                    found += [(node.lineno, f"{target}.{alias.name}") for alias in node.names]
                    continue
            else:
                target = node.module or ""
            found.append((node.lineno, target))
        elif (isinstance(node, ast.Call) and isinstance(node.func, (ast.Name, ast.Attribute))
              and getattr(node.func, "id", getattr(node.func, "attr", "")) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant)
              and isinstance(node.args[0].value, str)):
            found.append((node.lineno, node.args[0].value))
    return found


def test_the_layers_are_the_design_folders() -> None:
    folders = {p.name for p in PACKAGE.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert folders == {"core", "replays", "agents", "teach", "interop", "tables", "widgets"}
    flat = {p.stem for p in PACKAGE.glob("*.py")}
    assert flat == {"__init__", "cli"}


def test_imports_only_point_down() -> None:
    wrong = []
    for path in modules():
        here = layer_of(module_name(path))
        if here is None:
            continue  # the public API may name anything (lazily)
        for line, target in imports(path):
            there = layer_of(target)
            if there is None or there == here or target == "leyline_widget":
                if target == "leyline_widget" and here != "cli":
                    wrong.append(f"{path.relative_to(PACKAGE)}:{line} imports the package top")
                continue
            if RANK[there] >= RANK[here]:
                side = "sideways" if RANK[there] == RANK[here] else "up"
                wrong.append(f"{path.relative_to(PACKAGE)}:{line} imports {target} ({side})")
    assert wrong == []


def outside_imports(layer: str, packages: tuple[str, ...]) -> list[str]:
    """Every import of one of ``packages`` by a module outside ``layer``."""
    wrong = []
    for path in modules():
        if layer_of(module_name(path)) == layer:
            continue
        for line, target in imports(path):
            if target.split(".")[0] in packages:
                wrong.append(f"{path.relative_to(PACKAGE)}:{line} imports {target}")
    return wrong


def test_only_widgets_know_jupyter() -> None:
    assert outside_imports("widgets", JUPYTER) == []


#: The web server and the database drivers: only the tables layer knows them.
NETWORK = ("starlette", "uvicorn", "websockets", "psycopg", "sqlite3", "sqlalchemy", "httpx")


def test_only_tables_know_the_web_server_and_the_database() -> None:
    assert outside_imports("tables", NETWORK) == []


def test_the_layer_check_catches_a_lazy_upward_import(tmp_path: Path) -> None:
    # The checker itself: a relative import inside a function still counts.
    bad = tmp_path / "bad.py"
    bad.write_text("def f():\n    from ..widgets.play import LeylineWidget\n"
                   "    importlib.import_module('leyline_widget.teach.course')\n")
    assert [t for _, t in imports(bad, "leyline_widget.core.bad")] == [
        "leyline_widget.widgets.play", "leyline_widget.teach.course"]


GAME_PRIVATE = {n for n in (*Game.__slots__, *vars(Game))
                if n.startswith("_") and not n.startswith("__")}


def test_no_module_outside_core_touches_a_games_private_state() -> None:
    wrong = []
    for path in modules():
        if layer_of(module_name(path)) == "core":
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            own = isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and (
                node.value.id in ("self", "cls"))
            if isinstance(node, ast.Attribute) and node.attr in GAME_PRIVATE and not own:
                wrong.append(f"{path.relative_to(PACKAGE)}:{node.lineno} .{node.attr}")
    assert wrong == []


def test_every_module_declares_all() -> None:
    missing = [str(p.relative_to(PACKAGE)) for p in modules()
               if "__all__" not in p.read_text("utf-8")]
    assert missing == []


@pytest.mark.parametrize("code", [
    "import leyline_widget.core",
    "import leyline_widget",
    "import leyline_widget.replays, leyline_widget.agents, leyline_widget.teach",
    # The widgets' pure parts are testable without a kernel.
    "import leyline_widget.widgets.presenters, leyline_widget.widgets.book",
    # Writing an offline replay page loads no Jupyter machinery either.
    "import leyline_widget as L, tempfile, os\n"
    "g = L.Game.new(players=2, seed=1)\n"
    "_ = g.apply(g.legal_actions()[0])\n"
    "L.replay_html(L.Replay.from_game(g), os.path.join(tempfile.mkdtemp(), 'r.html'))",
])
def test_a_fresh_interpreter_loads_no_jupyter(code: str) -> None:
    check = code + "\nimport sys\nprint(sorted(m for m in sys.modules if m.split('.')[0] in " \
        f"{JUPYTER!r}))"
    out = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True,
                         timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip().splitlines()[-1] == "[]"
