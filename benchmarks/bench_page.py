"""The offline replay page stays responsive on a long replay: frame times in real Chromium while
seeking by the slider and scrolling the move list of a 2,000-step replay, against the same
gestures on a 200-step replay (the baseline, same run).

Frame time is the gap between animation frames (requestAnimationFrame) while the gesture runs:
60 fps is 16.7 ms, and a frame is a multiple of it, so a seek's *work* is also timed: from the
slider's input event through the repaint to a laid-out page (style and layout forced), which
does not round up to the next frame. Seeking sets the slider and fires its input event once per
frame, as a drag does; scrolling moves the move list 40 px per frame. The pages take turns for
``ROUNDS`` rounds and each figure is the best round's (the machine is shared: other work only
ever adds time). A seek's parts come last: thread CPU time per seek, from a Chromium trace of
one more pass of the seek gesture (script, style, layout, pre-paint and paint of the page's
main thread; CPU time, so another process's load barely moves it). Needs /usr/bin/chromium
and Playwright (``./dev setup``); prints a note and returns when they are missing.
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
ROUNDS = 5
LONG_FRAME_MS = 50.0

_GESTURE = """async ([kind, frames]) => {
  const root = () => document.querySelector('.leyline');
  const slider = root().querySelector('[data-act=scrub]');
  const last = Number(slider.max);
  const times = [];
  const work = [];
  let prev = performance.now();
  for (let i = 0; i < frames; i++) {
    if (kind === 'seek') {
      const t0 = performance.now();
      const s = root().querySelector('[data-act=scrub]');
      s.value = String(Math.round((i * 7919) % (last + 1)));
      s.dispatchEvent(new Event('input', { bubbles: true }));
      await Promise.resolve(); // the repaint is queued as a microtask: it has run now
      void root().offsetHeight; // and the browser has laid the page out
      work.push(performance.now() - t0);
    } else {
      const list = root().querySelector('.ll-movelist');
      list.scrollTop = (i * 40) % Math.max(1, list.scrollHeight - list.clientHeight);
    }
    await new Promise((r) => requestAnimationFrame(r));
    const now = performance.now();
    times.push(now - prev);
    prev = now;
  }
  return [times, work];
}"""


def _gesture(page: Any, kind: str) -> dict[str, float]:
    times, work = page.evaluate(_GESTURE, [kind, FRAMES])
    times = sorted(times[5:])  # the first frames warm up
    out = {"median": statistics.median(times), "p95": times[int(len(times) * 0.95)],
           "worst": times[-1], "long": float(sum(t > LONG_FRAME_MS for t in times))}
    if work:
        out["work"] = statistics.median(work[5:])
    return out


#: The main-thread trace events of a seek's parts (devtools.timeline): the script, and the
#: style and layout it forces or the frame runs, pre-paint and paint.
_PARTS = {"style": "UpdateLayoutTree", "layout": "Layout", "pre-paint": "PrePaint",
          "paint": "Paint"}


def _parts(page: Any, seeks: int = 40) -> dict[str, float]:
    """Thread CPU ms per seek of each part (script: its own time, less the style and layout
    it forced), from a trace of ``seeks`` seeks."""
    cdp = page.context.new_cdp_session(page)
    events: list[dict[str, Any]] = []
    done: list[bool] = []
    cdp.on("Tracing.dataCollected", lambda p: events.extend(p["value"]))
    cdp.on("Tracing.tracingComplete", lambda p: done.append(True))
    cdp.send("Tracing.start", {"traceConfig": {"includedCategories": ["devtools.timeline"]}})
    page.evaluate(_GESTURE, ["seek", seeks])
    cdp.send("Tracing.end")
    while not done:
        page.wait_for_timeout(50)
    cdp.detach()
    spans = [e for e in events if e.get("ph") == "X" and "tdur" in e]
    out = {part: sum(e["tdur"] for e in spans if e["name"] == name) / 1000 / seeks
           for part, name in _PARTS.items()}
    calls = [e for e in spans if e["name"] == "FunctionCall"]
    forced = sum(e["tdur"] for e in spans if e["name"] in ("UpdateLayoutTree", "Layout") and any(
        c["tid"] == e["tid"] and c["ts"] <= e["ts"] < c["ts"] + c["dur"] for c in calls))
    out["script"] = (sum(e["tdur"] for e in calls) - forced) / 1000 / seeks
    return out


def _best(rounds: list[dict[str, float]]) -> dict[str, float]:
    return {k: min(r[k] for r in rounds) for k in rounds[0]}


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
    sizes = (200, 2_000)
    paths = {}
    for steps in sizes:
        replay = Replay.from_game(long_game(steps))
        paths[steps] = replay_html(replay, folder / f"r{steps}.html")
        print(f"page of {steps:5,} steps: {paths[steps].stat().st_size / 1024:8.0f} KiB")
    figures: dict[tuple[int, str], list[dict[str, float]]] = {}
    parts: dict[int, list[dict[str, float]]] = {}
    with chromium() as browser:
        pages = {}
        for steps in sizes:
            page = new_page(browser, width=1200, height=1000)
            page.goto(paths[steps].resolve().as_uri())
            page.wait_for_selector(".leyline.ll-replay .ll-grid", timeout=60_000)
            pages[steps] = page
        for _ in range(ROUNDS):
            for steps in sizes:
                pages[steps].bring_to_front()
                for kind in ("seek", "scroll"):
                    figures.setdefault((steps, kind), []).append(_gesture(pages[steps], kind))
        for _ in range(2):
            for steps in sizes:
                pages[steps].bring_to_front()
                parts.setdefault(steps, []).append(_parts(pages[steps]))
    base = sizes[0]
    for kind in ("seek", "scroll"):
        for steps in sizes:
            f = _best(figures[(steps, kind)])
            b = _best(figures[(base, kind)])
            work = (f"; work {f['work']:5.1f} ms a seek ({f['work'] / b['work']:.2f}x the "
                    f"{base}-step page)") if "work" in f else ""
            print(f"{steps:5,} steps, {kind:6}: frame {f['median']:5.1f} ms median "
                  f"({f['median'] / b['median']:.2f}x the {base}-step page), {f['p95']:5.1f} ms "
                  f"95th percentile, {f['worst']:6.1f} ms worst, {int(f['long'])} frames over "
                  f"{LONG_FRAME_MS:.0f} ms{work}")
    print(f"(best of {ROUNDS} rounds, {FRAMES} frames each; the pages take turns)")
    for steps in sizes:
        p = _best(parts[steps])
        print(f"{steps:5,} steps, a seek's parts (thread CPU ms, best of 2 traced passes): " +
              ", ".join(f"{k} {p[k]:.2f}" for k in ("script", *_PARTS)))


if __name__ == "__main__":
    main()
