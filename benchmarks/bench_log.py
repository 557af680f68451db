"""The cost of one click late in a long turn (issue 26): ``python -m benchmarks log``.

Under the seed's refund a player may activate and deactivate a card for as long as they like,
so one turn can hold thousands of actions. Each click must cost the same at action 4,000 as
at action 250: the game log (:class:`~leyline_widget.widgets.presenters.GameLog`) reads each
step's events once and words only the turn's lines, and the autosave appends one line.

Prints, at action 250 and 4,000 of one turn (activate/deactivate slot 3, and the same
alternating between two slots), the median cost per click of the game log's update alone
and of a whole click through the widget (message in, move applied, saved, every synced trait
rebuilt), with autosave off and on, and the ratio of the late figure to the early one (flat:
close to 1). Same-run ratios; never an assertion.
"""

from __future__ import annotations

import os
import statistics
import tempfile
import time
from collections.abc import Callable

from leyline_widget import Activate, Deactivate, Game
from leyline_widget.widgets.play import LeylineWidget
from leyline_widget.widgets.presenters import GameLog

POINTS = (250, 4000)
SAMPLE = 41  # clicks timed around each point


def _loop(slots: tuple[int, ...]) -> Callable[[int], dict[str, object]]:
    """The i-th click of the turn: activate, then deactivate, each slot of ``slots`` in turn."""
    def click(i: int) -> dict[str, object]:
        slot = slots[(i // 2) % len(slots)]
        return (Activate(slot) if i % 2 == 0 else Deactivate(slot)).to_dict()
    return click


def log_cost(slots: tuple[int, ...]) -> dict[int, float]:
    """Median ms of ``GameLog.update`` per click, at each point of one long turn."""
    game = Game.new(players=["Ada"], seed=1)
    log = GameLog(0)
    click = _loop(slots)
    out: dict[int, float] = {}
    i = 0
    for point in POINTS:
        while i < point:
            game.apply(Activate.from_dict(click(i)))
            log.update(game)
            i += 1
        times = []
        for _ in range(SAMPLE):
            game.apply(Activate.from_dict(click(i)))
            start = time.perf_counter()
            log.update(game)
            times.append(time.perf_counter() - start)
            i += 1
        out[point] = statistics.median(times) * 1000
    return out


def click_cost(slots: tuple[int, ...], autosave: bool) -> dict[int, float]:
    """Median ms per whole widget click (as the page sends it), at each point of one turn."""
    w = LeylineWidget(players=["Ada"], seed=1, deal_ms=0, reveal_ms=0, autosave=autosave)
    click = _loop(slots)
    out: dict[int, float] = {}
    i = 0
    for point in POINTS:
        while i < point:
            w.send_message({"type": "action", "action": click(i)})
            i += 1
        times = []
        for _ in range(SAMPLE):
            start = time.perf_counter()
            w.send_message({"type": "action", "action": click(i)})
            times.append(time.perf_counter() - start)
            i += 1
        assert not w.error, w.error
        out[point] = statistics.median(times) * 1000
    w.close()
    return out


def main() -> None:
    with tempfile.TemporaryDirectory() as home:
        os.environ["LEYLINE_HOME"] = home  # the autosaves of this run, never the user's
        rows: list[tuple[str, dict[int, float]]] = []
        for name, slots in (("one slot", (3,)), ("two slots", (3, 4))):
            rows.append((f"game log update, {name}", log_cost(slots)))
            rows.append((f"widget click, {name}, autosave off", click_cost(slots, False)))
            rows.append((f"widget click, {name}, autosave on", click_cost(slots, True)))
    early, late = POINTS
    print(f"one long turn of activate/deactivate: median ms per click ({SAMPLE} clicks) "
          f"at action {early} and {late}")
    for label, cost in rows:
        print(f"  {label:44s} {cost[early]:7.3f} ms  {cost[late]:7.3f} ms  "
              f"ratio {cost[late] / cost[early]:5.2f}")


if __name__ == "__main__":
    main()
