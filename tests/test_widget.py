"""LeylineWidget through the real message path (Widget._handle_msg), as the page drives it.

``Widget._handle_msg`` swallows nothing here, but ipywidgets logs and drops exceptions raised
by message callbacks in a live kernel, so every test checks state, never just "no exception".
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from support import SMALL

from leyline_widget import Activate, EndPhase, Game, IllegalActionError, Rules
from leyline_widget.widgets.export import widget_html as to_html
from leyline_widget.widgets.play import LeylineWidget
from leyline_widget.widgets.presenters import legal_summary, parse_seats, sentence

TRAITS = ("mode", "view", "legal", "info", "error", "events", "viewer", "reveal_ms", "ack",
          "bot_delay_ms", "log", "log_past", "handoff", "shown_seq", "deal_ms", "session")


def custom(w: LeylineWidget, content: Any) -> None:
    """Deliver ``content`` exactly as a custom message from the front-end arrives (a move
    after the page has shown the deal, as a page does once the players pressed Ready)."""
    if isinstance(content, dict) and content.get("type") in MOVES:
        ready(w)
    w._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


def update(w: LeylineWidget, state: dict[str, Any]) -> None:
    """Deliver a front-end state update (what model.set + save_changes sends)."""
    w._handle_msg({"content": {"data": {"method": "update", "state": state}}, "buffers": []})


def ready(w: LeylineWidget) -> None:
    """What the page says once the players pressed Ready and the deal is on screen: before
    that no move of the page is taken (deal_ms above 0)."""
    seq = w.events["seq"]
    if w.shown_seq < seq:
        w._handle_msg({"content": {"data": {"method": "custom", "content": {
            "type": "shown", "seq": seq}}}, "buffers": []})


#: The page's messages that are moves: refused until the deal has been shown.
MOVES = ("action", "bot_step", "undo", "hint")


def act(w: LeylineWidget, action: Any) -> None:
    custom(w, {"type": "action", "action": action.to_dict() if hasattr(action, "to_dict")
                else action})


def synced(w: LeylineWidget) -> dict[str, Any]:
    return json.loads(json.dumps({k: getattr(w, k) for k in TRAITS}))


class Capture:
    """Record what the widget sends to the page (one entry per comm message)."""

    def __init__(self, w: LeylineWidget) -> None:
        self.messages: list[dict[str, Any]] = []
        w._send = lambda msg, buffers=None: self.messages.append(msg)  # type: ignore[method-assign]

    def sizes(self) -> list[int]:
        return [len(json.dumps(m, separators=(",", ":"))) for m in self.messages]


# ---------------------------------------------------------------------------- contract
def test_view_and_error_traits_follow_the_game() -> None:
    game = Game.new(players=2, seed=7)
    w = LeylineWidget(game)
    assert w.game is game
    assert w.view == game.observation(0)
    assert w.error == ""
    act(w, Activate(4))
    assert game.step == 1 and w.view == game.observation(0)
    assert w.view["grid"][4]["card"] == "active"
    assert w.error == ""


def test_new_game_from_options() -> None:
    w = LeylineWidget(players=2, seed=7)
    assert w.game.state_hash() == Game.new(players=2, seed=7).state_hash()
    assert w.view["players"][1]["name"] == "Player 2"
    small = LeylineWidget(players=["Ada"], seed=1, rules=SMALL)
    assert len(small.view["grid"]) == 4
    with pytest.raises(ValueError, match="not both"):
        LeylineWidget(Game.new(seed=1), seed=3)
    with pytest.raises(ValueError, match="players must be"):
        LeylineWidget(players="Ada")
    with pytest.raises(ValueError, match="viewer must be"):
        LeylineWidget(players=2, seed=1, viewer=5)


def test_a_legal_message_applies_and_publishes_events() -> None:
    w = LeylineWidget(players=1, seed=3)
    seq, ack = w.events["seq"], w.ack
    act(w, {"type": "activate", "slot": 2})
    assert w.game.actions == (Activate(2),)
    assert w.ack == ack + 1
    assert w.events["seq"] == seq + 1
    assert w.events["step"] == 1
    assert [e["type"] for e in w.events["items"]] == ["activate"]
    assert w.legal["deactivate"] == [2] and 2 not in w.legal["activate"]


@pytest.mark.parametrize("action, words", [
    ({"type": "activate", "slot": 99}, "Slot 99 does not exist: the grid has slots 0 to 11."),
    ({"type": "refill", "slot": 0}, "Empty slots are refilled in the refill phase"),
    ({"type": "place_token", "slot": 0, "element": "fire", "source": "supply"},
     "Binding Spell tokens are placed in the binding phase"),
    ({"type": "use_power", "element": "fire", "tier": "minor", "targets": []},
     "Powers are used in the abilities phase"),
    ({"type": "fly"}, "Malformed action: unknown action type 'fly'"),
    ({"type": "activate", "slot": "3"}, "Malformed action: activate needs an integer 'slot'"),
    ({"type": "activate", "slot": True}, "Malformed action: activate needs an integer 'slot'"),
    ({"type": "activate", "slot": 1, "evil": 1}, "unexpected field(s) evil"),
    ("activate 3", "Malformed action: an action must be an object"),
    (None, "Malformed action: an action must be an object"),
])
def test_illegal_or_malformed_actions_change_nothing(action: Any, words: str) -> None:
    w = LeylineWidget(players=1, seed=3)
    ready(w)
    before, state = w.game.state_hash(), synced(w)
    custom(w, {"type": "action", "action": action})
    assert words.lower() in w.error.lower()
    assert w.error[0].isupper() and w.error.endswith(".")
    assert w.game.state_hash() == before and w.game.step == 0
    after = synced(w)
    assert {k: after[k] for k in after if k not in ("error", "ack")} == {
        k: state[k] for k in state if k not in ("error", "ack")}
    act(w, Activate(0))
    assert w.error == "", "a legal action clears the error"


@pytest.mark.parametrize("content, words", [
    ("junk", "must be an object with a 'type'"),
    ([1, 2], "must be an object with a 'type'"),
    (42, "must be an object"),
    ({}, "unknown message type None"),
    ({"type": "hack"}, "unknown message type 'hack'"),
    ({"type": ["action"]}, "unknown message type"),
    ({"type": "action"}, "needs an 'action' object"),
    ({"type": "action", "action": {"type": "end_phase"}, "extra": 1}, "unexpected field(s) extra"),
    ({"type": "action", "action": {"type": "end_phase"}, "step": "0"}, "integer 'step'"),
    ({"type": "action", "action": {"type": "end_phase"}, "step": 5}, "moved on to step 0"),
    ({"type": "bot_step", "step": 0}, "not a bot's turn"),
    ({"type": "bot_step"}, "needs the integer 'step'"),
])
def test_junk_messages_get_an_error_and_change_nothing(content: Any, words: str) -> None:
    w = LeylineWidget(players=1, seed=3)
    before, view = w.game.state_hash(), w.view
    custom(w, content)
    assert words.lower() in w.error.lower()
    assert w.game.state_hash() == before and w.view == view


@settings(max_examples=150, deadline=None)
@given(st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4)
    | st.dictionaries(st.sampled_from(["type", "action", "step", "slot", "element", "source",
                                       "tier", "targets", "x"]) | st.text(max_size=4),
                      inner, max_size=5),
    max_leaves=12))
def test_fuzzed_messages_never_change_the_game_unless_legal(content: Any) -> None:
    w = LeylineWidget(players=1, seed=3)
    before = w.game.state_hash()
    custom(w, content)
    if w.game.step:
        assert w.error == "", "only a legal action may change the game"
    else:
        assert w.error, f"no error for junk {content!r}"
        assert w.game.state_hash() == before


def test_the_page_cannot_write_the_kernels_traits() -> None:
    w = LeylineWidget(players=1, seed=3)
    cap = Capture(w)
    view, legal = w.view, w.legal
    update(w, {"view": {"phase": "game_over"}, "legal": {}, "bot_delay_ms": 300})
    assert w.view == view and w.legal == legal
    assert "may not change legal, view" in w.error
    assert w.bot_delay_ms == 800, "a refused write changes nothing, its allowed part included"
    resent = [m for m in cap.messages if "view" in m.get("state", {})]
    assert resent and resent[0]["state"]["view"] == view, "the kernel's values go back"
    update(w, {"bot_delay_ms": 300})
    assert w.bot_delay_ms == 300, "the pace is the page's to set"
    update(w, {"bot_delay_ms": 60_001})
    assert "(bot_delay_ms) must be from 0 to 60000" in w.error and w.bot_delay_ms == 300


def test_every_message_bumps_ack_so_the_page_clears_pending_marks() -> None:
    w = LeylineWidget(players=1, seed=3)
    custom(w, {"type": "action", "action": {"type": "activate", "slot": 99}})
    first = (w.error, w.ack)
    custom(w, {"type": "action", "action": {"type": "activate", "slot": 99}})
    assert w.error == first[0] and w.ack == first[1] + 1


def test_one_message_one_update() -> None:
    """All trait changes of a message go out together: the page never sees half a step."""
    w = LeylineWidget(players=2, seed=3)
    ready(w)
    cap = Capture(w)
    act(w, Activate(0))
    assert len(cap.messages) == 1
    assert set(cap.messages[0]["state"]) == {"view", "legal", "events", "ack", "log"}


# ---------------------------------------------------------------------------- viewers
def test_hot_seat_view_follows_the_active_player() -> None:
    w = LeylineWidget(players=2, seed=7)
    assert w.view["viewer"] == 0 and w.legal["actor"] == 0
    act(w, EndPhase())  # pass
    act(w, EndPhase())  # end turn
    assert w.game.active_player == 1
    assert w.view["viewer"] == 1 and w.legal["actor"] == 1


def test_fixed_seat_acts_only_on_its_turn() -> None:
    w = LeylineWidget(players=2, seed=7, viewer=1)
    assert w.view["viewer"] == 1 and w.legal == {"step": 0, "actor": None}
    custom(w, {"type": "action", "action": {"type": "end_phase"}})
    assert "this widget plays for Player 2" in w.error and w.game.step == 0
    w.viewer = 0
    assert w.view["viewer"] == 0 and w.legal["actor"] == 0


def test_teacher_view_sees_every_card() -> None:
    game = Game.new(players=1, seed=7)
    w = LeylineWidget(game, viewer="teacher")
    assert w.viewer is None
    assert [c["element"] for c in w.view["grid"]] == [game.card(s) for s in range(12)]
    assert LeylineWidget(players=1, seed=7, viewer=None).view == game.observation(None)


def test_reveal_ms_is_a_widget_option() -> None:
    assert LeylineWidget(players=1, seed=1, reveal_ms=400).reveal_ms == 400
    with pytest.raises(Exception, match="reveal_ms"):
        LeylineWidget(players=1, seed=1, reveal_ms=-1)


# ---------------------------------------------------------------------------- bots
def test_parse_seats() -> None:
    assert parse_seats(["You", "greedy", "Random", "greedy"]) == (
        ["You", "Greedy bot", "Random bot", "Greedy bot 2"],
        {1: "greedy", 2: "random", 3: "greedy"})


def test_bot_turns_are_paced_by_the_page_one_step_per_request() -> None:
    w = LeylineWidget(players=["You", "greedy"], seed=11)
    assert w.info["players"] == [{"name": "You", "bot": None},
                                 {"name": "Greedy bot", "bot": "greedy"}]
    act(w, EndPhase())
    act(w, EndPhase())
    assert w.game.active_player == 1 and w.legal["bot"] == "greedy" and w.legal["actor"] is None
    assert w.view["viewer"] == 0, "the human keeps their own eyes during the bot's turn"
    custom(w, {"type": "action", "action": {"type": "end_phase"}})
    assert "a bot" in w.error and w.game.step == 2
    step = w.game.step
    custom(w, {"type": "bot_step", "step": step})
    assert w.game.step == step + 1 and w.error == ""
    custom(w, {"type": "bot_step", "step": step})  # a second view asking for the same move
    assert w.game.step == step + 1, "a stale request is ignored"
    while w.legal.get("bot"):
        custom(w, {"type": "bot_step", "step": w.game.step})
    assert w.game.active_player == 0 or w.game.is_over


def test_bots_given_with_a_game_and_a_bot_only_table() -> None:
    from leyline_widget.agents.bots import make_bot

    w = LeylineWidget(Game.new(players=2, seed=4),
                      bots={0: "random", 1: make_bot("greedy", seed=1)})
    assert w.legal["bot"] == "random" and w.view["viewer"] == 0
    assert w.step_bots() > 0 and w.game.is_over
    with pytest.raises(ValueError, match="seat 2 does not exist"):
        LeylineWidget(Game.new(players=2, seed=4), bots={2: "random"})
    with pytest.raises(ValueError, match="unknown bot kind"):
        LeylineWidget(Game.new(players=2, seed=4), bots={1: "clever"})


def test_play_from_python_raises_on_illegal_moves() -> None:
    w = LeylineWidget(players=1, seed=3)
    with pytest.raises(IllegalActionError):
        w.play(Activate(40))
    assert w.game.step == 0
    w.play({"type": "activate", "slot": 1})
    assert w.view["grid"][1]["card"] == "active"


# ---------------------------------------------------------------------------- legal summary
def test_legal_summary_matches_legal_actions_over_random_games() -> None:
    from leyline_widget import Deactivate, PlaceToken, Refill, UsePower

    rng = random.Random(5)
    for seed in range(6):
        game = Game.new(players=1 + seed % 3, seed=seed,
                        rules=SMALL if seed % 2 else Rules.default())
        while not game.is_over:
            legal = game.legal_actions()
            s = legal_summary(game, game.active_player)
            assert s["end"] == (EndPhase() in legal)
            if "activate" in s:
                assert s["activate"] == [a.slot for a in legal if isinstance(a, Activate)]
                assert s["deactivate"] == [a.slot for a in legal if isinstance(a, Deactivate)]
                inert = {str(i) for i, c in enumerate(game.observation(None)["grid"])
                         if c["card"] == "inert" and i not in s["activate"]}
                assert set(s["blocked"]) == inert
                for slot, why in s["blocked"].items():
                    assert why and why == sentence(game.why_illegal(Activate(int(slot))) or "")
            # Any viewer's grid gives the same summary (which cards are inert is public).
            assert legal_summary(game, game.active_player, game.observation(None)["grid"]) == s
            if "refill" in s:
                assert s["refill"] == [a.slot for a in legal if isinstance(a, Refill)]
            if "place" in s:
                pay = {(a.element, a.source) for a in legal if isinstance(a, PlaceToken)}
                assert {(e, src) for e, d in s["place"].items() for src, why in d.items()
                        if why == ""} == pay
            uses = [a for a in legal if isinstance(a, UsePower)]
            assert set(s["powers"]) == {f"{a.element}:{a.tier}" for a in uses}
            for key, spec in s["powers"].items():
                mine = [a for a in uses if f"{a.element}:{a.tier}" == key]
                assert spec["min"] == min(len(a.targets) for a in mine)
                assert spec["max"] == max(len(a.targets) for a in mine)
                assert spec["slots"] == sorted({t for a in mine for t in a.targets})
            game.apply(rng.choice(legal))


# ---------------------------------------------------------------------------- hidden cards
def _redeal(position: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The same public position with its hidden cards (inert grid cards, deck below the top)
    shuffled among themselves."""
    pos = json.loads(json.dumps(position))
    inert = [s for s, c in enumerate(pos["grid"]) if c is not None and s not in pos["active"]]
    hidden = [pos["grid"][s] for s in inert] + pos["deck"][1:]
    rng.shuffle(hidden)
    for s in inert:
        pos["grid"][s] = hidden.pop()
    pos["deck"][1:] = hidden
    return pos


def _same_widget(game: Game, w: LeylineWidget) -> LeylineWidget:
    return LeylineWidget(game, viewer=w.viewer, bots={p: b.name for p, b in w.bots.items()},
                         bot_seed=1)


def _check_hidden(w: LeylineWidget) -> None:
    seat = w.seat()
    state = synced(w)
    for s, cell in enumerate(state["view"]["grid"]):
        if cell["card"] == "inert":
            assert cell["element"] is None, f"inert slot {s} shows its element"
    for ev in state["events"]["items"]:
        if ev["type"] == "reveal" and ev["element"] is not None:
            assert ev["visible_to"] == "all" or seat in ev["visible_to"], ev


@pytest.mark.parametrize("players, viewer, rules", [
    (1, "active", SMALL), (1, "active", Rules.default()), (2, "active", Rules.default()),
    (["You", "greedy"], "active", Rules.default()), (["random", "You", "memory"], 1, SMALL),
    (3, 2, Rules.default()), (["greedy", "greedy"], "active", SMALL),
])
def test_no_hidden_element_reaches_the_synced_state(players: Any, viewer: Any,
                                                    rules: Rules) -> None:
    """Random games through the message path; at every step the synced state holds no inert
    card's element, and re-dealing the hidden cards leaves the whole synced state unchanged."""
    rng = random.Random(str(players))
    steps = 0
    for game_no in range(4):
        w = LeylineWidget(players=players, seed=game_no, rules=rules, viewer=viewer, bot_seed=1)
        for _ in range(150):  # long random games repeat themselves: sample their openings
            if w.game.is_over:
                break
            if w.handoff:  # hot-seat: the next player takes the seat
                custom(w, {"type": "ready"})
            if w.legal.get("bot"):
                custom(w, {"type": "bot_step", "step": w.game.step})
            elif w.legal["actor"] is None:  # a fixed seat waiting for another human
                w.viewer, keep = w.game.active_player, w.viewer
                act(w, rng.choice(w.game.legal_actions()))
                w.viewer = keep
            else:
                act(w, rng.choice(w.game.legal_actions()))
            assert w.error == ""
            _check_hidden(w)
            steps += 1
            if steps % 5 == 0:
                position = w.game.position()
                here = _same_widget(Game.from_position(position), w)
                there = _same_widget(Game.from_position(_redeal(position, rng)), w)
                assert synced(here) == synced(there)
    assert steps > 10


# ---------------------------------------------------------------------------- sizes
def test_updates_stay_under_4_kb() -> None:
    """The bytes of every update message the kernel sends while 4 players play. The finished
    turns of the game log (``log_past``) grow with the game and go out once per turn; the
    turn being played (``log``) stays under 2 KB, and the rest of every update under 4 KB."""
    sizes: list[int] = []
    past_updates = turns = 0
    for seed in range(3):
        w = LeylineWidget(players=["You", "greedy", "random", "memory"], seed=seed, bot_seed=2)
        cap = Capture(w)
        rng = random.Random(seed)
        while not w.game.is_over:
            if w.legal.get("bot"):
                custom(w, {"type": "bot_step", "step": w.game.step})
            else:
                act(w, rng.choice(w.game.legal_actions()))
        turns += w.game.turn
        past_updates += sum("log_past" in m["state"] for m in cap.messages)
        for m in cap.messages:
            m["state"].pop("log_past", None)
            log = m["state"].pop("log", None)  # the turn being played, in words: its own budget
            assert log is None or len(json.dumps(log)) < 2048
        sizes += cap.sizes()
    assert past_updates <= turns + 3
    assert len(sizes) > 50
    assert max(sizes) < 4096, f"largest update {max(sizes)} bytes"


# ---------------------------------------------------------------------------- static HTML
def test_to_html_inline_and_copy(tmp_path: Any) -> None:
    w = LeylineWidget(players=1, seed=3)
    page = to_html(w, tmp_path / "one.html", title="A <game>")
    text = page.read_text()
    assert "<title>A &lt;game&gt;</title>" in text
    assert "cannot reach a kernel" in text and "cdn.jsdelivr" not in text
    copy = w.to_html(tmp_path / "two.html", assets="copy")
    assert (tmp_path / "leyline-assets" / "embed-amd.js").is_file()
    assert '<script src="leyline-assets/require.js"></script>' in copy.read_text()
    assert 'define("anywidget", ["@jupyter-widgets/base"]' in (
        tmp_path / "leyline-assets" / "anywidget.js").read_text()
    cdn = w.to_html(tmp_path / "three.html", assets="cdn").read_text()
    assert "application/vnd.jupyter.widget-view+json" in cdn and w.model_id in cdn
    with pytest.raises(ValueError, match="assets must be"):
        to_html(w, tmp_path / "x.html", assets="web")
    with pytest.raises(FileNotFoundError, match="npm install"):
        to_html(w, tmp_path / "x.html", assets="copy", node_modules=tmp_path)
