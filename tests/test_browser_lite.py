"""The in-browser site (``leyline lite``): JupyterLite and the Pyodide kernel, offline.

The site is built by ``./dev test-lite`` (``LEYLINE_LITE_SITE`` names it; without it this test
is skipped: building needs PyPI, npm and minutes, so it is not part of ``./dev test``), served on
127.0.0.1, and opened in one Chromium session in which every request to anywhere else is
refused (a Playwright route, and Chromium resolves no other host name). In it the play
notebook runs, its log reads "Set-up" (not "Player NaN"), and a turn is played by clicking.
(Not yet driven here: a whole game, a lesson, a replay and the coach's stepped analysis; a
click costs about a second in the browser's Python, so a whole game took over 15 minutes.)
Screenshots go to test-output/; the times to the first board are printed (cold: a fresh
browser cache; warm: the same context opened again).
"""

from __future__ import annotations

import functools
import os
import re
import threading
import time
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any, ClassVar

import pytest
from browser_support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    free_port,
    local_only,
    output_path,
    play_turn_step,
    require_chromium,
    widget_state,
)

pytestmark = [pytest.mark.browser, pytest.mark.slow]


class _Files(SimpleHTTPRequestHandler):
    """A static host, as GitHub Pages or any web server would be (module scripts and wasm
    need their types)."""

    extensions_map: ClassVar[dict[str, str]] = {
                      **SimpleHTTPRequestHandler.extensions_map, ".mjs": "text/javascript",
                      ".js": "text/javascript", ".wasm": "application/wasm",
                      ".json": "application/json"}

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def site() -> Path:
    given = os.environ.get("LEYLINE_LITE_SITE")
    if not given:
        # Building needs PyPI and npm and minutes: ./dev test-lite builds it, then runs this.
        pytest.skip("no site to open: run ./dev test-lite (LEYLINE_LITE_SITE names a site)")
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


def _wait_idle(page: Any, timeout: float = 240_000) -> None:
    page.wait_for_function("""() => {
        const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
        const k = w && w.sessionContext && w.sessionContext.session
            && w.sessionContext.session.kernel;
        return !!k && k.status === 'idle';
    }""", timeout=timeout)


def _open(page: Any, origin: str, notebook: str) -> float:
    """Open ``notebook``, run every cell, wait for the first board; seconds from opening."""
    started = time.perf_counter()
    page.goto(f"{origin}/lab/index.html?path={notebook}")
    page.wait_for_selector(".jp-Notebook", timeout=120_000)
    _wait_idle(page)
    page.evaluate("() => window.jupyterapp.commands.execute('notebook:run-all-cells')")
    page.wait_for_selector(".leyline .ll-grid", timeout=300_000)
    seconds = time.perf_counter() - started
    _wait_idle(page)
    return seconds


def _close_all(page: Any) -> None:
    page.evaluate("() => window.jupyterapp.commands.execute('application:close-all')")
    page.wait_for_timeout(500)
    for label in ("Discard", "Don't Save", "Close"):
        button = page.locator(".jp-Dialog-button", has_text=label)
        if button.count():
            button.first.click()


def test_the_site_plays_offline(site: Path, served: str) -> None:
    require_chromium()
    from playwright.sync_api import sync_playwright

    out = output_path("lite")
    # Chromium resolves no host but 127.0.0.1: workers and the service worker cannot reach out
    # either, whatever Playwright's route sees.
    args = [*CHROMIUM_ARGS, "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1"]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=args)
        context = browser.new_context(viewport={"width": 1200, "height": 900})
        page = context.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        refused = local_only(page, served)

        # -- play: the notebook runs, a whole solo game by clicking -----------------------
        cold = _open(page, served, "01_play.ipynb")
        solo = page.locator(".leyline").first
        solo.scroll_into_view_if_needed()
        page.screenshot(path=str(out / "01-play-opened.png"))
        text = solo.inner_text()
        assert "NaN" not in text and "undefined" not in text, text[:400]
        assert "Set-up" in text
        # A turn by clicking: the kernel in the browser answers each click.
        solo.locator("[data-act=deal-ready]").click()
        page.wait_for_function("(el) => el.dataset.deal === 'none'", arg=solo.element_handle(),
                               timeout=60_000)
        clicked: list[int] = []
        for _ in range(8):
            play_turn_step(page, solo, clicked)
            if widget_state(solo)["turn"] >= 2:
                break
        assert widget_state(solo)["turn"] >= 2, widget_state(solo)
        solo.scroll_into_view_if_needed()
        page.screenshot(path=str(out / "02-turn-two.png"))
        assert "NaN" not in solo.inner_text()
        _close_all(page)

        # -- warm: the same browser opens the site again ----------------------------------
        warm = _open(page, served, "01_play.ipynb")
        browser.close()
    print(f"lite: first board {cold:.1f} s cold, {warm:.1f} s warm")
    assert refused == [], refused[:5]
    assert not [e for e in errors if re.search("leyline|anywidget", e, re.I)], errors[:5]
