"""The soak (benchmarks/soak.py) runs clean, and its scanner does find a leak when there is one."""

from __future__ import annotations

import pytest

from benchmarks.soak import soak


def test_a_few_soak_games_are_clean() -> None:
    t = soak(4)
    assert t.games == 4 and t.messages > 50 and t.scanned > 50
    assert not t.leaks and not t.accepted and not t.escaped, (t.leaks + t.accepted + t.escaped)
    assert t.resumed >= 1 and not t.differ, t.differ   # games 0, 2 and 3 lose their kernel


def test_the_soak_finds_a_move_that_was_not_saved(monkeypatch: pytest.MonkeyPatch) -> None:
    from leyline_widget.replays.saves import Journal

    monkeypatch.setattr(Journal, "moved", lambda self, action, game: None)
    t = soak(1)   # game 0 loses its kernel at step 7: its resumed game is at step 0
    assert t.resumed == 1 and any("resumed game's step differs" in d for d in t.differ)


def test_the_scanner_finds_a_leaky_filter(monkeypatch: pytest.MonkeyPatch) -> None:
    import leyline_widget.widgets.play as play

    monkeypatch.setattr(play, "visible_events", lambda events, seat: list(events))
    t = soak(12)
    assert t.leaks, "an events filter that shows everything must be caught"
