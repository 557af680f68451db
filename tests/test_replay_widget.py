"""ReplayWidget through the real message path, and the standalone replay page's data and file.

Messages and page writes go through ``Widget._handle_msg`` as the front-end sends them. Every
test checks state: ipywidgets logs and drops exceptions raised in a live kernel's callbacks.
"""

from __future__ import annotations

import base64
import hashlib
import json
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import traitlets
from support import SMALL, lively

from leyline_widget import Game, Replay, replay_html
from leyline_widget.core.game import visible_events
from leyline_widget.teach.memory import memory_report
from leyline_widget.widgets.book import diff, line_list, patch, replay_book, step_entries, unstream
from leyline_widget.widgets.replay import ReplayWidget

EVIL = '<img src=x onerror="document.title=\'pwned\'">'


def custom(w: ReplayWidget, content: Any) -> None:
    """Deliver ``content`` exactly as a custom message from the front-end arrives."""
    w._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


def update(w: ReplayWidget, state: dict[str, Any]) -> None:
    """Deliver a front-end state update (what model.set + save_changes sends)."""
    w._handle_msg({"content": {"data": {"method": "update", "state": state}}, "buffers": []})


def lively_game(seed: int, players: int = 2, rules: Any = None, limit: int = 10_000) -> Game:
    game = Game.new(players=["Ada", "Bo", "Cy", "Di"][:players], seed=seed, rules=rules)
    rng = random.Random(seed)
    while not game.is_over and game.step < limit:
        game.apply(lively(game, rng))
    return game


def peeking_game() -> Game:
    """A short game in which a player peeks privately (Whisper or Gale) at least once."""
    for seed in range(200):
        game = lively_game(seed, rules=SMALL, limit=120)
        if any(ev["type"] == "reveal" and ev["visible_to"] != "all"
               for evs in game.event_log for ev in evs):
            return game
    raise AssertionError("no seed gave a private peek")


@pytest.fixture(scope="module")
def game() -> Game:
    return lively_game(3, limit=60)


# ---------------------------------------------------------------------------- contract
def test_step_is_a_two_way_trait(game: Game) -> None:
    replay = Replay.from_game(game)
    r = ReplayWidget(replay)
    assert r.step == 0 and r.variation == 0 and r.viewer is None and r.mode == "replay"
    assert r.view == replay.game_at(0).observation(None)
    r.step = 17
    assert r.view == replay.game_at(17).observation(None)
    assert r.legal == {"step": 17, "actor": None, "variation": 0}
    r.step = -1
    assert r.step == len(replay) and r.view == game.observation(None)
    update(r, {"step": 5})  # the page moves it
    assert r.step == 5 and r.view == replay.game_at(5).observation(None)
    assert r.game.state_hash() == replay.state_hash(5)
    assert r.error == ""


def test_the_page_cannot_step_outside_the_line_nor_write_the_kernels_traits(game: Game) -> None:
    r = ReplayWidget(Replay.from_game(game), step=4)
    sent: list[dict[str, Any]] = []
    r._send = lambda msg, buffers=None: sent.append(msg)  # type: ignore[method-assign]
    view = r.view
    update(r, {"step": len(Replay.from_game(game)) + 1})
    assert r.step == 4 and r.view == view
    assert f"outside the main line, which has steps 0 to {len(Replay.from_game(game))}" in r.error
    assert any(m.get("state", {}).get("step") == 4 for m in sent), "the kernel's step goes back"
    update(r, {"line": [], "view": {}, "annotations": []})
    assert "may not change annotations, line, view" in r.error and r.view == view
    with pytest.raises(traitlets.TraitError, match="outside the main line"):
        r.step = 10_000


def test_line_entries_say_who_did_what_when(game: Game) -> None:
    replay = Replay.from_game(game)
    r = ReplayWidget(replay, viewer=1)
    assert len(r.line) == len(replay) + 1
    assert r.line[0]["action"] is None
    assert r.line[0]["events"] == visible_events(game.event_log[0], 1)
    for k in range(1, len(replay) + 1):
        before = replay.game_at(k - 1)
        entry = r.line[k]
        assert (entry["turn"], entry["player"], entry["phase"]) == (
            before.turn, before.active_player, before.phase.value), k
        assert entry["action"] == game.actions[k - 1].to_dict()
        assert entry["events"] == visible_events(game.event_log[k], 1)


# ---------------------------------------------------------------------------- viewers
def test_a_player_viewer_never_holds_an_inert_element_nor_anothers_peek() -> None:
    game = peeking_game()
    replay = Replay.from_game(game)
    peeks = [(k, ev) for k, evs in enumerate(game.event_log) for ev in evs
             if ev["type"] == "reveal" and ev["visible_to"] != "all"]
    for viewer in range(len(game.players)):
        r = ReplayWidget(replay, viewer=viewer, show_memory_of=0)
        for k in range(len(replay) + 1):
            r.step = k
            assert r.view == replay.game_at(k).observation(viewer)
            assert all(c["element"] is None for c in r.view["grid"] if c["card"] == "inert")
            assert r.memory == {}, "the memory panel is the teacher's"
        for k, ev in peeks:
            shown = next(e for e in r.line[k]["events"] if e["type"] == "reveal"
                         and e["slot"] == ev["slot"])
            assert (shown["element"] is None) == (viewer not in ev["visible_to"])


def test_all_seeing_can_be_switched_off_for_students(game: Game) -> None:
    r = ReplayWidget(Replay.from_game(game), allow_all_seeing=False)
    assert r.viewer == 0 and r.viewers == [0, 1]
    update(r, {"viewer": None})
    assert r.viewer == 0 and "allow_all_seeing=False" in r.error
    update(r, {"viewer": 1})
    assert r.viewer == 1 and r.error == "" and r.view["viewer"] == 1
    with pytest.raises(traitlets.TraitError, match="switched off"):
        r.viewer = None
    teacher = ReplayWidget(Replay.from_game(game), viewer="teacher")
    assert teacher.viewers == [None, 0, 1]
    teacher.allow_all_seeing = False
    assert teacher.viewer == 0 and teacher.viewers == [0, 1]
    with pytest.raises(traitlets.TraitError, match="viewer must be a player from 0 to 1"):
        teacher.viewer = 2


def test_memory_panel_follows_the_step_for_the_all_seeing_viewer(game: Game) -> None:
    replay = Replay.from_game(game)
    r = ReplayWidget(replay, show_memory_of=1, step=30)
    assert r.memory == memory_report(replay.game_at(30), 1)
    update(r, {"step": 45, "show_memory_of": 0})
    assert r.memory == memory_report(replay.game_at(45), 0)
    update(r, {"show_memory_of": 7})
    assert "The memory panel (show_memory_of) shows a player from 0 to 1" in r.error
    assert r.show_memory_of == 0
    update(r, {"show_memory_of": None})
    assert r.memory == {}


# ---------------------------------------------------------------------------- variations
def test_variations_from_python_and_the_page(game: Game) -> None:
    replay = Replay.from_json(Replay.from_game(game).to_json())
    r = ReplayWidget(replay, step=20)
    side = r.branch("what if <b>Bo</b> passes")
    assert r.variation == side_id(replay, side) and r.step == 20
    for _ in range(3):
        side.apply(side.legal_actions()[-1])
    r.refresh()
    v = replay.variation(r.variation)
    assert r.lines[-1] == {"id": v.id, "name": "what if <b>Bo</b> passes", "parent": 0,
                           "start": 20, "end": 23}
    assert len(r.line) == 24
    r.step = 23
    assert r.view == replay.game_at(23, variation=v.id).observation(None)
    assert r.line[23]["action"] == side.actions[22].to_dict()
    update(r, {"variation": 0})
    assert r.step == 23 and r.view == replay.game_at(23).observation(None)
    r.step = 50
    update(r, {"variation": v.id})  # a shorter line: its last step
    assert r.step == 23
    update(r, {"variation": 99})
    assert "No variation 99" in r.error and r.variation == v.id
    # Moves on the branched game show up at the next step the page asks for.
    side.apply(side.legal_actions()[0])
    update(r, {"step": 22})
    assert len(r.line) == 25 and r.lines[-1]["end"] == 24
    assert line_list(replay)[0] == {"id": 0, "name": "Main line", "parent": None, "start": 0,
                                    "end": len(replay)}


def side_id(replay: Replay, side: Game) -> int:
    found = replay.variation_of(side)
    assert found is not None
    return found.id


# ---------------------------------------------------------------------------- notes
def test_notes_from_the_page_reach_the_replay_as_given(game: Game) -> None:
    replay = Replay.from_json(Replay.from_game(game).to_json())
    r = ReplayWidget(replay, step=6)
    custom(r, {"type": "annotate", "step": 6, "text": EVIL, "tags": ["hint"],
               "highlights": [4, 1]})
    assert r.error == ""
    assert replay.annotations[6][0].text == EVIL
    assert r.annotations == [{"step": 6, "variation": 0, "index": 0, "text": EVIL,
                              "tags": ["hint"], "highlights": [1, 4]}]
    custom(r, {"type": "annotate", "step": 6, "text": "second", "tags": []})
    custom(r, {"type": "annotate", "step": 6, "text": "third"})
    # Edit keeps the note's place; the others are untouched.
    custom(r, {"type": "edit_note", "step": 6, "variation": 0, "index": 1, "text": "2nd",
               "tags": ["spoiler"], "highlights": [3]})
    assert r.error == ""
    assert [(n.text, n.tags, n.highlights) for n in replay.annotations[6]] == [
        (EVIL, ("hint",), (1, 4)), ("2nd", ("spoiler",), (3,)), ("third", (), ())]
    custom(r, {"type": "remove_note", "step": 6, "variation": 0, "index": 0})
    assert [n.text for n in replay.annotations[6]] == ["2nd", "third"]
    assert [n["index"] for n in r.annotations] == [0, 1]
    assert Replay.from_json(replay.to_json()).annotations[6][0].text == "2nd"


@pytest.mark.parametrize("content, words", [
    ({"type": "annotate", "step": 6, "text": "x", "tags": ["Not A Tag"]}, "is not a tag"),
    ({"type": "annotate", "step": 6, "text": "   "}, "needs text or highlighted slots"),
    ({"type": "annotate", "step": 6, "text": "x", "highlights": [12]}, "is not a grid slot"),
    ({"type": "annotate", "step": 6, "text": "bell \x07"}, "control character"),
    ({"type": "annotate", "step": 999, "text": "x"}, "a step from 0 to"),
    ({"type": "annotate", "text": "x"}, "needs the integer 'step'"),
    ({"type": "annotate", "step": 6, "text": "x", "html": True}, "unexpected field(s) html"),
    ({"type": "edit_note", "step": 6, "variation": 0, "index": 5, "text": "x"}, "no note 5"),
    ({"type": "edit_note", "step": 6, "variation": 3, "index": 0, "text": "x"},
     "the 'variation' owning the note"),
    ({"type": "edit_note", "step": 6, "variation": 0, "index": 0, "text": 5}, "must be a string"),
    ({"type": "remove_note", "step": 6, "variation": 0, "index": True}, "no note True"),
    ({"type": "render_html", "html": "<b>"}, "unknown message type 'render_html'"),
])
def test_bad_note_messages_change_nothing(game: Game, content: dict[str, Any],
                                          words: str) -> None:
    replay = Replay.from_json(Replay.from_game(game).to_json())
    replay.annotate(6, "keep me", tags=["hint"])
    r = ReplayWidget(replay, step=6)
    before, ack = replay.to_json(), r.ack
    custom(r, content)
    assert words.lower() in r.error.lower(), r.error
    assert replay.to_json() == before
    assert r.ack == ack + 1


def test_notes_on_a_variation_belong_to_the_line_that_owns_the_step(game: Game) -> None:
    replay = Replay.from_json(Replay.from_game(game).to_json())
    replay.annotate(3, "main, early")
    replay.annotate(30, "main, later")
    v = replay.add_variation(10, [replay.game_at(10).legal_actions()[-1]], name="side")
    r = ReplayWidget(replay, variation=v.id, step=5)
    assert [n["text"] for n in r.annotations] == ["main, early"], "main notes up to the branch"
    custom(r, {"type": "annotate", "step": 5, "text": "before the branch"})
    r.step = 11
    custom(r, {"type": "annotate", "step": 11, "text": "on the side line"})
    assert [n.text for n in replay.annotations[5]] == ["before the branch"]
    assert [n.text for n in replay.variation(v.id).annotations[11]] == ["on the side line"]
    assert [(n["step"], n["variation"]) for n in r.annotations] == [(3, 0), (5, 0), (11, v.id)]
    note = r.annotate("from Python", tags=["hint"])
    assert note.text == "from Python" and r.annotations[-1]["text"] == "from Python"


# ---------------------------------------------------------------------------- the page's data
def test_patches_rebuild_every_value() -> None:
    old = {"a": [1, {"b": 2}], "c": {"d": None}, "e": True}
    new = {"a": [1, {"b": 3}], "c": {"d": None, "x": 1}, "e": 1}
    assert patch(old, diff(old, new)) == new
    assert diff(new, new) == []
    assert patch(old, diff(old, [1])) == [1]


def test_a_player_book_holds_that_players_eyes_only() -> None:
    game = peeking_game()
    replay = Replay.from_game(game)
    side = replay.branch(len(replay) // 2, name="side")
    for _ in range(4):
        if not side.is_over:
            side.apply(side.legal_actions()[0])
    for viewer in range(len(game.players)):
        book = replay_book(replay, viewer)
        assert book["viewers"] == [viewer] and set(book["frames"]) == {str(viewer)}
        assert book["memory"] is None
        for line in book["lines"]:
            var = None if line["id"] == 0 else line["id"]
            frames = unstream(book["frames"][str(viewer)][str(line["id"])])
            assert frames == [replay.game_at(k, var).observation(viewer)
                              for k in range(line["start"], line["end"] + 1)]
            entries = book["entries"][str(viewer)][str(line["id"])]["base"]
            full = step_entries(replay.game_at(line["end"], var), viewer)
            assert entries == full[0 if var is None else line["start"] + 1:]
        assert '"viewer": null' not in json.dumps(book), "no all-seeing observation"


def test_the_teacher_book_holds_every_view_and_the_memory() -> None:
    game = peeking_game()
    replay = Replay.from_game(game)
    book = replay_book(replay, None, show_memory_of=1, step=-1)
    assert book["viewers"] == [None, 0, 1]
    assert book["start"] == {"step": len(replay), "variation": 0, "viewer": None}
    base = book["entries"]["all"]["0"]["base"]
    for viewer in (0, 1):
        data = book["entries"][str(viewer)]["0"]
        assert data["of"] == "all"
        assert patch(base, data["patches"]) == step_entries(game, viewer)
    reports = unstream(book["memory"]["lines"]["0"])
    for k in range(0, len(replay) + 1, 9):
        assert reports[k] == memory_report(replay.game_at(k), 1)
    with pytest.raises(ValueError, match="needs the all-seeing page"):
        replay_book(replay, 0, show_memory_of=1)
    with pytest.raises(ValueError, match="viewer must be None"):
        replay_book(replay, 5)


def _module_script(page: str) -> str:
    found = re.search(r'<script type="module">(.*?)</script>', page, re.S)
    assert found
    return found.group(1)


def test_the_standalone_page_is_one_offline_file(tmp_path: Path) -> None:
    game = lively_game(3, limit=80)
    replay = Replay.from_game(game)
    replay.annotate(5, EVIL + " </script><script>alert(1)</script>", tags=["hint"])
    replay.annotate(5, "secret plan", tags=["private"])
    path = replay_html(replay, tmp_path / "replay.html", viewer=1, step=5, exclude_tags=["private"],
                          title="Ada & <Bo>")
    page = path.read_text("utf-8")
    # One file: no external script, style, image or link; nothing can load or run but the
    # page's own module, whose hash the Content Security Policy names.
    assert not re.search(r"<(link|img|iframe|object|embed)\b|<script[^>]*\bsrc\b", page, re.I)
    assert "http://" not in page and "https://" not in page
    digest = base64.b64encode(hashlib.sha256(_module_script(page).encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}' blob:" in page
    assert "default-src 'none'" in page
    assert "<title>Ada &amp; &lt;Bo&gt;</title>" in page
    # The untrusted note is data in the book, escaped so it cannot close the script.
    assert page.count("</script>") == 2
    assert "<img" not in page and "secret plan" not in page
    book = json.loads(re.search(r'id="leyline-replay-book">(.*?)</script>', page, re.S)
                      .group(1))  # type: ignore[union-attr]
    assert book["notes"]["0"][0]["text"].startswith(EVIL)
    assert book["viewers"] == [1] and book["start"]["step"] == 5


def test_a_300_action_page_stays_small(tmp_path: Path) -> None:
    game = lively_game(3)
    assert 300 <= game.step <= 400
    sizes = {}
    for viewer in (None, 0):
        path = replay_html(Replay.from_game(game), tmp_path / f"{viewer}.html", viewer=viewer)
        sizes[viewer] = path.stat().st_size
    print(f"replay page, {game.step} actions: all-seeing {sizes[None] / 1024:.0f} KiB, "
          f"one player {sizes[0] / 1024:.0f} KiB")
    # The pages also carry their downloads (Markdown; the all-seeing one the replay file too),
    # glyphs and the score graph's series. Of a one-player page (~327 KiB), the front-end is
    # ~180 KiB (the table's own panels and keys, issue 27, added ~13 KiB; the table client and
    # the lost-kernel notice, issues 29 and 26, ~10 KiB) and the book ~118 KiB.
    assert sizes[None] < 445 * 1024 and sizes[0] < 335 * 1024


def test_the_widget_writes_the_page_of_what_it_shows(game: Game, tmp_path: Path) -> None:
    r = ReplayWidget(Replay.from_game(game), viewer=1, step=9, hide_tags=["spoiler", "later"])
    page = r.to_html(tmp_path / "shown.html").read_text("utf-8")
    book = json.loads(re.search(r'id="leyline-replay-book">(.*?)</script>', page, re.S)
                      .group(1))  # type: ignore[union-attr]
    assert book["start"] == {"step": 9, "variation": 0, "viewer": 1}
    assert book["hide_tags"] == ["later", "spoiler"]
    with pytest.raises(ValueError, match="self-contained"):
        r.to_html(tmp_path / "x.html", assets="cdn")


def test_replay_imports_no_widget_code() -> None:
    code = ("import sys, leyline_widget.replays.replay as r; "
            "assert 'anywidget' not in sys.modules "
            "and 'leyline_widget.widgets.play' not in sys.modules "
            "and 'leyline_widget.widgets.replay' not in sys.modules; print('ok')")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=False)
    assert out.stdout.strip() == "ok", out.stderr


def test_bad_arguments_are_refused_in_words(game: Game) -> None:
    with pytest.raises(ValueError, match="replay must be a Replay"):
        ReplayWidget(game)  # type: ignore[arg-type]
    with pytest.raises(traitlets.TraitError, match="no variation 3"):
        ReplayWidget(Replay.from_game(game), variation=3)
