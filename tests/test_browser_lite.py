"""The in-browser site (``leyline lite``): JupyterLite and the Pyodide kernel, offline.

``./dev test`` (and ``./dev test-lite``) builds the site from the checkout (downloads kept in
.cache/lite) and names it in ``LEYLINE_LITE_SITE``; without it this module is skipped, or fails
under ``LEYLINE_REQUIRE_BROWSER=1`` (CI). The site is served on 127.0.0.1 and opened in one
Chromium page in which every request to anywhere else is refused (a Playwright route, and
Chromium resolves no other host name); Chromium's own network log proves afterwards that no
request (from the page, its workers or its service worker) went to another host, and a probe
from the page and one from a worker show that the guard refuses them.

The browser's Python starts once (the slow part: Pyodide and the kernel's packages) and every
part shares that kernel: the play notebook runs and its short solo game is played to its end by
clicking, as a player who remembers what the page showed; then the course's first lesson is
finished, the replay notebook runs and its replay is stepped, and the coach notebook's Analyse
button runs the stepped analysis (no threads in the browser) with its progress shown.
Screenshots go to test-output/lite/; the time to the first board is printed (cold: a fresh
browser cache), and with ``LEYLINE_LITE_WARM=1`` also warm (the page opened again).
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import threading
import time
from collections import Counter
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from browser_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    click_and_wait,
    free_port,
    local_only,
    output_path,
    require_chromium,
    widget_state,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]

#: The browser's Python answers in about a second on a loaded machine; starting it takes a
#: minute or more.
START_MS = 300_000
ANSWER_MS = 60_000


class _Files(SimpleHTTPRequestHandler):
    """A static host, as GitHub Pages or any web server would be (module scripts and wasm
    need their types)."""

    extensions_map: ClassVar[dict[str, str]] = {
                      **SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                      ".js": "text/javascript", ".wasm": "application/wasm",
                      ".json": "application/json"}

    def log_message(self, format: str, *args: Any) -> None:
        pass

    def handle(self) -> None:
        # The page went away mid-download (the warm reload): not the site's fault.
        with contextlib.suppress(ConnectionResetError):
            super().handle()


@pytest.fixture(scope="module")
def site() -> Path:
    given = os.environ.get("LEYLINE_LITE_SITE")
    if not given:
        why = "no site to open: ./dev test builds it (LEYLINE_LITE_SITE names a built site)"
        if os.environ.get("LEYLINE_REQUIRE_BROWSER") == "1":
            pytest.fail(f"the in-browser site is required but {why}")
        pytest.skip(why)
    path = Path(given)
    assert (path / "jupyter-lite.json").is_file(), f"LEYLINE_LITE_SITE={given} is no site"
    return path


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    port = free_port()
    server = ThreadingHTTPServer(("127.0.0.1", port), functools.partial(_Files, directory=site))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{port}"
    server.shutdown()
    server.server_close()


class Lite:
    """One Chromium page on the served site, and what it saw."""

    def __init__(self, page: Any, origin: str, out: Path) -> None:
        self.page, self.origin, self.out = page, origin, out
        self.errors: list[str] = []
        self.refused: list[str] = []
        self.kernel: dict[str, str] = {}
        self.times: dict[str, float] = {}

    def panel(self) -> str:
        """A selector of the notebook tab in front."""
        wid = self.page.evaluate("() => window.jupyterapp.shell.currentWidget.id")
        return f'[id="{wid}"]'

    def open(self, notebook: str) -> Any:
        """Open ``notebook`` (the first on a fresh kernel, the others on that same kernel), run
        every cell, and return the tab once each cell has run without an error."""
        started = time.perf_counter()
        if not self.kernel:
            self.page.goto(f"{self.origin}/lab/index.html?path={notebook}")
        else:  # the kernel already running: no second Pyodide to start
            self.page.evaluate("""async ([path, kernel]) => { await window.jupyterapp.commands
                .execute('docmanager:open', {path, kernel}); }""", [notebook, self.kernel])
        self.page.wait_for_function("""(path) => {
            const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
            const k = w && w.context && w.context.path === path && w.sessionContext.session
                && w.sessionContext.session.kernel;
            return !!k && k.connectionStatus === 'connected' && k.status === 'idle';
        }""", arg=notebook, timeout=START_MS)
        kernel = self.page.evaluate("""() => {
            const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
            return {id: k.id, name: k.name}; }""")
        assert kernel == (self.kernel or kernel), f"{notebook} has a kernel of its own"
        self.kernel = kernel
        self.page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
        panel = self.panel()
        self.page.wait_for_selector(f"{panel} .leyline .ll-grid", timeout=START_MS)
        self.times[notebook + (" again" if notebook in self.times else "")] = \
            time.perf_counter() - started
        done = self.page.wait_for_function("""() => {
            const w = window.jupyterapp.shell.currentWidget;
            const cells = w.content.widgets.filter((c) => c.model.type === 'code');
            for (const c of cells) {
                const bad = c.model.outputs.toJSON().find((o) => o.output_type === 'error');
                if (bad) return 'error: ' + bad.ename + ': ' + bad.evalue;
            }
            const left = cells.filter((c) => !c.model.executionCount).length;
            return left === 0 && w.sessionContext.session.kernel.status === 'idle' ? 'ok' : '';
        }""", timeout=START_MS).json_value()
        assert done == "ok", f"{notebook}: {done}"
        return self.page.locator(panel)

    def python(self, code: str) -> Any:
        """Run ``code`` in the shared kernel; the JSON its last line prints."""
        text = self.page.evaluate("""async (code) => {
            const k = window.jupyterapp.shell.currentWidget.sessionContext.session.kernel;
            const future = k.requestExecute({code, store_history: false});
            let out = '';
            future.onIOPub = (m) => {
                if (m.header.msg_type === 'stream') out += m.content.text;
                if (m.header.msg_type === 'error') out += m.content.ename + ': ' + m.content.evalue;
            };
            await future.done;
            return out; }""", code)
        return json.loads(text.strip().splitlines()[-1])

    def shot(self, target: Any, name: str) -> None:
        """The page as the player sees it, ``target`` scrolled into view."""
        target.scroll_into_view_if_needed()
        self.page.screenshot(path=str(self.out / name))


PROBE = """() => {
    fetch('http://probe.invalid/page').catch(() => 0);
    const code = "fetch('http://probe.invalid/worker').catch(() => 0)";
    new Worker(URL.createObjectURL(new Blob([code], {type: 'text/javascript'})));
}"""


@pytest.fixture(scope="module")
def lite(served: str) -> Iterator[Lite]:
    require_chromium()
    from playwright.sync_api import sync_playwright

    out = output_path("lite")
    netlog = out / "netlog.json"
    # Chromium resolves no host but 127.0.0.1, so workers and the service worker cannot reach
    # out either, whatever Playwright's route sees; its network log shows what they asked for.
    args = [*CHROMIUM_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
            f"--log-net-log={netlog}"]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=args)
        context = browser.new_context(viewport={"width": 1200, "height": 1400})
        page = context.new_page()
        it = Lite(page, served, out)
        page.on("pageerror", lambda e: it.errors.append(str(e)))
        it.refused = local_only(page, served)
        try:
            yield it
            if os.environ.get("LEYLINE_LITE_WARM") == "1":
                # Warm: the same browser (its cache and compiled code) opens the site again.
                it.kernel = {}
                it.open("01_play.ipynb")
            # The guard itself: a request from the page and one from a worker are refused.
            page.evaluate(PROBE)
            for _ in range(100):
                if len(it.refused) >= 2:
                    break
                page.wait_for_timeout(100)
        finally:
            browser.close()
    first = ", ".join(f"{name} {s:.1f} s" for name, s in it.times.items())
    print(f"\nlite: opening to first board: {first}")
    assert _outside(netlog) == [], f"the site asked other hosts: {_outside(netlog)}"
    assert sorted(it.refused) == ["http://probe.invalid/page", "http://probe.invalid/worker"], \
        it.refused[:5]
    assert not [e for e in it.errors if re.search("leyline|anywidget", e, re.I)], it.errors[:5]


def _outside(netlog: Path) -> list[str]:
    """The hosts other than 127.0.0.1 that a page, worker or service worker of the site asked
    for, from Chromium's network log (Chromium's own updater, sign-in and autofill requests,
    which no page starts, are not the site's)."""
    log = json.loads(netlog.read_text("utf-8"))
    start = log["constants"]["logEventTypes"]["URL_REQUEST_START_JOB"]
    hosts = set()
    for event in log["events"]:
        params = event.get("params") or {}
        if event["type"] == start and "url" in params \
                and params.get("initiator") != "not an origin":
            hosts.add(re.sub(r"^([a-z]+://[^/]*).*", r"\1", params.get("url", "")))
    return sorted(h for h in hosts if not re.match(r"(https?|wss?)://127\.0\.0\.1(:|$)", h))


# -- a player who remembers what the page showed ----------------------------------------------

#: Every element the page shows on a card (the deal, a refill's glimpse, an activated card) is
#: noted by slot as it appears; an emptied slot is forgotten.
REMEMBER = """(el) => {
    const seen = el.llSeen = {};
    const look = () => el.querySelectorAll('[data-act=card]').forEach((c) => {
        if (c.dataset.card === 'empty') delete seen[c.dataset.slot];
        else if (c.dataset.element) seen[c.dataset.slot] = c.dataset.element;
    });
    look();
    new MutationObserver(look).observe(el, {subtree: true, childList: true, attributes: true});
}"""


def _choose(state: dict[str, Any], seen: dict[str, str]) -> str:
    """The next click of the short game: a selector inside the board."""
    phase = state["phase"]
    if phase == "abilities":
        return "[data-act=no-power]"
    if phase == "refill":
        return "[data-act=refill-all]"
    if phase != "activation":
        return "[data-act=end]"
    cards = state["cards"]
    active = Counter(seen.get(str(c["slot"])) for c in cards if c["card"] == "active")
    if any(n >= 2 for n in active.values()) or "no activations left" in state["prompt"]:
        return "[data-act=end]"  # Collect
    inert = {c["slot"]: seen.get(str(c["slot"])) for c in cards if c["card"] == "inert"}
    known = Counter(e for e in inert.values() if e)
    pick = next((s for s, e in inert.items() if e in active), None)  # the activated one's pair
    if pick is None and not active:
        pick = next((s for s, e in inert.items() if e and known[e] >= 2), None)
    if pick is None:
        pick = next((s for s, e in inert.items() if e is None), None)  # look at a new card
    return "[data-act=end]" if pick is None else f"[data-act=card][data-slot='{pick}']"


def test_a_whole_short_game_by_clicking(lite: Lite) -> None:
    panel = lite.open("01_play.ipynb")
    board = panel.locator(".leyline").first
    board.scroll_into_view_if_needed()  # cells out of view are not laid out (no innerText)
    text = board.text_content() or ""
    assert "NaN" not in text and "undefined" not in text, text[:400]
    assert "Set-up" in text
    lite.shot(board, "01-play-opened.png")
    board.evaluate(REMEMBER)
    board.locator("[data-act=deal-ready]").click()
    lite.page.wait_for_function("(el) => el.dataset.deal === 'none'",
                                arg=board.element_handle(), timeout=ANSWER_MS)
    clicks = 0
    while not widget_state(board)["over"]:
        assert clicks < 80, widget_state(board)
        state = widget_state(board)
        assert not state["error"], state["error"]
        click_and_wait(lite.page, board, board.locator(_choose(state, board.evaluate(
            "(el) => el.llSeen"))), timeout=ANSWER_MS)
        clicks += 1
    board.locator(".ll-over").wait_for()
    lite.page.wait_for_timeout(1000)  # the last collection's flight to the Study is over
    lite.shot(board, "02-short-game-over.png")
    game = lite.python("import json; print(json.dumps([short.game.end_reason, short.game.turn, "
                       "short.game.scores()]))")
    print(f"\nlite: the short game took {clicks} clicks: {game}")
    assert game[0] == "deck" and game[2][0] >= 8, game  # four collections of a pair at least
    text = board.text_content() or ""
    assert "Game over" in text and "NaN" not in text and "undefined" not in text


def test_the_first_lesson_is_finished(lite: Lite) -> None:
    panel = lite.open("lessons.ipynb")
    lesson = panel.locator(".ll-lesson").first
    board = panel.locator(".ll-lessonboard .leyline").first
    assert lesson.get_attribute("data-lesson") == "activate-collect"
    for target in (board.locator("[data-act=card][data-slot='1']"),
                   lesson.locator("[data-act=lesson-next]"),
                   board.locator("[data-act=card][data-slot='6']"),
                   lesson.locator("[data-act=lesson-next]"),
                   board.locator("[data-act=end]")):  # Collect
        click_and_wait(lite.page, lesson, target, timeout=ANSWER_MS)
    feedback = lesson.locator("[role=status]").text_content() or ""
    assert lesson.get_attribute("data-status") == "done", feedback
    assert feedback.startswith("Lesson complete"), feedback
    lite.shot(lesson, "03-lesson-done.png")


def _wait_step(lite: Lite, root: Any, step: int) -> None:
    lite.page.wait_for_function("([el, s]) => Number(el.dataset.step) === s",
                                arg=[root.element_handle(), step], timeout=ANSWER_MS)


def test_a_replay_is_stepped(lite: Lite) -> None:
    panel = lite.open("03_annotate_replay.ipynb")
    root = panel.locator(".leyline.ll-replay").first
    start = int(root.get_attribute("data-step") or 0)
    root.locator("[data-act=forward]").click()
    _wait_step(lite, root, start + 1)
    root.locator("[data-act=forward]").focus()
    lite.page.keyboard.press("ArrowRight")
    _wait_step(lite, root, start + 2)
    assert lite.python("print(r.step)") == start + 2  # the kernel follows the page
    assert f"Step {start + 2} /" in (root.locator(".ll-stepof").text_content() or "")
    lite.shot(root.locator(".ll-transport"), "04-replay-stepped.png")
    # The viewer follows the kernel both ways: a seat, then the teacher's view again. Pyodide
    # hands the page a Python None as undefined, which JSON drops: the update must still come.
    for code, shown in (("r.viewer = 0", "0"), ("r.viewer = None", "all")):
        lite.python(code + "; print(1)")
        lite.page.wait_for_function("([el, v]) => el.dataset.viewer === v",
                                    arg=[root.element_handle(), shown], timeout=ANSWER_MS)


def test_analyse_shows_its_progress(lite: Lite) -> None:
    panel = lite.open("coach.ipynb")
    root = panel.locator(".leyline.ll-replay").first
    root.locator("[data-act=analyse]").click()
    bar = root.locator(".ll-analyseprogress")
    lite.page.wait_for_function("(el) => { const b = el.querySelector('.ll-analyseprogress');"
                                " return b && b.value >= 1 && b.value < b.max; }",
                                arg=root.element_handle(), timeout=ANSWER_MS)
    lite.shot(root.locator(".ll-analyse"), "05-analysing.png")  # the bar part-way
    assert root.locator("[data-act=analyse-cancel]").count() == 1
    lite.page.wait_for_function(
        "(el) => (el.querySelector('.ll-analyse') || {}).textContent.includes('analysed')",
        arg=root.element_handle(), timeout=START_MS)
    total = int(bar.get_attribute("max") or 0)
    assert total > 0 and int(bar.evaluate("(b) => b.value")) == total
    review = lite.python("import json; print(json.dumps([coach.analysis_progress['done'], "
                         "len(coach.replay.analysis(0)['moves'])]))")
    assert review == [total, total], review
    assert root.locator(".ll-evalgraph .ll-gpoint").count() == total
    lite.shot(root.locator(".ll-evalgraph"), "06-analysed.png")
