"""Leyline in Jupyter: thin anywidget adapters over a :class:`~leyline_widget.core.game.Game`.

The front-end (``js/src/``, bundled) renders from synced traits alone and never decides a rule:

- ``view``: ``game.observation(seat)`` for the widget's viewer seat;
- ``legal``: a compact summary of ``game.legal_actions()`` for the seat that may act from this
  widget now (what is clickable, and why the rest is not, in the engine's words);
- ``events``: the last batch of events the viewer may see (brief reveals, peeks), numbered;
- ``error``: the last refusal as a sentence, ``""`` after a legal action;
- ``info``: what never changes in a game (elements, power texts, thresholds, seats).

- ``log_past`` and ``log``: the whole game in words for the viewer, grouped by turn
  (:func:`game_log`; the finished turns, then the turn being played with the marks of what
  the other seats did): it survives a reload and never names the element of a card that is
  inert now. A finished turn is sent once, in ``log["recent"]`` (``{"from": index, "turns"}``:
  the page appends them to its copy of ``log_past``); ``log_past`` itself is sent whole only
  when the finished turns change (a new game, an undo, another seat's eyes);
- ``shown_seq``: the last event batch the page has shown, so a view rendered again never
  replays a reveal; ``handoff``: between two human seats, the seat the board waits to be
  passed to (the page hides the board until that player says they are ready);
- ``deal_ms``: how long the set-up deal stays face-up (it starts when the board is on screen
  and the players press Ready); ``session``: the results of the games of this widget.

It sends custom messages: ``{"type": "action", "action": {...}}`` for a human move,
``{"type": "bot_step", "step": n}`` when its pacing delay for a bot move is over (so the
kernel never sleeps), ``{"type": "shown", "seq": n}`` once it has shown batch ``n``,
``{"type": "log_sync"}`` when its copy of the finished turns has a gap (a second view of
the widget opened after turns went out to the first: ``log_past`` is then sent whole again),
``{"type": "ready"}`` when the next player has taken the seat, ``{"type": "undo"}`` (take back
the Binding tokens of this turn), ``{"type": "new_game"}`` and ``{"type": "rematch"}`` (with
``"seats"``: each seat's kind for the next game, ``"human"`` or a bot kind).
Anything else gets an error and changes nothing.

>>> from leyline_widget import Game
>>> w = LeylineWidget(Game.new(players=1, seed=3))
>>> w.view["phase"], w.error
('activation', '')
>>> w.send_message({"type": "action", "action": {"type": "activate", "slot": 99}})
>>> w.error
'Slot 99 does not exist: the grid has slots 0 to 11.'
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, cast

import traitlets

from ..agents.bots import BOT_KINDS, Bot, BotSeat, make_bot
from ..core.actions import Action, EndPhase, Refill
from ..core.echo import quote
from ..core.game import Game, Phase, visible_events
from ..core.rules import Rules
from ..core.types import Event
from ..teach.memory import memory_report
from .base import (
    BoardWidget,
    Handler,
    Message,
    PageCheck,
    count,
    milliseconds,
    only,
    refusal,
    seat_or_none,
)
from .presenters import ACTIVE, TEACHER, GameLog, bot_name, game_info, legal_summary, parse_seats
from .together import adopt, table_for, table_saving

if TYPE_CHECKING:
    from .table import TableWidget

__all__ = ["LeylineWidget"]


class LeylineWidget(BoardWidget):
    """Play Leyline in a notebook: solo, hot-seat, or against bots.

    ``LeylineWidget(game)`` wraps a live Game (``w.game``); ``LeylineWidget(players=2,
    seed=7)`` or ``LeylineWidget(players=["You", "greedy"])`` deals a new one, where an entry
    naming a bot kind (random, greedy, memory, expert) is a bot seat. With a ``game``, give bot
    seats as ``bots={1: "greedy"}`` (a kind or a :class:`~leyline_widget.agents.bots.Bot`).

    ``viewer`` is ``"active"`` (hot-seat: whoever's turn it is among the humans; the default),
    a seat number (that player's eyes only; they act on their own turns), or ``None`` /
    ``"teacher"`` (the all-seeing view, for teaching). ``reveal_ms`` is how long a card added
    to the grid (or peeked at) stays element-up; ``deal_ms`` how long the set-up deal shows (by
    default 1.5 s plus 0.3 s per grid slot; 0 shows no deal, and asks for no Ready);
    ``bot_delay_ms`` is the pause before each bot move, which the front-end waits out before
    asking for it.

    At the table: between two human seats of the hot-seat view, ``handoff`` names the next
    seat and the page hides the board until that player clicks (``{"type": "ready"}``; moves
    from the page wait for it). :meth:`undo` takes back this turn's Binding tokens,
    :meth:`new_game` and :meth:`rematch` deal again with the same settings.

    ``show_memory_of`` (a seat; teacher view only) adds the teacher's memory panel: which grid
    cards that player has seen and when, which they never saw, and the collections they could
    have made but missed (the ``memory`` trait, :func:`~leyline_widget.teach.memory.memory_report`).
    The page may switch the seat; a viewer other than the teacher gets an empty ``memory``.

    >>> from leyline_widget import EndPhase
    >>> w = LeylineWidget(players=["You", "greedy"], seed=5)
    >>> w.info["players"][1]
    {'name': 'Greedy bot', 'bot': 'greedy'}
    >>> _ = w.play(EndPhase()), w.play(EndPhase())   # pass, end the turn: the bot is next
    >>> w.legal["bot"], w.step_bots() > 0, w.game.active_player
    ('greedy', True, 0)
    """

    _NOTICES = BoardWidget._NOTICES | {"log_sync"}  # the page's copy of the log: no click

    bot_delay_ms = traitlets.Int(800).tag(sync=True)
    show_memory_of = traitlets.Any(None).tag(sync=True)
    memory = traitlets.Dict().tag(sync=True)
    log = traitlets.Dict().tag(sync=True)
    log_past: traitlets.List[dict[str, Any]] = traitlets.List().tag(sync=True)
    shown_seq = traitlets.Int(0).tag(sync=True)
    handoff = traitlets.Dict().tag(sync=True)
    deal_ms = traitlets.Int(5000).tag(sync=True)
    session: traitlets.List[dict[str, Any]] = traitlets.List().tag(sync=True)
    #: The coach's Hint button: ``{}`` when off; else ``enabled``, ``used`` (hints per seat)
    #: and, while the position it answers stands, the ``suggestion`` for that ``seat``.
    hint = traitlets.Dict().tag(sync=True)
    #: Each seat's table settings: ``skip_phase1`` (seats for whom a card click in Phase 1
    #: means "no power this turn" and activates the card) and ``confirm_end`` (seats whose
    #: turn waits for End turn even when no Binding token can be placed).
    prefs: traitlets.Dict[str, list[int]] = traitlets.Dict(
        {"skip_phase1": list[int](), "confirm_end": list[int]()}).tag(sync=True)
    #: Once the game is over nothing is hidden any more: every grid slot's element (None for
    #: an empty slot), so the page can turn the final grid face up. Empty while it goes on.
    final_grid: traitlets.List[str | None] = traitlets.List().tag(sync=True)
    _page_writable: ClassVar[dict[str, PageCheck]] = {"bot_delay_ms": count,
                                                      "show_memory_of": seat_or_none}

    def __init__(self, game: Game | None = None, *, players: int | Sequence[str] | None = None,
                 seed: int | None = None, rules: Rules | None = None,
                 viewer: int | str | None = ACTIVE, bots: Mapping[int, str | Bot] | None = None,
                 bot_seed: int | None = None, reveal_ms: int = 1500, deal_ms: int | None = None,
                 bot_delay_ms: int = 800, show_memory_of: int | None = None,
                 hints: bool = False, autosave: bool = True) -> None:
        kinds: dict[int, str] = {}
        if game is None:
            names, kinds = parse_seats(1 if players is None else players)
            game = Game.new(players=names, seed=seed, rules=rules)
        elif not isinstance(game, Game):
            raise ValueError(f"game must be a Game, got {type(game).__name__}")
        elif players is not None or seed is not None or rules is not None:
            raise ValueError("give either a game or players/seed/rules to deal one, not both")
        if not isinstance(autosave, bool):
            raise ValueError(f"autosave must be True or False, got {quote(autosave)}")
        self.game = game
        seats: dict[int, Bot | str] = dict(kinds)
        for seat, bot in (bots or {}).items():
            if isinstance(seat, bool) or not isinstance(seat, int) or not (
                    0 <= seat < len(game.players)):
                raise ValueError(f"bots: seat {quote(seat)} does not exist; seats are 0 to "
                                 f"{len(game.players) - 1}")
            if not isinstance(bot, (str, Bot)):
                raise ValueError(f"bots: seat {seat} needs a bot kind or a Bot, got {quote(bot)}")
            seats[seat] = bot
        table = table_for(game)
        if table.specs is not None:
            seats = self._shared_seats(table.specs, seats)
        self._table = table
        self._bot_seed = bot_seed
        self._seat_specs = seats
        self._auto_deal = deal_ms is None
        bot_kinds = self._seat_bots(seats, game.seed if bot_seed is None else bot_seed)
        self._last_batch: list[Event] = list(game.event_log[-1])
        if not isinstance(hints, bool):
            raise ValueError(f"hints must be True or False, got {quote(hints)}")
        self._hints_on = hints
        self._hints: list[tuple[int, int]] = []  # (turn, seat) of each hint asked for
        self._binding_at: Game | None = self._binding_start(game)
        self._unsaved = ""  # why the last move could not be saved, shown with the next update
        self._recorded = game.is_over
        viewer = self._viewer_value(viewer)
        self._memory_seat(show_memory_of, viewer)
        self._shown_seat: int | None = None
        self._logs: dict[int | None, GameLog] = {}  # per seat: each step's events read once
        self._past_sent = 0  # finished turns of log_past the page holds (see _log_past)
        self._deal_seq = 0  # the event batch holding the set-up deal, while it must be shown
        super().__init__(mode="play", viewer=viewer, reveal_ms=reveal_ms,
                         deal_ms=self._deal_default(game) if deal_ms is None else deal_ms,
                         bot_delay_ms=bot_delay_ms, info=game_info(game, bot_kinds),
                         show_memory_of=show_memory_of)
        self._shown_seat = self.seat()
        self._sync(self._last_batch)
        table.join(self)
        problem = table.start_save(autosave, self._save_settings)
        if problem:
            self.error = refusal(problem)

    @staticmethod
    def _shared_seats(have: Mapping[int, Bot | str],
                      asked: Mapping[int, Bot | str]) -> dict[int, Bot | str]:
        """The bot seats of a game another widget shows already: that widget's (a bot plays
        once, whichever board asks); giving other bots is refused."""
        def kinds(specs: Mapping[int, Bot | str]) -> dict[int, str]:
            return {s: b if isinstance(b, str) else b.name for s, b in specs.items()}
        if asked and kinds(asked) != kinds(have):
            raise ValueError(f"bots: another widget shows this game with bot seats "
                             f"{kinds(have) or 'none'}; widgets on one game share them, so "
                             "give no bots (or the same)")
        return dict(have)

    def _save_settings(self) -> dict[str, Any]:
        """How :meth:`resume` shows this game again: seats, viewer and pace (JSON)."""
        return {"viewer": self.viewer, "bot_seed": self._bot_seed, "hints": self._hints_on,
                "bots": {str(s): b if isinstance(b, str) else b.name
                         for s, b in sorted(self._seat_specs.items())},
                "reveal_ms": self.reveal_ms, "bot_delay_ms": self.bot_delay_ms,
                "deal_ms": None if self._auto_deal else self.deal_ms,
                "show_memory_of": self.show_memory_of}

    @classmethod
    def join(cls, link: str, **options: Any) -> TableWidget:
        """Take a seat at a table over the network (the kernel is the client): ``link`` is
        the seat's link from ``leyline table new`` (``http://host:port/t/<table>?seat=...``),
        a spectator's (``?watch=``) or a teacher's (``#teacher=``). See
        :class:`~leyline_widget.widgets.table.TableWidget` and docs/tables.md."""
        from .table import TableWidget

        return TableWidget(link, **options)

    def _seat_bots(self, seats: Mapping[int, Bot | str], base: int | None) -> dict[int, str]:
        """Seat the bots of ``seats`` (seat -> kind or Bot) for ``self.game``, or share those
        another widget on the game seated already; their kinds."""
        table = self._table
        if table.bots is None:
            seated: dict[int, BotSeat] = {}
            for seat, bot in sorted(seats.items()):
                if isinstance(bot, str):
                    bot = make_bot(bot, seed=None if base is None else base * 10 + seat)
                seated[seat] = BotSeat(bot, seat)
            table.specs, table.bots = dict(seats), seated
        self._bots: dict[int, BotSeat] = table.bots
        bot_kinds = {seat: b.bot.name for seat, b in sorted(self._bots.items())}
        self._last_human = self._human_before(self.game, self._bots)
        return bot_kinds

    @staticmethod
    def _binding_start(game: Game) -> Game | None:
        """In the Binding phase, the game as the phase began (what :meth:`undo` goes back to),
        for a game resumed or joined mid-phase; else None."""
        if game.phase is not Phase.BINDING:
            return None
        from ..replays.replay import Replay

        replay = Replay.from_game(game)
        step = game.step
        while step > 0 and replay.game_at(step - 1).phase is Phase.BINDING:
            step -= 1
        return replay.game_at(step)

    @staticmethod
    def _human_before(game: Game, bots: Mapping[int, object]) -> int:
        """The human seat whose eyes the hot-seat view shows now: the active player, or on a
        bot's turn the human who played last (turns go round in seat order), as if the board
        had followed the game from its start (a game resumed or joined mid-way)."""
        n = len(game.players)
        for back in range(min(game.turn, n)):
            seat = (game.active_player - back) % n
            if seat not in bots:
                return seat
        humans = [p for p in range(n) if p not in bots]
        return humans[0] if humans else 0

    @staticmethod
    def _deal_default(game: Game) -> int:
        """The set-up deal's length: 1.5 s plus 0.3 s per card dealt (12 cards: 5.1 s)."""
        return min(60_000, 1500 + 300 * game.rules.grid_rows * game.rules.grid_cols)

    @traitlets.validate("deal_ms")
    def _check_deal_ms(self, proposal: Any) -> int:
        return milliseconds(proposal["value"], "the deal time (deal_ms)")

    # -- viewer --------------------------------------------------------------------------
    def _viewer_value(self, viewer: object) -> int | str | None:
        if viewer is None or viewer == TEACHER:
            return None
        if viewer == ACTIVE:
            return ACTIVE
        n = len(self.game.players)
        if isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < n:
            raise ValueError(f"viewer must be 'active', None ('teacher') or a seat from 0 to "
                             f"{n - 1}, got {quote(viewer)}")
        return viewer

    @traitlets.validate("viewer")
    def _check_viewer(self, proposal: Any) -> int | str | None:
        try:
            return self._viewer_value(proposal["value"])
        except ValueError as err:
            raise traitlets.TraitError(str(err)) from None

    @traitlets.observe("viewer")
    def _viewer_changed(self, _change: Any) -> None:
        # The last batch was filtered for the old eyes: filter it again for the new ones, under
        # the same number, so that a batch the page has shown is not shown again.
        self._sync(None)
        seq = self.events.get("seq", 0)
        self.events = {"seq": seq, "step": self.events.get("step", self.game.step),
                       "items": visible_events(self._last_batch, self.seat())}
        self._drop_shown()

    def _memory_seat(self, seat: object, viewer: object) -> int | None:
        if seat is None:
            return None
        n = len(self.game.players)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"the memory panel (show_memory_of) takes None or a seat from 0 "
                             f"to {n - 1}, got {quote(seat)}")
        if viewer is not None:
            # The panel names every hidden card: only the all-seeing teacher may see it.
            raise ValueError("the memory panel (show_memory_of) needs the teacher view "
                             "(viewer='teacher'): it shows every hidden card")
        return seat

    @traitlets.validate("show_memory_of")
    def _check_memory_of(self, proposal: Any) -> int | None:
        try:
            return self._memory_seat(proposal["value"], self.viewer)
        except ValueError as err:
            raise traitlets.TraitError(str(err)) from None

    @traitlets.observe("show_memory_of")
    def _memory_of_changed(self, _change: Any) -> None:
        self._sync(None)

    @traitlets.validate("bot_delay_ms")
    def _check_delay(self, proposal: Any) -> int:
        return milliseconds(proposal["value"], "the bot pace (bot_delay_ms)")

    def _summary(self) -> str:
        """``2p turn 3 Ada to play, viewer active`` (see :meth:`__repr__`).

        >>> LeylineWidget(players=["Ada", "greedy"], seed=1)
        <LeylineWidget 2p turn 1 Ada to play, viewer active>
        """
        game = self.game
        if game.is_over:
            now = f"turn {game.turn}, game over ({game.end_reason})"
        else:
            who = game.players[game.active_player]
            bot = " (bot)" if game.active_player in self._bots else ""
            now = f"turn {game.turn} {who}{bot} to play"
        viewer = self.viewer
        eyes = ("teacher" if viewer is None else viewer if isinstance(viewer, str)
                else f"{game.players[viewer]} (seat {viewer})")
        return f"{len(game.players)}p {now}, viewer {eyes}"

    @property
    def bots(self) -> dict[int, Bot]:
        """The bot of each bot seat."""
        return {seat: s.bot for seat, s in self._bots.items()}

    def seat(self) -> int | None:
        """The seat whose eyes ``view`` shows (None: the teacher's all-seeing view)."""
        if self.viewer is None:
            return None
        if isinstance(self.viewer, int):
            return self.viewer
        return self._last_human

    def actor(self) -> int | None:
        """The seat that may act from this widget now, or None (a bot's turn, game over, ...)."""
        game = self.game
        if game.is_over or game.active_player in self._bots:
            return None
        if isinstance(self.viewer, int) and self.viewer != game.active_player:
            return None
        return game.active_player

    # -- state ---------------------------------------------------------------------------
    def _sync(self, events: list[Event] | None) -> None:
        """Replace view and legal from the game; publish ``events`` (a new batch) if given."""
        game = self.game
        if game.active_player not in self._bots:
            self._last_human = game.active_player
        seat = self.seat()
        actor = self.actor()
        view = cast(dict[str, Any], game.observation(seat))
        legal = legal_summary(game, actor, view["grid"])
        bot = self._bots.get(game.active_player)
        if bot is not None and not game.is_over:
            legal["bot"] = bot.bot.name
        snap = self._binding_at
        if actor is not None and snap is not None and game.step > snap.step:
            legal["undo"] = True
        memory_of = self.show_memory_of
        with self.hold_sync():
            self.memory = ({} if seat is not None or memory_of is None
                           else memory_report(game, memory_of))
            self.view = view
            self.legal = legal
            log = self._logs.setdefault(seat, GameLog(seat)).update(game, view["grid"])
            turns = log.pop("turns")
            self._log_hints(turns)
            recent = self._log_past(turns[:-1])
            self.log = {**log, "turns": turns[-1:], "past": len(turns) - 1, "recent": recent}
            humans = len(game.players) - len(self._bots)
            if (self.viewer == ACTIVE and humans > 1 and self._shown_seat is not None
                    and seat != self._shown_seat and not game.is_over):
                # Hot-seat: the board now shows another player's eyes; it waits for them.
                self.handoff = {"to": seat, "from": self._shown_seat}
            elif self.viewer != ACTIVE:
                self.handoff = {}
            self._shown_seat = seat
            if game.is_over and not self._recorded:
                self._recorded = True
                self.session = [*self.session, {
                    "players": list(game.players), "scores": game.scores(),
                    "winners": game.winners(), "turns": game.turn,
                    "reason": game.end_reason}]
            if events is not None:
                self._last_batch = events
                self._publish(visible_events(events, seat), game.step)
                if any(ev.get("type") == "reveal" and ev.get("cause") == "setup"
                       for ev in events):
                    self._deal_seq = cast(int, self.events["seq"])
            final = ([cell.get("element") for cell in game.observation(None)["grid"]]
                     if game.is_over else [])
            if final != self.final_grid:
                self.final_grid = final

    def _log_past(self, past: list[dict[str, Any]]) -> dict[str, Any]:
        """Keep ``log_past`` whole in the kernel (a reload reads it) but send each finished
        turn once: finished turns never change (:func:`game_log`'s rule), so while the turns
        the page holds still stand, the new ones are appended in place (no update of
        ``log_past``) and travel in ``log["recent"]`` (``from``: where they go). Another
        game, an undo or another seat's eyes may change them: then ``log_past`` is sent whole."""
        have = self.log_past
        n = self._past_sent
        if len(have) >= n <= len(past) and all(
                a is b or a == b for a, b in zip(have[:n], past[:n], strict=True)):
            have[n:] = past[n:]
            return {"from": n, "turns": past[n:]}
        self.log_past = list(past)
        self._past_sent = len(past)
        return {"from": len(past), "turns": []}

    def send_state(self, key: Any = None) -> None:
        """Send the state (ipywidgets); once ``log`` went out, the page holds its turns."""
        super().send_state(key)
        keys = self.keys if key is None else [key] if isinstance(key, str) else key
        if "log" in keys:
            self._past_sent = max(0, self.log.get("past", 0))

    def _apply(self, action: Action) -> list[Event]:
        events = self._take(action)
        self._show(events)
        return events

    def _take(self, action: Action) -> list[Event]:
        """Apply one move to the game: the engine judges it; it is saved first, then shown on
        the game's other widgets (this one shows it with its click's batch, :meth:`_show`)."""
        before = self.game.phase
        events = self.game.apply(action)
        self._follow_binding(before)
        self._unsaved = self._table.moved(action, events, before, origin=self) or self._unsaved
        return events

    def _show(self, events: list[Event]) -> None:
        """One update of the page: the batch of events, and no error but a failed save."""
        with self.hold_sync():
            self.error = refusal(self._unsaved) if self._unsaved else ""
            self._unsaved = ""
            self._sync(events)

    def _follow_binding(self, before: Phase) -> None:
        """Keep the position at the start of the Binding phase (for undo) while it lasts."""
        if self.game.phase is not Phase.BINDING:
            self._binding_at = None
        elif before is not Phase.BINDING:
            self._binding_at = self.game.clone()

    def _moved(self, events: list[Event], before: Phase) -> None:
        """Show a move another widget made on this game."""
        self._follow_binding(before)
        self._show(events)

    def _replaced(self, game: Game) -> None:
        """Show ``game``, which took the place of this widget's (a take-back)."""
        self.game = game
        self._show([])

    def close(self) -> None:
        """Close the widget; it no longer follows its game."""
        table = getattr(self, "_table", None)  # None: a widget whose making failed
        if table is not None:
            table.leave(self)
        super().close()

    def _apply_page(self, actions: Sequence[Action]) -> None:
        """A click's moves, in order, then the end of the turn when the player can place no
        Binding token and did not ask to confirm it: one batch of events, one update. A move
        the engine refuses stops there; the moves before it stand (each was legal)."""
        events: list[Event] = []
        try:
            for action in actions:
                if self.game.is_over:
                    break  # a refill met the empty deck: the game ended there
                events += self._take(action)
            if self._nothing_to_bind():
                events += self._take(EndPhase())
        finally:
            if events:
                self._show(events)

    def _nothing_to_bind(self) -> bool:
        """Phase 3 with End turn the only legal move, for a seat that did not ask to confirm."""
        game = self.game
        if game.phase is not Phase.BINDING or game.active_player in self.prefs["confirm_end"]:
            return False
        legal = game.legal_actions()
        return len(legal) == 1 and isinstance(legal[0], EndPhase)

    def set_prefs(self, seat: int, *, skip_phase1: bool | None = None,
                  confirm_end: bool | None = None) -> None:
        """Table settings for ``seat``: ``skip_phase1`` (a card clicked in Phase 1 with no
        power chosen means no power this turn, and activates that card) and ``confirm_end``
        (wait for End turn even when no Binding token can be placed; off: the turn ends by
        itself then)."""
        n = len(self.game.players)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"prefs: seat must be from 0 to {n - 1}, got {quote(seat)}")
        prefs = {k: list(v) for k, v in self.prefs.items()}
        for name, value in (("skip_phase1", skip_phase1), ("confirm_end", confirm_end)):
            if value is None:
                continue
            if not isinstance(value, bool):
                raise ValueError(f"prefs: {name} takes true or false, got {quote(value)}")
            seats = set(prefs[name]) - {seat} | ({seat} if value else set())
            prefs[name] = sorted(seats)
        self.prefs = prefs

    def _dealt(self) -> None:
        """Refuse a page's move while the set-up deal waits to be shown (deal_ms 0 shows no
        deal: nothing to wait for). The page marks the batch shown once the players pressed
        Ready; a script's :meth:`play` is not held back."""
        if self.deal_ms > 0 and self.shown_seq < self._deal_seq:
            raise ValueError("the deal has not been shown yet: press Ready to see the grid "
                             "first")

    # -- Python API ----------------------------------------------------------------------
    def play(self, action: Action | Mapping[str, Any]) -> list[Event]:
        """Apply a human move from Python, as a click would; illegal moves raise and change
        nothing (``IllegalActionError``)."""
        if not isinstance(action, Action):
            action = Action.from_dict(action)
        self._check_turn()
        return self._apply(action)

    def undo(self) -> None:
        """Take back every Binding token placed this turn (the game returns to the start of its
        Binding phase). Phase 3 reveals nothing, so nobody learns anything from an undo; it
        is possible until End turn. ``w.game`` is a new Game afterwards."""
        self._check_turn()
        snap = self._binding_at
        if snap is None or self.game.phase is not Phase.BINDING:
            raise ValueError("only Binding tokens placed this turn can be undone (in Phase 3, "
                             "before End turn)")
        if self.game.step == snap.step:
            raise ValueError("no Binding token has been placed this turn: nothing to undo")
        problem = self._table.replaced(snap.clone())
        if problem:
            self.error = refusal(problem)

    def new_game(self, *, seed: int | None = None, swap: bool = False,
                 seats: Sequence[str] | None = None) -> None:
        """Deal a new game with the same players, rules and bots (a new ``seed``: random when
        not given). ``swap=True`` is a rematch: the seats move on by one, so that the second
        player goes first (in two-player games the seats swap). ``seats`` gives each seat's
        kind for the new game, in today's seat order: ``"human"`` or a bot kind (random,
        memory, greedy, expert); a seat that changes kind gets a name that says so."""
        old = self.game
        n = len(old.players)
        current, names = dict(self._seat_specs), list(old.players)
        if seats is not None:
            current, names = self._reseat(seats)
        shift = 1 if swap and n > 1 else 0
        names = [names[(i + shift) % n] for i in range(n)]
        specs = {(seat - shift) % n: bot for seat, bot in current.items()}
        new_seed = secrets.randbelow(2**31) if seed is None else seed
        game = Game.new(players=names, seed=new_seed, rules=old.rules)
        self.game = game
        self._seat_specs = specs
        # The new game is this widget's alone (the other views keep the finished one).
        autosave = bool(self._table.autosave)
        self._table.leave(self)
        self._table = table_for(game)
        bot_kinds = self._seat_bots(specs, new_seed if self._bot_seed is None else self._bot_seed)
        self._binding_at = None
        self._hints = []
        self._recorded = False
        self._deal_seq = 0
        with self.hold_sync():
            self.info = game_info(game, bot_kinds)
            if self._auto_deal:
                self.deal_ms = self._deal_default(game)
            self.error = ""
            self.handoff = {}
            self._shown_seat = None
            if isinstance(self.viewer, int) and shift:
                self.set_trait("viewer", (self.viewer - shift) % n)
            self._sync(list(game.event_log[-1]))
            self._shown_seat = self.seat()
        self._table.join(self)
        problem = self._table.start_save(autosave, self._save_settings)
        if problem:
            self.error = refusal(problem)

    @classmethod
    def resume(cls, id: str | None = None) -> LeylineWidget:
        """The latest unfinished saved game (or the one saved as ``id``; see
        :func:`~leyline_widget.replays.saves.saved_games`) at its last move, with the same
        seats, bots and viewer; its moves go on being saved to the same file. After a kernel
        restart, this is how a game goes on. A game still shown in this kernel is joined (one
        more view of the same game). ValueError when nothing is saved, or the file is damaged.
        """
        from ..replays.saves import SaveError, games_folder, load, saved_games

        if id is None:
            open_games = [g for g in saved_games() if not g.finished and not g.error]
            if not open_games:
                raise ValueError(f"no unfinished game is saved in {games_folder()} (see "
                                 "leyline_widget.saved_games())")
            id = open_games[0].id
        live = table_saving(id) if isinstance(id, str) else None
        table = live
        if table is None:
            game, settings, journal = load(id)
            table = adopt(game, journal)  # held here: the widget below joins it
        else:
            game, settings = table.game, table.journal.settings if table.journal else {}
        try:
            bots = settings.get("bots") or {}
            widget = cls(game, viewer=settings.get("viewer", ACTIVE),
                         bots={int(seat): kind for seat, kind in bots.items()},
                         bot_seed=settings.get("bot_seed"),
                         reveal_ms=settings.get("reveal_ms", 1500),
                         deal_ms=settings.get("deal_ms"),
                         bot_delay_ms=settings.get("bot_delay_ms", 800),
                         show_memory_of=settings.get("show_memory_of"),
                         hints=settings.get("hints", False))
        except (ValueError, TypeError, AttributeError, traitlets.TraitError) as err:
            raise SaveError(f"the saved game {quote(id)} cannot be shown again: "
                            f"{str(err)[:200]}") from None
        if live is None:
            # The last move was shown before the kernel went: its reveals are not shown again.
            widget._last_batch = []
            widget.events = {**widget.events, "items": []}
            if (widget.viewer == ACTIVE and not game.is_over
                    and len(game.players) - len(widget._bots) > 1):
                # Hot-seat: whoever sits at the screen now, the board waits for its player.
                widget.handoff = {"to": widget.seat(), "from": None}
        return widget

    def rematch(self, *, seed: int | None = None, seats: Sequence[str] | None = None) -> None:
        """A new game with the same settings and a new seed, the seats swapped (``seats``:
        as for :meth:`new_game`, in today's seat order: each kind moves with its player)."""
        self.new_game(seed=seed, swap=True, seats=seats)

    def _reseat(self, seats: object) -> tuple[dict[int, Bot | str], list[str]]:
        """The bot seats and names ``seats`` asks for (checked whole before anything changes)."""
        game = self.game
        n = len(game.players)
        kinds = ("human", *BOT_KINDS)
        if isinstance(seats, (str, bytes)) or not isinstance(seats, Sequence) or len(seats) != n:
            raise ValueError(f"seats must list the kind of each of the {n} seats "
                             f"({', '.join(kinds)}), got {quote(seats)}")
        was: dict[int, str] = {p: spec if isinstance(spec, str) else spec.name
                               for p, spec in self._seat_specs.items()}
        for p, kind in enumerate(seats):
            # A Bot given at start keeps its seat under its own name.
            if not isinstance(kind, str) or (kind not in kinds and kind != was.get(p)):
                raise ValueError(f"seats: seat {p} must be one of {', '.join(kinds)}, got "
                                 f"{quote(kind)}")
        if isinstance(self.viewer, int) and seats[self.viewer] != "human":
            raise ValueError(f"seats: seat {self.viewer} is this widget's player (viewer="
                             f"{self.viewer}); it stays human")
        specs: dict[int, Bot | str] = {}
        names = list(game.players)
        for p, kind in enumerate(seats):
            spec = self._seat_specs.get(p)
            if kind == "human":
                if spec is not None:
                    names[p] = f"Player {p + 1}"
            elif spec is not None and kind == was[p]:
                specs[p] = spec  # the same bot (a Bot given at start stays that Bot)
            else:
                specs[p] = kind
                names[p] = bot_name(kind, [m for q, m in enumerate(names) if q != p])
        return specs, names

    def step_bots(self, max_actions: int | None = None) -> int:
        """Play bot moves at once (no pacing) until a human's turn or the end; return how many."""
        done = 0
        while (max_actions is None or done < max_actions) and not self.game.is_over:
            seat = self._bots.get(self.game.active_player)
            if seat is None:
                break
            self._apply(seat.act(self.game))
            done += 1
        return done

    def _check_turn(self) -> None:
        game = self.game
        if game.is_over:
            raise ValueError(f"the game is over ({game.end_reason}); no move is possible")
        p = game.active_player
        if p in self._bots:
            raise ValueError(f"it is {game.players[p]}'s turn (a bot); wait for its move")
        if isinstance(self.viewer, int) and self.viewer != p:
            raise ValueError(f"it is {game.players[p]}'s turn; this widget plays for "
                             f"{game.players[self.viewer]}")

    # -- messages ------------------------------------------------------------------------
    def _handlers(self) -> dict[str, Handler]:
        return {"action": self._on_action, "bot_step": self._on_bot_step,
                "shown": self._mark_shown, "log_sync": self._on_log_sync,
                "ready": self._on_ready, "undo": self._on_undo,
                "new_game": self._on_new_game, "rematch": self._on_rematch, "hint": self._on_hint,
                "prefs": self._on_prefs, "refill_all": self._on_refill_all}

    def _on_refill_all(self, content: Message) -> None:
        """One click for the whole refill: the deck's cards go into the empty slots in slot
        order (the player may still click each slot to choose)."""
        only(content, "refill_all", ("step",))
        if self._stale(content, "refill_all"):
            raise ValueError(f"that click was for step {content['step']}, but the game has "
                             f"moved on to step {self.game.step}; try again")
        self._dealt()
        self._waiting_for_handoff()
        self._check_turn()
        slots = sorted(a.slot for a in self.game.legal_actions() if isinstance(a, Refill))
        if not slots:
            raise ValueError("there is no empty slot to refill now (Refill comes after "
                             "Phase 2)")
        self._apply_page([Refill(s) for s in slots])

    def _on_prefs(self, content: Message) -> None:
        only(content, "prefs", ("skip_phase1", "confirm_end"))
        seat = self.actor()
        if seat is None:
            seat = self.seat()
        if seat is None:
            raise ValueError("prefs are a player's: the teacher's view has no seat of its own")
        self.set_prefs(seat, skip_phase1=content.get("skip_phase1"),
                       confirm_end=content.get("confirm_end"))
        self.error = ""

    # -- the coach's hint ------------------------------------------------------------------
    def ask_hint(self) -> dict[str, Any]:
        """The expert's move for the seat to act, from that seat's information (the Hint
        button; needs ``hints=True``). Each hint is counted, and the log says so."""
        if not self._hints_on:
            raise ValueError("hints are off: make the widget with hints=True to use the coach")
        self._waiting_for_handoff()
        seat = self.actor()
        if seat is None:
            raise ValueError("a hint is for the player whose turn it is, on their turn")
        from ..agents.analysis import hint

        suggestion = hint(self.game, seat, seed=self._bot_seed or 0).to_dict()
        self._hints.append((self.game.turn, seat))
        with self.hold_sync():
            self.hint = {**self._hint_base(), "seat": seat, "step": self.game.step,
                         "suggestion": suggestion}
            self.error = ""
            self._sync(None)
        return suggestion

    def _hint_base(self) -> dict[str, Any]:
        used = [0] * len(self.game.players)
        for _, seat in self._hints:
            used[seat] += 1
        return {"enabled": True, "used": used}

    def _log_hints(self, turns: list[dict[str, Any]]) -> None:
        """Count the hints in the log, and drop a suggestion once its position has gone (or
        the board shows another seat): it names what that seat knew then."""
        if not self._hints_on:
            if self.hint:
                self.hint = {}
            return
        names = self.game.players
        asked: dict[tuple[int, int], int] = {}
        for key in self._hints:
            asked[key] = asked.get(key, 0) + 1
        for i, entry in enumerate(turns):
            for (turn, seat), k in asked.items():
                if entry["turn"] == turn and entry["player"] == seat:
                    # A copy: the log's finished turns are kept and shared between steps.
                    turns[i] = entry = {**entry, "lines": [
                        *entry["lines"], f"{names[seat]} asked the coach for "
                        + ("a hint" if k == 1 else f"{k} hints")]}
        current = self.hint
        keep = (current.get("step") == self.game.step and current.get("seat") == self.seat()
                and "suggestion" in current)
        self.hint = current if keep else self._hint_base()

    def _on_hint(self, content: Message) -> None:
        only(content, "hint", ())
        self._dealt()
        self.ask_hint()


    def _on_log_sync(self, content: Message) -> None:
        # log_past is kept whole here but only its new turns travel (_log_past): a view that
        # opened on an older copy asks for the whole of it, once.
        only(content, "log_sync", ())
        self._past_sent = len(self.log_past)
        self.send_state("log_past")

    def _on_ready(self, content: Message) -> None:
        only(content, "ready", ())
        self.handoff = {}

    def _on_undo(self, content: Message) -> None:
        only(content, "undo", ())
        self._dealt()
        self._waiting_for_handoff()
        self.undo()

    def _on_new_game(self, content: Message) -> None:
        only(content, "new_game", ("seats",))
        self.new_game(seats=content.get("seats"))

    def _on_rematch(self, content: Message) -> None:
        only(content, "rematch", ("seats",))
        self.rematch(seats=content.get("seats"))

    def _waiting_for_handoff(self) -> None:
        to = self.handoff.get("to")
        if isinstance(to, int):
            name = self.game.players[to]
            raise ValueError(f"pass the board to {name} first: {name} clicks when ready")

    def _stale(self, content: Message, kind: str) -> bool:
        """Whether the message's ``step`` is not the game's (another view already moved on).

        A step that is not a whole number from 0 up is refused.
        """
        if "step" not in content:
            return False
        step = content["step"]
        if isinstance(step, bool) or not isinstance(step, int) or step < 0:
            raise ValueError(f"a {kind} message needs an integer 'step' from 0 up, got "
                             f"{quote(step)}")
        return step != self.game.step

    def _on_action(self, content: Message) -> None:
        only(content, "action", ("action", "step", "then"))
        if self._stale(content, "action"):
            raise ValueError(f"that click was for step {content['step']}, but the game has "
                             f"moved on to step {self.game.step}; try again")
        self._waiting_for_handoff()
        self._check_turn()
        if "action" not in content:
            raise ValueError("an action message needs an 'action' object")
        actions = [self._page_action(content["action"])]
        if self.game.is_legal(actions[0]):
            self._dealt()  # an illegal move is refused for its own rule, whatever the deal
        if "then" in content:
            # One click, two moves: "no power this turn" and the card clicked (skip_phase1).
            if self.game.phase is not Phase.ABILITIES or actions[0] != EndPhase():
                raise ValueError("'then' follows only the end of Phase 1 (a card clicked "
                                 "with no power chosen)")
            actions.append(self._page_action(content["then"]))
        self._apply_page(actions)

    @staticmethod
    def _page_action(data: object) -> Action:
        try:
            return Action.from_dict(data)
        except ValueError as err:
            raise ValueError(f"malformed action: {err}") from None

    def _on_bot_step(self, content: Message) -> None:
        only(content, "bot_step", ("step",))
        if "step" not in content:
            raise ValueError("a bot_step message needs the integer 'step' it continues from")
        if not self._bots:
            raise ValueError("it is not a bot's turn: this widget has no bot seat")
        if self._stale(content, "bot_step"):
            if content["step"] > self.game.step:
                raise ValueError(f"a bot_step message names step {quote(content['step'])}, but "
                                 f"the game is only at step {self.game.step}")
            return  # another view of this widget already asked for this move
        seat = self._bots.get(self.game.active_player)
        if seat is None or self.game.is_over:
            raise ValueError("it is not a bot's turn")
        self._dealt()
        self._apply(seat.act(self.game))
