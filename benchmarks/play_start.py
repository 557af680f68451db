"""Time from ``./dev play`` to the first board, on a fresh clone (no .venv).

``python -m benchmarks.play_start [REPO]`` clones REPO's committed HEAD (default: this
repository) into a temporary folder, runs ``./dev play --no-browser --port P ...`` there (the
options go on to JupyterLab), opens ``examples/01_play.ipynb`` in headless Chromium as a player
would, runs its cells (Run > Run All Cells) and stops the clock when the first board's grid is
drawn. It prints the time to the server answering (the install and JupyterLab's start), to the
notebook's kernel ready, and to the first board, and saves a screenshot of that board in
test-output/play_start.png. Package caches (pip's, uv's) are the machine's, as a player's
second clone would find them; JupyterLab's settings, workspaces and runtime files and the
saved games go to the temporary folder. One run, wall-clock: on a shared machine other work
only ever adds time. Needs /usr/bin/chromium and Playwright in the running Python
(``./dev setup``).
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from datetime import datetime
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
OUTPUT = REPO / "test-output"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-dev-shm-usage"]
#: Longest wait for any one stage (a cold install on a slow network takes minutes).
STAGE_S = 900


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_up(url: str, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + STAGE_S
    while True:
        if process.poll() is not None:
            raise RuntimeError(f"./dev play exited: {log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=5) as r:
                json.loads(r.read())
            return
        except OSError:
            if time.monotonic() > deadline:
                tail = log.read_text()[-3000:]
                raise TimeoutError(f"no server after {STAGE_S} s: {tail}") from None
            time.sleep(0.2)


def measure(repo: Path) -> dict[str, float]:
    """Seconds from ``./dev play`` to: the server up, the kernel ready, the first board."""
    from playwright.sync_api import sync_playwright

    base = Path(tempfile.mkdtemp(prefix="leyline-play-start-"))
    clone = base / "clone"
    subprocess.run(["git", "clone", "--quiet", str(repo), str(clone)], check=True)
    assert not (clone / ".venv").exists()
    port, token = _free_port(), os.urandom(12).hex()
    env = {**os.environ, "JUPYTER_RUNTIME_DIR": str(base / "runtime"),
           "JUPYTERLAB_WORKSPACES_DIR": str(base / "workspaces"),
           "LEYLINE_HOME": str(base / "games"), "PYTHONUNBUFFERED": "1"}
    for name in ("VIRTUAL_ENV", "PYTHONPATH"):  # the clone's own venv, nothing of ours
        env.pop(name, None)
    env["PATH"] = os.pathsep.join(p for p in env["PATH"].split(os.pathsep)
                                  if not p.startswith(str(REPO)))
    log = base / "dev-play.log"
    command = ["./dev", "play", "--no-browser", "--port", str(port),
               "--ServerApp.port_retries=0", f"--IdentityProvider.token={token}",
               "--LabApp.expose_app_in_browser=True", "--LabApp.news_url="]
    times: dict[str, float] = {}
    with log.open("wb") as sink:
        start, wall = time.monotonic(), time.time()
        process = subprocess.Popen(command, cwd=clone, env=env, stdout=sink,
                                   stderr=subprocess.STDOUT, start_new_session=True)
    try:
        url = f"http://127.0.0.1:{port}"
        _wait_up(f"{url}/api/status?token={token}", process, log)
        times["server up"] = time.monotonic() - start
        # JupyterLab's first log line: the install (venv, uv or pip) was over by then.
        first = next(line for line in log.read_text().splitlines() if line.startswith("[I "))
        stamp = datetime.strptime(first[3:26], "%Y-%m-%d %H:%M:%S.%f").timestamp()
        times = {"installed": stamp - wall, **times}
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium", headless=True,
                                         args=CHROMIUM_ARGS)
            page = browser.new_page(viewport={"width": 1280, "height": 800})
            # Given a notebook, JupyterLab serves its folder (examples/).
            page.goto(f"{url}/lab/tree/01_play.ipynb?token={token}")
            page.wait_for_function("""() => {
                const w = window.jupyterapp && window.jupyterapp.shell.currentWidget;
                const k = w && w.sessionContext && w.sessionContext.session
                    && w.sessionContext.session.kernel;
                return !!k && k.connectionStatus === 'connected' && k.status === 'idle';
            }""", timeout=STAGE_S * 1000)
            times["kernel ready"] = time.monotonic() - start
            page.locator(".lm-MenuBar-itemLabel", has_text="Run").first.click()
            page.locator(".lm-Menu-itemLabel", has_text="Run All Cells").first.click()
            page.wait_for_selector(".leyline .ll-grid", timeout=STAGE_S * 1000)
            times["first board"] = time.monotonic() - start
            OUTPUT.mkdir(exist_ok=True)
            page.locator(".leyline").first.screenshot(path=str(OUTPUT / "play_start.png"))
            browser.close()
        # uv says "Installed 95 packages in 2.1s"; pip "Successfully installed ...".
        installed = (clone / ".venv" / "pip-play.log").read_text()
        times["uv"] = float("Successfully installed" not in installed)
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGTERM)
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=15)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        subprocess.run(["rm", "-rf", str(base)], check=False)
    return times


def main(argv: list[str]) -> int:
    repo = Path(argv[0]).resolve() if argv else REPO
    times = measure(repo)
    uv = times.pop("uv")
    print(f"./dev play on a fresh clone of {repo} ({'uv' if uv else 'pip'} installed; "
          f"load {os.getloadavg()[0]:.1f}):")
    for stage, seconds in times.items():
        print(f"  {stage:13} {seconds:6.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
