"""Issue 14, "Hardened and shipped": strict page writes, refused junk, short echoes, whole ids.

Every page write and message goes through ``Widget._handle_msg`` exactly as the front-end
sends it. Each test here failed before its fix.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from support import deal_shown

from leyline_widget import Game, Replay, ReplayFormatError
from leyline_widget.widgets.play import LeylineWidget
from leyline_widget.widgets.replay import ReplayWidget


def custom(w: Any, content: Any) -> None:
    deal_shown(w, content)  # as a page does after Ready
    w._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


def update(w: Any, state: dict[str, Any]) -> None:
    w._handle_msg({"content": {"data": {"method": "update", "state": state}}, "buffers": []})


def replay_of(actions: int = 8, players: int = 2, seed: int = 7) -> Replay:
    game = Game.new(players=players, seed=seed)
    for _ in range(actions):
        game.apply(game.legal_actions()[0])
    return Replay.from_game(game)


# ------------------------------------------------------------------ strict page writes
@pytest.mark.parametrize(("state", "trait"), [
    ({"viewer": True}, "viewer"), ({"viewer": 1.0}, "viewer"), ({"step": True}, "step"),
    ({"step": 1.0}, "step"), ({"step": -5}, "step"), ({"variation": False}, "variation"),
    ({"show_memory_of": True}, "show_memory_of"), ({"show_memory_of": 1.0}, "show_memory_of"),
    ({"step": "3"}, "step"), ({"viewer": "teacher "}, "viewer"),
])
def test_replay_page_writes_are_strict_even_when_equal(state: dict[str, Any], trait: str) -> None:
    r = ReplayWidget(replay_of())
    r.viewer, r.step, r.show_memory_of = 1, 1, 1
    before = {k: (getattr(r, k), type(getattr(r, k))) for k in ("viewer", "step", "variation",
                                                             "show_memory_of")}
    view = r.view
    update(r, state)
    assert {k: (getattr(r, k), type(getattr(r, k))) for k in before} == before
    assert r.view == view
    assert trait in r.error or "page" in r.error, r.error
    # The widget still works: a good write goes through and clears the error.
    update(r, {"step": 2})
    assert r.step == 2 and r.error == ""


def test_replay_step_true_is_not_one() -> None:
    r = ReplayWidget(replay_of())
    update(r, {"step": True})
    assert r.step == 0 and type(r.step) is int and "step" in r.error


def test_teacher_memory_write_of_float_is_refused_and_clicks_still_work() -> None:
    w = LeylineWidget(players=2, seed=3, viewer="teacher", show_memory_of=1)
    update(w, {"show_memory_of": 1.0})
    assert type(w.show_memory_of) is int and "show_memory_of" in w.error
    action = w.game.legal_actions()[0].to_dict()
    custom(w, {"type": "action", "action": action, "step": w.game.step})
    assert w.error == "" and w.game.step == 1
    assert w.view == w.game.observation(None)


@pytest.mark.parametrize("value", [True, 1.0, -1, 10**100, "800", None])
def test_bot_delay_page_writes_are_strict(value: Any) -> None:
    w = LeylineWidget(players=["You", "greedy"], seed=5)
    w.bot_delay_ms = 1
    update(w, {"bot_delay_ms": value})
    assert w.bot_delay_ms == 1 and type(w.bot_delay_ms) is int
    assert "bot_delay_ms" in w.error


def test_a_refused_write_changes_nothing_in_the_same_batch() -> None:
    r = ReplayWidget(replay_of())
    update(r, {"step": 3, "viewer": True})
    assert r.step == 0 and r.viewer is None and "viewer" in r.error


# ------------------------------------------------------------------ messages refuse junk
@pytest.mark.parametrize("step", [-1, 10**100, 0])
def test_bot_step_without_a_bot_is_refused(step: int) -> None:
    w = LeylineWidget(players=2, seed=1)
    view = w.view
    custom(w, {"type": "bot_step", "step": step})
    assert w.error and w.view == view
    assert len(w.error) < 200


def test_bot_step_with_a_negative_step_is_refused() -> None:
    w = LeylineWidget(players=["You", "greedy"], seed=5)
    custom(w, {"type": "bot_step", "step": -1})
    assert "step" in w.error


# ------------------------------------------------------------------ short echoes
def test_a_million_targets_make_a_short_error() -> None:
    w = LeylineWidget(players=1, seed=1)
    custom(w, {"type": "action", "action": {"type": "use_power", "element": "wind",
                                             "tier": "minor", "targets": list(range(10**6))}})
    assert w.error and len(w.error) < 300


@pytest.mark.parametrize("content", [
    {"type": "x" * 10**6},
    {"type": "action", "action": {"type": "activate", "slot": "y" * 10**6}},
    {"type": "action", "action": {"type": "x" * 10**6}},
    {"type": "action", "action": {"type": "place_token", "slot": 0, "element": "z" * 10**6,
                                  "source": "supply"}},
    {"type": "action", "action": {"type": "activate", "slot": 10**1000}},
    {"type": "action", "action": {"type": "activate", "slot": 1, "q" * 10**6: 1}},
    {"type": "bot_step", "step": "s" * 10**6},
])
def test_echoed_junk_is_shortened(content: dict[str, Any]) -> None:
    w = LeylineWidget(players=1, seed=1)
    custom(w, content)
    assert w.error and len(w.error) < 300, len(w.error)


@pytest.mark.parametrize("content", [
    {"type": "goto", "lesson": "l" * 10**6}, {"type": "hint", "h" * 10**6: 1},
    {"type": "action", "action": {"type": "activate", "slot": 0}, "step": "9" * 5000},
])
def test_lesson_messages_shorten_junk(content: dict[str, Any]) -> None:
    from leyline_widget import LessonWidget

    w = LessonWidget()
    custom(w, content)
    assert w.error and len(w.error) < 300, len(w.error)


def test_replay_messages_shorten_junk() -> None:
    r = ReplayWidget(replay_of())
    custom(r, {"type": "annotate", "step": 0, "text": "ok", "tags": ["t" * 10**6]})
    assert r.error and len(r.error) < 300
    update(r, {"step": "9" * 10**6})
    assert r.error and len(r.error) < 300


def test_an_unquoted_long_refusal_is_cut_short(monkeypatch: pytest.MonkeyPatch) -> None:
    w = LeylineWidget(players=1, seed=1)

    def loud(content: dict[str, Any]) -> None:
        raise ValueError("x" * 10**6)

    monkeypatch.setattr(w, "_handlers", lambda: {"loud": loud})
    custom(w, {"type": "loud"})
    assert 0 < len(w.error) <= 600


def test_quote_is_short() -> None:
    from leyline_widget.core.echo import MAX_ECHO, quote

    assert len(quote("x" * 10**6)) <= MAX_ECHO
    assert len(quote(list(range(10**6)))) <= MAX_ECHO
    assert quote("fire") == "'fire'"


# ------------------------------------------------------------------ whole identifiers
def test_tag_with_a_trailing_newline_is_refused() -> None:
    replay = replay_of()
    with pytest.raises(ValueError, match="tag"):
        replay.annotate(1, "spoils it", ["spoiler\n"])


def test_element_id_with_a_trailing_newline_is_refused() -> None:
    from leyline_widget import Rules

    with pytest.raises(ValueError, match="element"):
        Rules.default().replace(elements=("fire", "water", "earth", "wind\n"))


def test_replay_file_tag_with_a_trailing_newline_is_refused() -> None:
    replay = replay_of()
    replay.annotate(1, "spoils it", ["spoiler"])
    text = replay.to_json().replace('"spoiler"', '"spoiler\\n"')
    with pytest.raises(ReplayFormatError):
        Replay.from_json(text)


# ------------------------------------------------------------------ replay files
def test_replay_seed_must_reproduce_the_deck() -> None:
    data = json.loads(replay_of().to_json())
    data["seed"] = data["seed"] + 1
    with pytest.raises(ReplayFormatError, match="seed") as err:
        Replay.from_json(json.dumps(data))
    assert err.value.field == "seed"


def test_replay_of_a_hand_dealt_game_with_a_seed_round_trips() -> None:
    deck = list(Game.new(players=1, seed=6).initial_deck)
    game = Game.new(players=1, seed=5, deck=deck)
    back = Replay.from_json(Replay.from_game(game).to_json())
    assert back.initial_deck == tuple(deck)


def test_load_of_a_missing_path_names_it(tmp_path: Path) -> None:
    missing = tmp_path / "nope.json"
    with pytest.raises(ReplayFormatError, match=r"nope\.json"):
        Replay.load(missing)


def test_load_of_a_directory_names_it(tmp_path: Path) -> None:
    with pytest.raises(ReplayFormatError, match=re.escape(tmp_path.name)):
        Replay.load(tmp_path)


# ------------------------------------------------------------------ fuzz
_junk = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=True)
    | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                 max_size=4),
    max_leaves=12)
_types = st.sampled_from(["action", "bot_step", "annotate", "edit_note", "remove_note", "goto",
                          "hint", "reset", "next", "nonsense"])


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=_types, fields=st.dictionaries(
    st.sampled_from(["action", "step", "text", "tags", "highlights", "index", "variation",
                     "lesson", "slot"]), _junk, max_size=4))
def test_fuzzed_messages_never_escape_and_never_leak(kind: str, fields: dict[str, Any]) -> None:
    from leyline_widget import LessonWidget

    w = LeylineWidget(players=2, seed=2, viewer=0)
    r = ReplayWidget(replay_of(6), viewer=0, allow_all_seeing=False)
    for widget in (w, r, LessonWidget()):
        custom(widget, {"type": kind, **fields})
        assert isinstance(widget.error, str) and len(widget.error) < 400
        for cell in widget.view["grid"]:
            if cell["card"] == "inert":
                assert cell["element"] is None


@settings(max_examples=100, deadline=None)
@given(state=st.dictionaries(st.sampled_from(["step", "variation", "viewer", "show_memory_of",
                                              "bot_delay_ms", "view", "reveal_ms"]), _junk,
                             min_size=1, max_size=3))
def test_fuzzed_page_writes_keep_types(state: dict[str, Any]) -> None:
    r = ReplayWidget(replay_of(6))
    update(r, state)
    assert type(r.step) is int and 0 <= r.step <= len(r.replay)
    assert type(r.variation) is int
    assert r.viewer is None or type(r.viewer) is int
    assert r.show_memory_of is None or type(r.show_memory_of) is int
    w = LeylineWidget(players=["You", "greedy"], seed=5, viewer="teacher")
    update(w, state)
    assert type(w.bot_delay_ms) is int and type(w.reveal_ms) is int
    assert w.show_memory_of is None or type(w.show_memory_of) is int


@settings(max_examples=100, deadline=None)
@given(key=st.sampled_from(["seed", "players", "initial_deck", "actions", "annotations",
                            "version", "rules", "variations", "format", "hashes"]),
       value=_junk)
def test_fuzzed_replay_fields_are_format_errors(key: str, value: Any) -> None:
    data = json.loads(replay_of(6).to_json())
    data[key] = value
    try:
        Replay.from_json(json.dumps(data))
    except ReplayFormatError as err:
        assert len(str(err)) < 400


# ------------------------------------------------------------------ the offline page
def test_to_html_is_one_small_offline_page_without_npm(tmp_path: Path) -> None:
    w = LeylineWidget(players=["Ada", "Bo"], seed=7, viewer=0)
    for _ in range(3):
        w.play(w.game.legal_actions()[0])
    page = w.to_html(tmp_path / "page.html")
    text = page.read_text("utf-8")
    assert len(text.encode("utf-8")) < 300 * 1024
    assert "https://" not in text.split("<script type=\"module\">")[0]
    assert "cannot reach a kernel" in text
    state = json.loads(re.search(r'id="leyline-board-state">(.*?)</script>', text, re.S)
                       .group(1))  # type: ignore[union-attr]
    assert state["view"] == w.game.observation(0) and state["legal"]["actor"] is None
    for slot, cell in enumerate(w.game.observation(None)["grid"]):
        if cell["card"] == "inert":
            assert state["view"]["grid"][slot]["element"] is None


def test_widget_reprs_say_what_is_shown() -> None:
    w = LeylineWidget(players=["Ada", "greedy"], seed=1)
    assert repr(w) == "<LeylineWidget 2p turn 1 Ada to play, viewer active>"
    r = ReplayWidget(replay_of(3))
    assert repr(r) == "<ReplayWidget 2p step 0 of 3, main line, viewer teacher>"


# ------------------------------------------------------------------ notebook display
def test_game_draws_a_small_board_labelled_all_seeing_with_names_escaped() -> None:
    game = Game.new(players=["Ada", "<img src=x>"], seed=4)
    html = game._repr_html_()
    assert "all-seeing view (every card)" in html
    assert "&lt;img src=x&gt;" in html and "<img" not in html
    inert = [c["element"] for c in game.observation(None)["grid"] if c["card"] == "inert"]
    assert all(f"<i>{el}</i>" in html for el in inert)


def test_a_players_view_hides_inert_cards() -> None:
    from leyline_widget.core.html import player_view_html

    game = Game.new(players=["Ada", "Bo"], seed=4)
    html = player_view_html(game, 1)
    assert "Bo&#x27;s view (seat 1)" in html
    assert not any(f"<i>{el}</i>" in html for el in game.rules.elements)
    assert html.count(">?<") == len(game.observation(1)["grid"])


def test_replay_and_simulation_rows_draw_tables() -> None:
    from leyline_widget import Rules, simulate

    html = replay_of(12)._repr_html_()
    assert "12 actions" in html and html.count("<tr>") == 1 + 8 + 1
    rows = simulate(Rules.default().replace(turn_limit=3), ["random", "greedy"], games=2, seed=1)
    table = rows._repr_html_()
    assert "2 simulated games" in table and table.count("<tr>") == 3
