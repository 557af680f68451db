"""The soak (benchmarks/soak.py) runs clean, and its scanner does find a leak when there is one."""

from __future__ import annotations

import pytest

from benchmarks.soak import soak


def test_a_few_soak_games_are_clean() -> None:
    t = soak(4)
    assert t.games == 4 and t.messages > 50 and t.scanned > 50
    assert not t.leaks and not t.accepted and not t.escaped, (t.leaks + t.accepted + t.escaped)


def test_the_scanner_finds_a_leaky_filter(monkeypatch: pytest.MonkeyPatch) -> None:
    import leyline_widget.widgets.play as play

    monkeypatch.setattr(play, "visible_events", lambda events, seat: list(events))
    t = soak(12)
    assert t.leaks, "an events filter that shows everything must be caught"
