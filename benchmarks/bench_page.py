"""The offline replay page stays responsive on a long replay: frame times in real Chromium while
seeking by the slider and scrolling the move list of a 2,000-step replay, against the same
gestures on a 200-step replay (the baseline, same run).

Frame time is the gap between animation frames (requestAnimationFrame) while the gesture runs:
60 fps is 16.7 ms. Seeking sets the slider and fires its input event once per frame, as a drag
does; scrolling moves the move list 40 px per frame. Needs /usr/bin/chromium and Playwright
(``./dev setup``); prints a note and returns when they are missing.
"""

from __future__ import annotations

import statistics
import sys
import tempfile
from pathlib import Path
from typing import Any

from leyline_widget import replay_html

from .bench_replay import long_game

FRAMES = 120

_GESTURE = """async ([kind, frames]) => {
  const root = document.querySelector('.leyline');
  const slider = root.querySelector('[data-act=scrub]');
  const last = Number(slider.max);
  const times = [];
  let prev = performance.now();
  for (let i = 0; i < frames; i++) {
    if (kind === 'seek') {
      const s = root.querySelector('[data-act=scrub]');
      s.value = String(Math.round((i * 7919) % (last + 1)));
      s.dispatchEvent(new Event('input', { bubbles: true }));
    } else {
      const list = root.querySelector('.ll-movelist');
      list.scrollTop = (i * 40) % Math.max(1, list.scrollHeight - list.clientHeight);
    }
    await new Promise((r) => requestAnimationFrame(r));
    const now = performance.now();
    times.push(now - prev);
    prev = now;
  }
  return times;
}"""


def _figures(page: Any, kind: str) -> tuple[float, float, float]:
    times = sorted(page.evaluate(_GESTURE, [kind, FRAMES])[5:])  # the first frames warm up
    return statistics.median(times), times[int(len(times) * 0.95)], times[-1]


def main() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
    try:
        from browser_support import CHROMIUM, chromium, new_page
    except ImportError as err:
        print(f"page benchmark skipped: {err}")
        return
    if not Path(CHROMIUM).exists():
        print(f"page benchmark skipped: no {CHROMIUM}")
        return
    from leyline_widget import Replay

    folder = Path(tempfile.mkdtemp())
    pages = {}
    for steps in (200, 2_000):
        replay = Replay.from_game(long_game(steps))
        pages[steps] = replay_html(replay, folder / f"r{steps}.html")
        print(f"page of {steps:5,} steps: {pages[steps].stat().st_size / 1024:8.0f} KiB")
    with chromium() as browser:
        for steps, path in pages.items():
            page = new_page(browser, width=1200, height=1000)
            page.goto(path.resolve().as_uri())
            page.wait_for_selector(".leyline.ll-replay .ll-grid", timeout=60_000)
            for kind in ("seek", "scroll"):
                median, p95, worst = _figures(page, kind)
                print(f"{steps:5,} steps, {kind:6}: frame {median:6.1f} ms median, "
                      f"{p95:6.1f} ms 95th percentile, {worst:6.1f} ms worst")
            page.context.close()


if __name__ == "__main__":
    main()
