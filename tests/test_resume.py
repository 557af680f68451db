"""Nothing lost (issue 26): autosave and resume, one game in many views, and nothing private left
behind in synced state or offline pages. Every test runs under its own LEYLINE_HOME (conftest)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import platformdirs
import pytest

from leyline_widget import (
    Activate,
    Deactivate,
    EndPhase,
    Game,
    LeylineWidget,
    Replay,
    Rules,
    UsePower,
    saved_games,
)
from leyline_widget.replays import saves
from leyline_widget.replays.saves import SaveError
from leyline_widget.widgets import together


def kernel_lost() -> None:
    """What a kernel restart does to the widgets' registry: this process forgets every game
    it was showing (the files on disk stay)."""
    together._TABLES.clear()
    together._SAVES.clear()


def same_log(a: LeylineWidget, b: LeylineWidget) -> bool:
    """The same game log on both boards (``recent`` only says what travelled when)."""
    def words(w: LeylineWidget) -> object:
        return [*w.log_past, *w.log["turns"]], w.log["marks"], w.log["turns_played"]
    return words(a) == words(b)


def journal_lines(w: LeylineWidget) -> list[str]:
    journal = w._table.journal
    assert journal is not None
    return journal.path.read_text("utf-8").splitlines()


def test_the_whole_suite_saves_into_a_temporary_folder_never_the_users() -> None:
    home = Path(os.environ["LEYLINE_HOME"])
    assert saves.games_folder() == home / "games"
    user = Path(platformdirs.user_data_dir("leyline_widget", appauthor=False))
    assert user not in home.parents and home != user


def test_each_accepted_move_is_on_disk_when_the_widget_shows_it() -> None:
    w = LeylineWidget(players=["Ada"], seed=3, deal_ms=0)
    assert len(journal_lines(w)) == 1   # the game's start
    w.play(Activate(0))
    assert len(journal_lines(w)) == 2
    assert json.loads(journal_lines(w)[-1]) == {"step": 0, "action": {"type": "activate",
                                                                      "slot": 0}}
    w.send_message({"type": "action", "action": {"type": "activate", "slot": 99}})
    assert w.error and len(journal_lines(w)) == 2   # a refused move saves nothing
    w.send_message({"type": "action", "action": {"type": "activate", "slot": 1}})
    assert len(journal_lines(w)) == 3 and not w.error
    [entry] = saved_games()
    assert (entry.players, entry.step, entry.finished, entry.error) == (("Ada",), 2, False, "")


def test_autosave_false_saves_nothing() -> None:
    w = LeylineWidget(players=["Ada", "greedy"], seed=3, deal_ms=0, autosave=False)
    w.play(EndPhase())
    w.play(EndPhase())
    w.step_bots()
    assert saved_games() == [] and not saves.games_folder().exists()
    with pytest.raises(ValueError, match="autosave must be True or False"):
        LeylineWidget(players=1, autosave=1)  # type: ignore[arg-type]


def test_resume_after_a_lost_kernel_gives_the_same_game_seats_and_view() -> None:
    w = LeylineWidget(players=["Ada", "greedy"], seed=5, deal_ms=0, reveal_ms=900,
                      bot_delay_ms=300, viewer=0, bot_seed=2)
    for action in (Activate(0), Activate(4), EndPhase()):
        w.play(action)
    while w.game.phase.value == "refill":
        w.play(w.game.legal_actions()[0])
    w.play(EndPhase())
    w.step_bots(3)
    step, view, legal, info = w.game.step, w.view, w.legal, w.info
    kernel_lost()
    r = LeylineWidget.resume()
    assert r.game.step == step and r.game.state_hash() == w.game.state_hash()
    assert r.view == view and r.legal == legal and r.info == info
    assert (r.viewer, r.reveal_ms, r.bot_delay_ms, r.deal_ms) == (0, 900, 300, 0)
    assert same_log(r, w)
    assert r.events["items"] == []   # the last reveals were shown before the kernel went
    # It goes on in the same file, and a finished game is kept as a replay.
    r.step_bots()
    while not r.game.is_over:
        r.play(r.game.legal_actions()[-1]) if not r.legal.get("bot") else r.step_bots()
    [entry] = saved_games()
    assert entry.finished and entry.step == r.game.step and entry.path.suffix == ".json"
    replay = Replay.load(entry.path)
    assert replay.actions == r.game.actions and entry.replay().actions == r.game.actions
    with pytest.raises(ValueError, match="no unfinished game is saved"):
        LeylineWidget.resume()
    with pytest.raises(SaveError, match="is finished: load it with Replay"):
        LeylineWidget.resume(entry.id)


def test_a_resumed_hot_seat_game_waits_for_its_player() -> None:
    w = LeylineWidget(players=["Ada", "Grace"], seed=6, deal_ms=0)
    w.play(EndPhase())
    w.play(EndPhase())   # Grace's turn: the board waits for her
    w.send_message({"type": "ready"})
    kernel_lost()
    r = LeylineWidget.resume()
    assert r.handoff["to"] == 1 and r.view == w.view
    r.send_message({"type": "action", "action": {"type": "end_phase"}})
    assert r.error.startswith("Pass the board to Grace first") and r.game.step == 2
    r.send_message({"type": "ready"})
    r.play(EndPhase())
    assert r.game.step == 3


def test_resume_picks_the_newest_unfinished_game_and_joins_a_live_one() -> None:
    old = LeylineWidget(players=["Ada"], seed=1, deal_ms=0)
    old.play(Activate(0))
    new = LeylineWidget(players=["Bo", "Cy"], seed=2, deal_ms=0)
    new.play(Activate(1))
    os.utime(journal_lines_path(old), (1, 1))   # Ada's game was last played long ago
    listed = saved_games()
    assert [g.players for g in listed] == [("Bo", "Cy"), ("Ada",)]
    assert listed[0].when > listed[1].when
    again = LeylineWidget.resume()   # still shown in this kernel: one more view of it
    assert again.game is new.game
    again.play(Activate(2))
    assert new.game.step == 2 and new.view == again.view
    assert len(saved_games()) == 2   # one save for the one game
    assert LeylineWidget.resume(listed[1].id).game is old.game


def journal_lines_path(w: LeylineWidget) -> Path:
    assert w._table.journal is not None
    return w._table.journal.path


def test_a_take_back_is_saved_too() -> None:
    deck = ["fire"] * 12 + ["water"] * 12 + ["earth"] * 12 + ["wind"] * 12
    w = LeylineWidget(Game.new(players=["Ada"], deck=deck), deal_ms=0)
    w.play(Activate(0))
    w.play(Activate(1))   # two Fire: collected at the end of the phase
    while w.game.phase.value != "binding":
        w.play(w.game.legal_actions()[0] if w.game.phase.value == "refill" else EndPhase())
    start = w.game.step
    placed = next(a for a in w.game.legal_actions() if a.to_dict()["type"] == "place_token")
    w.play(placed)
    w.undo()
    assert w.game.step == start
    kernel_lost()
    r = LeylineWidget.resume()
    assert r.game.step == start and r.game.state_hash() == w.game.state_hash()
    assert json.loads(journal_lines(r)[-1]) == {"back": start}
    # A kernel lost in the middle of the Binding phase: the tokens can still be taken back.
    r.play(placed)
    kernel_lost()
    again = LeylineWidget.resume()
    assert again.legal.get("undo") is True
    again.undo()
    assert again.game.step == start


def test_damaged_saves_are_listed_with_a_short_error_and_never_crash() -> None:
    w = LeylineWidget(players=["Ada"], seed=3, deal_ms=0)
    w.play(Activate(0))
    w.play(Activate(1))
    path = journal_lines_path(w)
    folder = path.parent
    good = path.read_bytes()
    (folder / "empty.leyline-game").write_bytes(b"")
    (folder / "garbage.leyline-game").write_bytes(b"\x00\xffnot json\n" * 1000)
    (folder / "broken.json").write_text('{"format": "leyline-replay", "version": 1, "ru')
    lines = good.split(b"\n")
    (folder / "badline.leyline-game").write_bytes(b"\n".join([lines[0], b"{nope", lines[2], b""]))
    illegal = json.dumps({"step": 0, "action": {"type": "activate", "slot": 99}}).encode()
    (folder / "illegal.leyline-game").write_bytes(lines[0] + b"\n" + illegal + b"\n")
    (folder / "notes.txt").write_text("not a save")  # other files are not games
    listed = {g.id: g for g in saved_games()}
    assert set(listed) == {path.name.split(".")[0], "empty", "garbage", "broken", "badline",
                           "illegal"}
    for name, words in [("empty", "empty or cut short"),
                        ("garbage", "line 1: the saved game is not UTF-8"),
                        ("broken", "not valid JSON"), ("badline", "line 2 is not a saved move"),
                        ("illegal", "move 1 is not legal")]:
        assert words in listed[name].error and len(listed[name].error) <= 300, listed[name]
        if not listed[name].finished:
            with pytest.raises(SaveError, match=re.escape(words)):
                LeylineWidget.resume(name)
    assert listed[path.name.split(".")[0]].error == ""
    for junk in ("../x", "", ".hidden", 5):
        with pytest.raises(SaveError, match="no saved game has the id"):
            LeylineWidget.resume(junk)  # type: ignore[arg-type]
    # The latest good game resumes, skipping the damaged ones.
    kernel_lost()
    assert LeylineWidget.resume().game.step == 2


def test_a_move_cut_short_on_disk_is_dropped_and_the_game_resumes_before_it() -> None:
    w = LeylineWidget(players=["Ada"], seed=3, deal_ms=0)
    w.play(Activate(0))
    path = journal_lines_path(w)
    with path.open("ab") as f:   # a crash in the middle of saving the next move
        f.write(b'{"step":1,"action":{"type":"acti')
    kernel_lost()
    [entry] = saved_games()
    assert entry.step == 1 and entry.error == ""
    r = LeylineWidget.resume()
    assert r.game.step == 1
    r.play(Activate(2))   # the cut line is gone before the next move is written
    kernel_lost()
    assert LeylineWidget.resume().game.step == 2


def test_a_save_that_cannot_be_written_leaves_the_game_playable(tmp_path: Path,
                                                                monkeypatch: pytest.MonkeyPatch
                                                                ) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("LEYLINE_HOME", str(blocker))
    w = LeylineWidget(players=["Ada"], seed=3, deal_ms=0)
    assert w.error.startswith("This game is not being saved: cannot make the folder")
    w.play(Activate(0))
    assert w.game.step == 1 and w.error == ""
    assert saved_games() == []


def test_two_widgets_and_a_teacher_on_one_game_stay_in_step() -> None:
    game = Game.new(players=["Ada", "Grace", "greedy"], seed=9)
    ada = LeylineWidget(game, viewer=0, bots={2: "greedy"}, deal_ms=0)
    grace = LeylineWidget(game, viewer=1, deal_ms=0)
    teacher = LeylineWidget(game, viewer="teacher", deal_ms=0)
    views = (ada, grace, teacher)
    assert grace.legal.get("actor") is None and grace._bots is ada._bots
    ada.send_message({"type": "action", "action": {"type": "activate", "slot": 0},
                      "step": 0})
    for w in views:
        assert w.game is game and w.legal["step"] == 1 and w.view == game.observation(w.seat())
    assert teacher.view["grid"][0]["element"] and grace.view["grid"][1]["element"] is None
    ada.play(EndPhase())
    while game.phase.value == "refill":
        ada.play(game.legal_actions()[0])
    ada.play(EndPhase())
    # Grace's turn, from Grace's own board: every view follows, none refuses a stale click.
    grace.send_message({"type": "action", "action": {"type": "activate", "slot": 3},
                        "step": game.step})
    assert grace.error == "" and all(w.legal["step"] == game.step for w in views)
    grace.play(EndPhase())
    while game.phase.value == "refill":
        grace.play(game.legal_actions()[0])
    grace.play(EndPhase())
    # The bot's move is asked for by two boards at once: it is played once.
    step = game.step
    teacher.send_message({"type": "bot_step", "step": step})
    ada.send_message({"type": "bot_step", "step": step})
    assert game.step == step + 1 and not ada.error
    assert all(w.view == game.observation(w.seat()) for w in views)
    assert all(same_log(w, LeylineWidget(game, viewer=w.viewer, deal_ms=0)) for w in views)
    # One game, one save; a widget giving other bots is refused.
    assert len(saved_games()) == 1
    with pytest.raises(ValueError, match="widgets on one game share them"):
        LeylineWidget(game, bots={1: "random"})
    # A closed view no longer follows; a take-back reaches every view.
    grace.close()
    teacher.send_message({"type": "bot_step", "step": game.step})
    assert grace.legal["step"] < game.step == ada.legal["step"] == teacher.legal["step"]


def test_a_shown_reveal_leaves_the_synced_state_and_never_returns() -> None:
    rules = Rules.default().replace(minor_threshold=1)
    deck = ["wind"] * 12 + ["fire"] * 12 + ["water"] * 12 + ["earth"] * 12
    game = Game.new(players=["Ada", "Grace"], deck=deck, rules=rules)
    w = LeylineWidget(game, deal_ms=0)
    w.send_message({"type": "shown", "seq": w.events["seq"]})   # the deal
    assert w.events["items"] == []
    w.play(Activate(0))
    w.play(Activate(1))
    w.play(EndPhase())
    while game.phase.value == "refill":
        w.play(game.legal_actions()[0])
    w.play(EndPhase())
    w.send_message({"type": "ready"})
    w.play(EndPhase())
    w.play(EndPhase())
    w.send_message({"type": "ready"})
    assert game.active_player == 0 and game.phase.value == "abilities"
    w.play(UsePower("wind", "minor", (5,)))   # Whisper: Ada alone sees slot 5
    peek = [e for e in w.events["items"] if e.get("type") == "reveal"]
    assert peek and peek[0]["element"]
    page = w.to_html(Path(os.environ["LEYLINE_HOME"]) / "before.html").read_text("utf-8")
    assert '"items":[]' in page.replace(" ", "")   # an offline page holds no reveal at all
    w.send_message({"type": "shown", "seq": w.events["seq"]})
    assert w.events["items"] == [] and w.shown_seq == w.events["seq"]
    w.viewer = 1   # other eyes: the shown batch stays empty
    w.viewer = 0
    assert w.events["items"] == []
    data = re.search(r'id="leyline-board-state">(.*?)</script>',
                     w.to_html(Path(os.environ["LEYLINE_HOME"]) / "after.html")
                     .read_text("utf-8"), re.S)
    assert data and json.loads(data.group(1))["events"]["items"] == []
    w.send_message({"type": "shown", "seq": w.events["seq"] + 1})
    assert "has not been sent yet" in w.error


def test_a_long_turn_of_looks_is_saved_move_by_move() -> None:
    w = LeylineWidget(players=["Ada"], seed=2, deal_ms=0)
    for _ in range(50):
        w.play(Activate(3))
        w.play(Deactivate(3))
    assert len(journal_lines(w)) == 101
    kernel_lost()
    assert LeylineWidget.resume().game.step == 100
