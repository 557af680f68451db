"""Shared fixtures for tests (and benchmarks) that drive real parts: Debian's Chromium through
Playwright, a real JupyterLab server on 127.0.0.1, and static HTML pages.

Import what you need in a test module; pytest finds the fixtures ``browser`` and ``output_dir``
by name in the module, and ``lab_fixture`` makes the module's ``lab``::

    from browser_support import EXAMPLES, browser, lab_fixture, output_dir  # noqa: F401

    lab = lab_fixture({"play.ipynb": EXAMPLES / "01_play.ipynb"})

``lab_fixture(..., app="notebook")`` serves the same notebooks from Notebook 7 instead
(``jupyter notebook``: the same JupyterLab front-end pieces, one document per tab).

Browser tests skip when /usr/bin/chromium is missing, unless ``LEYLINE_REQUIRE_BROWSER=1``
(CI), where they fail instead. Screenshots go under ``test-output/<test name>/``.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parent.parent
EXAMPLES = REPO / "examples"
CHROMIUM = Path("/usr/bin/chromium")
OUTPUT = REPO / "test-output"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-dev-shm-usage"]
LAB_THEMES = {"light": "JupyterLab Light", "dark": "JupyterLab Dark"}
#: User settings for the test server: start the notebook's kernel without asking, attach every
#: cell (so widgets below the fold render), and no news or update toasts over the page.
LAB_SETTINGS = {
    "@jupyterlab/notebook-extension/tracker": {"autoStartDefaultKernel": True,
                                               "windowingMode": "none"},
    "@jupyterlab/apputils-extension/notification": {"fetchNews": "false",
                                                    "checkForUpdates": False},
}


def require_chromium() -> None:
    """Skip (or, with LEYLINE_REQUIRE_BROWSER=1, fail) when the real browser is missing."""
    problem = None
    if not CHROMIUM.exists():
        problem = f"{CHROMIUM} is missing (apt-get install chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            problem = "playwright is not installed (pip install -e .[dev])"
    if problem:
        if os.environ.get("LEYLINE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"browser tests required but {problem}")
        pytest.skip(problem)


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def output_path(name: str) -> Path:
    """A fresh folder under test-output/ for one test's screenshots and pages."""
    folder = OUTPUT / re.sub(r"[^A-Za-z0-9_.-]+", "_", name)
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    return folder


# ---------------------------------------------------------------------------- Chromium
@contextlib.contextmanager
def chromium() -> Iterator[Any]:
    """A headless Debian Chromium (Playwright Browser); closed on exit."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True,
                                     args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


def new_page(browser: Any, width: int = 1200, height: int = 900, dark: bool = False) -> Any:
    """A page in a fresh context; console errors are collected in ``page.errors``."""
    context = browser.new_context(viewport={"width": width, "height": height},
                                  color_scheme="dark" if dark else "light")
    page = context.new_page()
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.errors = errors
    return page


def open_static(browser: Any, html: Path, offline: bool = True, **kwargs: Any) -> Any:
    """Open a static HTML page (a widget page) from disk, by default with the network off,
    and wait for its widgets."""
    page = new_page(browser, **kwargs)
    page.context.set_offline(offline)
    page.goto(html.resolve().as_uri())
    page.wait_for_selector(".leyline .ll-grid", timeout=30_000)
    return page


# ---------------------------------------------------------------------------- JupyterLab
#: Per front-end: the ``jupyter`` subcommand, the traitlets class of its flags, and the page
#: that opens one notebook (JupyterLab's ``reset`` drops a saved workspace's other tabs).
JUPYTER_APPS = {
    "lab": ("lab", "LabApp", "/lab/tree/{path}?token={token}&reset"),
    "notebook": ("notebook", "JupyterNotebookApp", "/notebooks/{path}?token={token}"),
}


@dataclass
class Lab:
    """A running JupyterLab (or Notebook 7, ``app="notebook"``) server started by
    :func:`jupyter_lab`."""

    url: str
    token: str
    root: Path
    runtime: Path
    process: subprocess.Popen[bytes]
    log: Path
    app: str = "lab"

    def api(self, path: str) -> Any:
        sep = "&" if "?" in path else "?"
        with urllib.request.urlopen(f"{self.url}{path}{sep}token={self.token}",
                                    timeout=10) as r:
            return json.loads(r.read())

    def notebook_url(self, relpath: str) -> str:
        return self.url + JUPYTER_APPS[self.app][2].format(path=relpath, token=self.token)

    def kernel_for(self, relpath: str, timeout: float = 30) -> Any:
        """A BlockingKernelClient talking to the kernel of the open notebook ``relpath``."""
        from jupyter_client import BlockingKernelClient

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for session in self.api("/api/sessions"):
                if session.get("path") == relpath and session.get("kernel"):
                    conn = self.runtime / f"kernel-{session['kernel']['id']}.json"
                    if conn.exists():
                        client = BlockingKernelClient(connection_file=str(conn))
                        client.load_connection_file()
                        client.start_channels()
                        client.wait_for_ready(timeout=30)
                        return client
            time.sleep(0.3)
        raise TimeoutError(f"no kernel for {relpath}; sessions: {self.api('/api/sessions')}")

    def run_in_kernel(self, relpath: str, code: str, timeout: float = 30) -> str:
        """Run ``code`` in the notebook's own kernel (its variables) and return its stdout."""
        client = self.kernel_for(relpath)
        out: list[str] = []

        def hook(msg: dict[str, Any]) -> None:
            if msg["msg_type"] == "stream" and msg["content"]["name"] == "stdout":
                out.append(msg["content"]["text"])
            elif msg["msg_type"] == "error":
                out.append("\n".join(msg["content"]["traceback"]))

        try:
            reply = client.execute_interactive(code, timeout=timeout, output_hook=hook,
                                               store_history=False)
        finally:
            client.stop_channels()
        if reply["content"]["status"] != "ok":
            raise RuntimeError(f"kernel error: {''.join(out)}")
        return "".join(out)

    def kernel_json(self, relpath: str, expr: str, setup: str = "") -> Any:
        """The value of ``expr`` in the notebook's kernel, through JSON (``setup`` runs first)."""
        out = self.run_in_kernel(relpath, f"{setup}\nimport json as _j; print(_j.dumps({expr}))")
        return json.loads(out.strip().splitlines()[-1])


@contextlib.contextmanager
def _server(args: list[str], env: dict[str, str], cwd: Path,
            log: Path) -> Iterator[subprocess.Popen[bytes]]:
    """Run a server in its own process group; on exit, end that group (the server and its
    kernels) and nothing else."""
    with log.open("wb") as sink:
        process = subprocess.Popen(args, stdout=sink, stderr=subprocess.STDOUT, env=env,
                                   cwd=cwd, start_new_session=True)
    try:
        yield process
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=5)


def _wait_up(probe: Any, process: subprocess.Popen[bytes], log: Path, name: str,
             timeout: float) -> None:
    """Poll ``probe`` (raises OSError while the server is not answering) until it answers."""
    deadline = time.monotonic() + timeout
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"{name} exited: {log.read_text()[-3000:]}")
        try:
            probe()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{name} did not start: {log.read_text()[-3000:]}") from None
            time.sleep(0.3)


@contextlib.contextmanager
def jupyter_lab(notebooks: dict[str, Path | str], timeout: float = 90,
                app: str = "lab", nodelay: bool = True) -> Iterator[Lab]:
    """Start JupyterLab (or, with ``app="notebook"``, Notebook 7) on 127.0.0.1 over a
    temporary folder holding ``notebooks``.

    ``notebooks`` maps a file name in the server's root to a source path (copied) or to
    notebook JSON text. Settings, workspaces and runtime files live in the temporary folder,
    so a theme change in one test touches nothing outside it (Notebook 7 reads the same
    JupyterLab settings folder).

    ``nodelay`` enables the package's opt-in server extension (widgets/server.py) for this
    server only, as ``jupyter server extension enable leyline_widget.widgets.server`` would
    for an environment: the latency benchmark and the browser tests run with it.
    """
    subcommand, flags, _ = JUPYTER_APPS[app]
    base = Path(tempfile.mkdtemp(prefix="leyline-lab-"))
    root, runtime, settings = base / "root", base / "runtime", base / "settings"
    for folder in (root, runtime, settings, base / "workspaces"):
        folder.mkdir()
    for plugin, values in LAB_SETTINGS.items():
        path = settings / f"{plugin}.jupyterlab-settings"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(values), "utf-8")
    for name, source in notebooks.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(source, Path):
            shutil.copyfile(source, target)
        else:
            target.write_text(source, "utf-8")
    port = free_port()
    token = os.urandom(12).hex()
    jupyter = Path(sys.executable).with_name("jupyter")
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(runtime),
           "JUPYTERLAB_SETTINGS_DIR": str(settings),
           "JUPYTERLAB_WORKSPACES_DIR": str(base / "workspaces"), "PYTHONUNBUFFERED": "1",
           # The kernels' saved games stay in this server's folder, never the user's.
           "LEYLINE_HOME": str(base / "leyline-home")}
    if nodelay:
        config = base / "config" / "jupyter_server_config.d"
        config.mkdir(parents=True)
        (config / "leyline_widget.widgets.server.json").write_text(json.dumps(
            {"ServerApp": {"jpserver_extensions": {"leyline_widget.widgets.server": True}}}))
        env["JUPYTER_CONFIG_PATH"] = os.pathsep.join(
            [str(base / "config"), *filter(None, [os.environ.get("JUPYTER_CONFIG_PATH")])])
    log = base / "lab.log"
    args = [str(jupyter), subcommand, "--no-browser", "--allow-root",
            "--ServerApp.ip=127.0.0.1", f"--ServerApp.port={port}",
            "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
            f"--ServerApp.root_dir={root}", f"--{flags}.expose_app_in_browser=True",
            *(["--LabApp.news_url=",
               "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate"]
              if app == "lab" else [])]
    try:
        with _server(args, env, root, log) as process:
            lab = Lab(f"http://127.0.0.1:{port}", token, root, runtime, process, log, app)
            _wait_up(lambda: lab.api("/api/status"), process, log, f"jupyter {app}", timeout)
            yield lab
    finally:
        shutil.rmtree(base, ignore_errors=True)


def open_notebook(browser: Any, lab: Lab, relpath: str, *, theme: str = "light",
                  width: int = 1200, height: int = 900, offline: bool = False) -> Any:
    """Open ``relpath`` in JupyterLab (or Notebook 7) and wait until its kernel is idle.
    With ``offline``, only the server is reachable; ``page.refused`` lists what was not."""
    page = new_page(browser, width=width, height=height)
    page.refused = local_only(page, lab.url) if offline else []
    page.goto(lab.notebook_url(relpath))
    page.wait_for_selector(".jp-Notebook", timeout=60_000)
    wait_kernel_idle(page)
    set_theme(page, theme)
    return page


def lab_command(page: Any, command: str, args: dict[str, Any] | None = None) -> Any:
    """Run a JupyterLab (or Notebook 7) command (the app is exposed by jupyter_lab's server
    flags)."""
    return page.evaluate("([c, a]) => window.jupyterapp.commands.execute(c, a)",
                         [command, args or {}])


def wait_kernel_idle(page: Any, timeout: float = 60_000) -> None:
    """Wait until the current notebook's kernel is connected and idle (the toolbar's idle
    indicator shows before the kernel's websocket is up, and cells run then are lost)."""
    page.wait_for_function("""() => {
        const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
        const k = w && w.sessionContext && w.sessionContext.session
            && w.sessionContext.session.kernel;
        return !!k && k.connectionStatus === 'connected' && k.status === 'idle';
    }""", timeout=timeout)


def set_theme(page: Any, theme: str) -> None:
    """Switch JupyterLab's theme ("light" or "dark") and wait until it applies."""
    name = LAB_THEMES[theme]
    if page.evaluate("() => document.body.dataset.jpThemeName") != name:
        lab_command(page, "apputils:change-theme", {"theme": name})
        page.wait_for_function("(n) => document.body.dataset.jpThemeName === n", arg=name,
                               timeout=30_000)
        page.wait_for_timeout(300)


def run_all_cells(page: Any, widgets: int = 1, timeout: float = 60_000) -> None:
    """Run every cell through the Run menu and wait for ``widgets`` Leyline widgets."""
    page.locator(".lm-MenuBar-itemLabel", has_text=re.compile(r"^Run$")).click()
    page.locator(".lm-Menu-itemLabel", has_text=re.compile(r"^Run All Cells$")).click()
    page.wait_for_function("(n) => document.querySelectorAll('.leyline .ll-grid').length >= n",
                           arg=widgets, timeout=timeout)
    wait_kernel_idle(page, timeout)


def notebook_json(cells: list[str], markdown: str = "") -> str:
    """A minimal notebook (python3 kernelspec, so no Select Kernel dialog) of code cells."""
    import nbformat

    nb = nbformat.v4.new_notebook()
    if markdown:
        nb.cells.append(nbformat.v4.new_markdown_cell(markdown))
    nb.cells += [nbformat.v4.new_code_cell(c) for c in cells]
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3 (ipykernel)",
                                 "language": "python"}
    return str(nbformat.writes(nb))


# ---------------------------------------------------------------------------- marimo
@dataclass
class Marimo:
    """A ``marimo run`` (or ``marimo edit``) server started by :func:`marimo_app`, serving
    one notebook."""

    url: str
    root: Path
    log: Path

    def set_theme(self, theme: str) -> None:
        """marimo's own theme ("light" or "dark") from the next page load on: marimo reads
        its configuration (a ``.marimo.toml`` in the server's folder) at each page load. The
        editor runs the notebook's cells when it opens (``auto_instantiate``), as the app does."""
        (self.root / ".marimo.toml").write_text(
            f'[display]\ntheme = "{theme}"\n\n[runtime]\nauto_instantiate = true\n', "utf-8")


@contextlib.contextmanager
def marimo_app(notebook: Path, theme: str = "light", timeout: float = 90,
               mode: str = "run") -> Iterator[Marimo]:
    """Serve a copy of the marimo notebook ``notebook`` with ``marimo run`` (or, with
    ``mode="edit"``, the editor) on 127.0.0.1, headless and without a token, in marimo's
    ``theme``. Its configuration lives in a temporary folder (the server's working folder,
    which marimo searches first), so the user's own is never read."""
    marimo = Path(sys.executable).with_name("marimo")
    if not marimo.exists():
        raise RuntimeError(f"{marimo} is missing: pip install -e .[dev] (it installs marimo)")
    base = Path(tempfile.mkdtemp(prefix="leyline-marimo-"))
    shutil.copyfile(notebook, base / notebook.name)
    port = free_port()
    log = base / "marimo.log"
    args = [str(marimo), "-y", mode, notebook.name,
            "--headless", "--host", "127.0.0.1", "--port", str(port), "--no-token",
            "--no-sandbox"]
    env = {**os.environ, "MARIMO_SKIP_UPDATE_CHECK": "1", "PYTHONUNBUFFERED": "1"}
    app = Marimo(f"http://127.0.0.1:{port}", base, log)
    app.set_theme(theme)
    try:
        with _server(args, env, base, log) as process:
            _wait_up(lambda: urllib.request.urlopen(f"{app.url}/health", timeout=10).close(),
                     process, log, "marimo run", timeout)
            yield app
    finally:
        shutil.rmtree(base, ignore_errors=True)


def local_only(page: Any, origin: str) -> list[str]:
    """Refuse every request of ``page`` that goes anywhere but ``origin`` (a local server),
    so that the page works offline; returns the list of refused addresses, filled as they come.
    (Playwright's own offline mode would refuse the local server too.)"""
    refused: list[str] = []
    local = origin.replace("http://", "ws://", 1)

    def route(r: Any) -> None:
        url = r.request.url
        if url.startswith((origin + "/", local + "/", "data:", "blob:")):
            r.continue_()
        else:
            refused.append(url)
            r.abort()

    page.context.route("**/*", route)
    return refused


# ---------------------------------------------------------------------------- widget helpers
def widget_state(root: Any) -> dict[str, Any]:
    """What a Leyline widget (a Locator on its ``.leyline`` root) shows, read from the DOM."""
    return root.evaluate("""(el) => ({
        phase: el.dataset.phase, step: Number(el.dataset.step), ack: Number(el.dataset.ack),
        turn: Number(el.dataset.turn),
        cards: [...el.querySelectorAll('[data-act=card]')].map((c) => ({
            slot: Number(c.dataset.slot), card: c.dataset.card,
            element: c.dataset.element || null, cls: c.className})),
        study: Object.fromEntries([...el.querySelectorAll('[data-study]')].map(
            (t) => [t.dataset.study, Number(t.textContent)])),
        score: Number((el.querySelector('.ll-study [data-score]') || {}).textContent),
        error: (el.querySelector('[role=alert]') || {}).textContent || '',
        prompt: (el.querySelector('.ll-prompt') || {}).textContent || '',
        over: !!el.querySelector('.ll-over'),
    })""")


def click_and_wait(page: Any, root: Any, target: Any, timeout: float = 15_000) -> None:
    """Click ``target`` inside a widget and wait for the kernel's answer (``data-ack``)."""
    ack = root.get_attribute("data-ack")
    target.click()
    page.wait_for_function("([el, a]) => el.dataset.ack !== a",
                           arg=[root.element_handle(), ack], timeout=timeout)


#: Words and symbols that name an element: none may show where a seat may not see one.
ELEMENT_WORDS = re.compile(r"fire|water|earth|wind|▲|●|■|≋", re.IGNORECASE)
AXE = REPO / "node_modules" / "axe-core" / "axe.min.js"


def axe_violations(page: Any, root: Any, name: str) -> list[str]:
    """Serious and critical axe-core violations inside ``root`` (the page gets axe once)."""
    if not page.evaluate("() => !!window.axe"):
        page.add_script_tag(path=str(AXE))
    found = root.evaluate("""async (el) => {
        const r = await window.axe.run(el, { resultTypes: ['violations'] });
        return r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
          .map((v) => v.id + ': ' + v.nodes.slice(0, 3).map((n) => n.target.join(' ') + ' '
            + (n.failureSummary || '').split('\\n').slice(1, 2).join('')).join(' | '));
    }""")
    return [f"{name}: {v}" for v in found]


def no_widget_errors(page: Any) -> None:
    """The page logged no error from the widget or anywidget (other page noise is allowed)."""
    errors = [e for e in page.errors if "leyline" in e.lower() or "anywidget" in e.lower()]
    assert not errors, errors


def scan_seat(root: Any) -> None:
    """Nothing on the board shows an inert card's element (no glimpse, no face on an inert card)."""
    bad = root.evaluate("""(el) => [...el.querySelectorAll('[data-act=card]')]
        .filter((c) => c.dataset.card !== 'active' && (c.dataset.element
          || c.classList.contains('ll-glimpse') || /Fire|Water|Earth|Wind/.test(c.outerHTML)))
        .map((c) => c.dataset.slot)""")
    assert bad == [], f"inert cards showing an element: {bad}"


def press_ready(page: Any, root: Any) -> None:
    """Press Ready on the deal, and wait until it is over."""
    root.locator("[data-act=deal-ready]").click()
    page.wait_for_function("(el) => el.dataset.deal === 'none'", arg=root.element_handle(),
                           timeout=20_000)


def play_turn_step(page: Any, root: Any, clicked: list[int]) -> None:
    """One click of a simple player: up to two activations, any refill, else End. Nothing
    when the board is not drawn (a hand-off screen that came up after the caller looked: the
    page draws a new state only once the reveals before it have played)."""
    state = widget_state(root)
    phase = state["phase"]
    if phase is None:
        return
    if phase == "activation":
        m = re.search(r"\((\d+) of \d+ left\)", state["prompt"])
        legal = root.locator(".ll-card.ll-legal[data-card=inert]")
        if m and int(m.group(1)) > 1 and len(clicked) < 2 and legal.count():
            slot = int(legal.first.get_attribute("data-slot"))
            clicked.append(slot)
            click_and_wait(page, root, legal.first)
            return
    elif phase == "refill":
        click_and_wait(page, root, root.locator(".ll-card.ll-legal").first)
        return
    clicked.clear()
    end = root.locator("[data-act=end], [data-act=no-power]")  # Phase 1: "No power"
    assert end.count() == 1, (state, root.inner_text()[:600])
    click_and_wait(page, root, end)


def board_luminance(root: Any) -> float:
    """The relative luminance (0 black .. 1 white) of the board's computed background: what
    the reader sees, whatever attribute or variable put it there."""
    rgb = root.evaluate("""(el) => getComputedStyle(el).backgroundColor
        .match(/[\\d.]+/g).slice(0, 3).map(Number)""")
    lin = [c / 255 / 12.92 if c <= 10 else ((c / 255 + 0.055) / 1.055) ** 2.4 for c in rgb]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


# ---------------------------------------------------------------------------- pytest fixtures
@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    # Module scope: each test module that imports this fixture gets its own copy of it, and
    # Playwright's sync API allows one running instance per thread at a time.
    with chromium() as b:
        yield b


@pytest.fixture
def output_dir(request: pytest.FixtureRequest) -> Path:
    return output_path(request.node.name)


def lab_fixture(notebooks: dict[str, Path | str], app: str = "lab") -> Any:
    """A module-scoped ``lab`` fixture: one JupyterLab (or Notebook 7) serving ``notebooks``
    (as for :func:`jupyter_lab`) to every test of the module that assigns it to a name."""

    @pytest.fixture(scope="module")
    def lab() -> Iterator[Lab]:
        require_chromium()
        with jupyter_lab(notebooks, app=app) as server:
            yield server

    return lab
