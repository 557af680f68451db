"""Leyline in Jupyter: thin anywidget adapters over a :class:`~leyline_widget.engine.Game`.

The front-end (``js/widget.js``) renders from synced traits alone and never decides a rule:

- ``view``: ``game.observation(seat)`` for the widget's viewer seat;
- ``legal``: a compact summary of ``game.legal_actions()`` for the seat that may act from this
  widget now (what is clickable, and why the rest is not, in the engine's words);
- ``events``: the last batch of events the viewer may see (brief reveals, peeks), numbered;
- ``error``: the last refusal as a sentence, ``""`` after a legal action;
- ``info``: what never changes in a game (elements, power texts, thresholds, seats).

It sends custom messages: ``{"type": "action", "action": {...}}`` for a human move and
``{"type": "bot_step", "step": n}`` when its pacing delay for a bot move is over, so the
kernel never sleeps. Anything else gets an error and changes nothing.

>>> from leyline_widget import Game
>>> w = LeylineWidget(Game.new(players=1, seed=3))
>>> w.view["phase"], w.error
('activation', '')
>>> w.send_message({"type": "action", "action": {"type": "activate", "slot": 99}})
>>> w.error
'Slot 99 does not exist: the grid has slots 0 to 11.'
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import anywidget
import traitlets

from ._static import asset, repo_root
from .actions import Action, Activate, Deactivate, EndPhase, PlaceToken, Refill, UsePower
from .bots import BOT_KINDS, Bot, BotSeat, make_bot
from .engine import Game, Phase, visible_events
from .memory import memory_report
from .rules import Rules

Message = dict[str, Any]
Handler = Callable[[Message], None]

#: ``viewer`` values: the active human seat (hot-seat), a fixed seat, or the teacher (None).
ACTIVE = "active"
TEACHER = "teacher"


def _sentence(text: str) -> str:
    """An engine or parser message as a sentence: capital first letter, final stop."""
    text = text.strip()
    if not text:
        return text
    text = text[0].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


# ---------------------------------------------------------------------------- pure helpers
def legal_summary(game: Game, actor: int | None) -> dict[str, Any]:
    """What ``actor`` may do now, derived from ``game.legal_actions()`` (JSON-safe, compact).

    Keys present for every phase: ``step`` and ``actor``. When ``actor`` may act:
    ``end`` (EndPhase is legal), and by phase ``activate``/``deactivate`` slots with
    ``blocked`` (slot -> why not) for the other inert cards; ``refill`` slots; ``place``
    (element -> source -> ``""`` when it can pay, else why not); ``powers`` (usable power key
    -> ``min``/``max`` targets and candidate ``slots``); and always ``why_power`` (key -> why
    that power cannot be used now; ``"*"`` holds a reason shared by all). Nothing here
    depends on a hidden card.

    >>> game = Game.new(players=1, seed=3)
    >>> s = legal_summary(game, 0)
    >>> s["activate"], s["end"], s["deactivate"]
    ([0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], True, [])
    >>> legal_summary(game, None)
    {'step': 0, 'actor': None}
    """
    out: dict[str, Any] = {"step": game.step, "actor": actor}
    if actor is None or game.is_over:
        return out
    legal = game.legal_actions()
    out["end"] = any(isinstance(a, EndPhase) for a in legal)
    phase = game.phase
    grid = game.observation(actor)["grid"]
    if phase is Phase.ACTIVATION:
        activate = [a.slot for a in legal if isinstance(a, Activate)]
        out["activate"] = activate
        out["deactivate"] = [a.slot for a in legal if isinstance(a, Deactivate)]
        ok = set(activate)
        out["blocked"] = {
            str(s): _sentence(game.why_illegal(Activate(s)) or "")
            for s, cell in enumerate(grid) if cell["card"] == "inert" and s not in ok}
    elif phase is Phase.REFILL:
        out["refill"] = [a.slot for a in legal if isinstance(a, Refill)]
    elif phase is Phase.BINDING:
        payable = {(a.element, a.source) for a in legal if isinstance(a, PlaceToken)}
        cards = [s for s, cell in enumerate(grid) if cell["card"] != "empty"]
        probe = cards[0] if cards else 0
        out["place"] = {
            el: {src: "" if (el, src) in payable
                 else _sentence(game.why_illegal(PlaceToken(probe, el, src)) or "")
                 for src in ("supply", "marker", "pool")}
            for el in game.rules.elements}
    powers: dict[str, dict[str, Any]] = {}
    for a in legal:
        if isinstance(a, UsePower):
            key = f"{a.element}:{a.tier}"
            entry = powers.setdefault(key, {"min": len(a.targets), "max": len(a.targets),
                                            "slots": set()})
            entry["min"] = min(entry["min"], len(a.targets))
            entry["max"] = max(entry["max"], len(a.targets))
            entry["slots"].update(a.targets)
    for entry in powers.values():
        entry["slots"] = sorted(entry["slots"])
    out["powers"] = powers
    why: dict[str, str] = {}
    for pw in game.rules.powers:
        if pw.key in powers:
            continue
        reason = game.why_illegal(UsePower(pw.element, pw.tier, ())) or ""
        if not reason or reason.startswith(f"{pw.name}:"):
            # Unlocked, unused, in Phase 1: only the targets are missing.
            reason = f"{pw.name} has no legal target now"
        why[pw.key] = _sentence(reason)
    # Outside Phase 1 every power has the same reason: send it once, as "*".
    common = set(why.values())
    out["why_power"] = {"*": common.pop()} if len(common) == 1 else why
    return out


def game_info(game: Game, bots: Mapping[int, str]) -> dict[str, Any]:
    """What the front-end needs once per game: elements, seats, thresholds, power words."""
    rules = game.rules
    return {
        "elements": list(rules.elements),
        "players": [{"name": name, "bot": bots.get(p)} for p, name in enumerate(game.players)],
        "powers": [{k: v for k, v in pw.to_dict().items() if k != "effect"} | {"key": pw.key}
                   for pw in rules.powers],
        "thresholds": {"minor": rules.minor_threshold, "major": rules.major_threshold},
        "activations": rules.activations_per_turn,
        "collect_threshold": rules.collect_threshold,
        "turn_limit": rules.turn_limit,
    }


def _bot_name(kind: str, taken: Sequence[str]) -> str:
    base = f"{kind.capitalize()} bot"
    name, n = base, 2
    while name in taken:
        name, n = f"{base} {n}", n + 1
    return name


def parse_seats(players: int | Sequence[str]) -> tuple[list[str] | int, dict[int, str]]:
    """Split ``players`` into names for :meth:`Game.new` and bot seats (seat -> kind).

    An entry that is a bot kind (``"random"``, ``"greedy"``, ``"memory"``) becomes a bot.

    >>> parse_seats(["You", "greedy"])
    (['You', 'Greedy bot'], {1: 'greedy'})
    >>> parse_seats(2)
    (2, {})
    """
    if isinstance(players, str):
        raise ValueError(f"players must be a count or a list of names, got {players!r}")
    if isinstance(players, int):
        return players, {}  # Game.new validates counts and rejects a bare string
    names: list[str] = []
    bots: dict[int, str] = {}
    for p, entry in enumerate(players):
        kind = entry.strip().lower() if isinstance(entry, str) else None
        if kind in BOT_KINDS:
            bots[p] = kind
            names.append(_bot_name(kind, names))
        else:
            names.append(entry)
    return names, bots


# ---------------------------------------------------------------------------- widgets
class _BoardWidget(anywidget.AnyWidget):
    """The shared shell of every Leyline front-end mode: assets, traits and message plumbing.

    Subclasses set ``mode``, fill ``view``/``legal``/``info`` and add message handlers in
    :meth:`_handlers`. Every handled message bumps ``ack`` (so the front-end can clear its
    "pending" marks even when a refusal repeats the same error) and all trait changes of one
    message go out as one update (``hold_sync``), so the page never shows half a step.
    """

    _esm = asset("widget.js")
    _css = asset("widget.css")

    mode = traitlets.Unicode("play").tag(sync=True)
    view = traitlets.Dict().tag(sync=True)
    legal = traitlets.Dict().tag(sync=True)
    info = traitlets.Dict().tag(sync=True)
    error = traitlets.Unicode("").tag(sync=True)
    events = traitlets.Dict({"seq": 0, "step": 0, "items": []}).tag(sync=True)
    viewer = traitlets.Any(ACTIVE).tag(sync=True)
    reveal_ms = traitlets.Int(1500).tag(sync=True)
    ack = traitlets.Int(0).tag(sync=True)

    #: Traits the front-end may change through state sync; the rest are the kernel's to say.
    _client_writable: ClassVar[frozenset[str]] = frozenset()

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_msg(self._receive)

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """Accept front-end writes only to :attr:`_client_writable` traits.

        Anything else (a page setting ``view`` or ``legal``) is refused with an error and the
        kernel's values are sent back, so the page cannot drift from the game.
        """
        allowed = {k: v for k, v in sync_data.items() if k in self._client_writable}
        refused = sorted(str(k) for k in sync_data if k not in allowed)
        message = ""
        if refused:
            message = f"the page may not change {', '.join(refused)}; only the kernel does"
        with self.hold_sync():
            if allowed:
                try:
                    super().set_state(allowed)
                except traitlets.TraitError as err:
                    message = message or str(err)
                    refused += sorted(allowed)
            if message:
                self.error = _sentence(message)
            known = [k for k in refused if k in self.keys]
            if known:
                self.send_state(known)

    @traitlets.validate("reveal_ms")
    def _check_reveal_ms(self, proposal: Any) -> int:
        return _milliseconds(proposal["value"], "the reveal time (reveal_ms)")

    # -- messages ------------------------------------------------------------------------
    def send_message(self, content: Any) -> None:
        """Handle ``content`` exactly as a custom message from the front-end (for scripts)."""
        self._receive(self, content, [])

    def _receive(self, _widget: Any, content: Any, _buffers: Any) -> None:
        with self.hold_sync():
            try:
                self._dispatch(content)
            except ValueError as err:  # IllegalActionError is a ValueError
                self.error = _sentence(str(err))
            self.ack += 1

    def _dispatch(self, content: Any) -> None:
        if not isinstance(content, Mapping):
            raise ValueError(f"a message from the front-end must be an object with a 'type', "
                             f"got {type(content).__name__}")
        handlers = self._handlers()
        kind = content.get("type")
        handler = handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise ValueError(f"unknown message type {kind!r}; this widget accepts "
                             f"{', '.join(sorted(handlers))}")
        handler(dict(content))

    def _handlers(self) -> dict[str, Handler]:
        return {}

    def _publish(self, items: list[dict[str, Any]], step: int) -> None:
        seq = self.events.get("seq", 0)
        self.events = {"seq": (seq if isinstance(seq, int) else 0) + 1, "step": step,
                       "items": items}

    # -- export --------------------------------------------------------------------------
    def to_html(self, path: str | Path, *, title: str = "Leyline", assets: str = "inline") -> Path:
        """Write a static HTML page of this widget (see :func:`to_html`)."""
        return to_html(self, path, title=title, assets=assets)


def _only(content: Message, kind: str, keys: tuple[str, ...]) -> None:
    extra = sorted(str(k) for k in content if k not in keys and k != "type")
    if extra:
        raise ValueError(f"a {kind} message has unexpected field(s) {', '.join(extra)}")


class LeylineWidget(_BoardWidget):
    """Play Leyline in a notebook: solo, hot-seat, or against bots.

    ``LeylineWidget(game)`` wraps a live Game (``w.game``); ``LeylineWidget(players=2,
    seed=7)`` or ``LeylineWidget(players=["You", "greedy"])`` deals a new one, where an entry
    naming a bot kind (random, greedy, memory) is a bot seat. With a ``game``, give bot seats
    as ``bots={1: "greedy"}`` (a kind or a :class:`~leyline_widget.bots.Bot`).

    ``viewer`` is ``"active"`` (hot-seat: whoever's turn it is among the humans; the default),
    a seat number (that player's eyes only; they act on their own turns), or ``None`` /
    ``"teacher"`` (the all-seeing view, for teaching). ``reveal_ms`` is how long a card added
    to the grid (or peeked at) stays element-up; ``bot_delay_ms`` is the pause before each bot
    move, which the front-end waits out before asking for it.

    ``show_memory_of`` (a seat; teacher view only) adds the teacher's memory panel: which grid
    cards that player has seen and when, which they never saw, and the collections they could
    have made but missed (the ``memory`` trait, :func:`~leyline_widget.memory.memory_report`).
    The page may switch the seat; a viewer other than the teacher gets an empty ``memory``.

    >>> w = LeylineWidget(players=["You", "greedy"], seed=5)
    >>> w.info["players"][1]
    {'name': 'Greedy bot', 'bot': 'greedy'}
    >>> _ = w.play(EndPhase()), w.play(EndPhase())   # pass, end the turn: the bot is next
    >>> w.legal["bot"], w.step_bots() > 0, w.game.active_player
    ('greedy', True, 0)
    """

    bot_delay_ms = traitlets.Int(800).tag(sync=True)
    show_memory_of = traitlets.Any(None).tag(sync=True)
    memory = traitlets.Dict().tag(sync=True)
    _client_writable = frozenset({"bot_delay_ms", "show_memory_of"})

    def __init__(self, game: Game | None = None, *, players: int | Sequence[str] | None = None,
                 seed: int | None = None, rules: Rules | None = None,
                 viewer: int | str | None = ACTIVE, bots: Mapping[int, str | Bot] | None = None,
                 bot_seed: int | None = None, reveal_ms: int = 1500,
                 bot_delay_ms: int = 800, show_memory_of: int | None = None) -> None:
        kinds: dict[int, str] = {}
        if game is None:
            names, kinds = parse_seats(1 if players is None else players)
            game = Game.new(players=names, seed=seed, rules=rules)
        elif not isinstance(game, Game):
            raise ValueError(f"game must be a Game, got {type(game).__name__}")
        elif players is not None or seed is not None or rules is not None:
            raise ValueError("give either a game or players/seed/rules to deal one, not both")
        self.game = game
        seats: dict[int, Bot | str] = dict(kinds)
        for seat, bot in (bots or {}).items():
            if isinstance(seat, bool) or not isinstance(seat, int) or not (
                    0 <= seat < len(game.players)):
                raise ValueError(f"bots: seat {seat!r} does not exist; seats are 0 to "
                                 f"{len(game.players) - 1}")
            if not isinstance(bot, (str, Bot)):
                raise ValueError(f"bots: seat {seat} needs a bot kind or a Bot, got {bot!r}")
            seats[seat] = bot
        base = game.seed if bot_seed is None else bot_seed
        self._bots: dict[int, BotSeat] = {}
        bot_kinds: dict[int, str] = {}
        for seat, bot in sorted(seats.items()):
            if isinstance(bot, str):
                bot = make_bot(bot, seed=None if base is None else base * 10 + seat)
            self._bots[seat] = BotSeat(bot, seat)
            bot_kinds[seat] = bot.name
        humans = [p for p in range(len(game.players)) if p not in self._bots]
        self._last_human = humans[0] if humans else 0
        self._last_batch: list[dict[str, Any]] = list(game.event_log[-1])
        viewer = self._viewer_value(viewer)
        self._memory_seat(show_memory_of, viewer)
        super().__init__(mode="play", viewer=viewer, reveal_ms=reveal_ms,
                         bot_delay_ms=bot_delay_ms, info=game_info(game, bot_kinds),
                         show_memory_of=show_memory_of)
        self._sync(self._last_batch)

    # -- viewer --------------------------------------------------------------------------
    def _viewer_value(self, viewer: object) -> int | str | None:
        if viewer is None or viewer == TEACHER:
            return None
        if viewer == ACTIVE:
            return ACTIVE
        n = len(self.game.players)
        if isinstance(viewer, bool) or not isinstance(viewer, int) or not 0 <= viewer < n:
            raise ValueError(f"viewer must be 'active', None ('teacher') or a seat from 0 to "
                             f"{n - 1}, got {viewer!r}")
        return viewer

    @traitlets.validate("viewer")
    def _check_viewer(self, proposal: Any) -> int | str | None:
        try:
            return self._viewer_value(proposal["value"])
        except ValueError as err:
            raise traitlets.TraitError(str(err)) from None

    @traitlets.observe("viewer")
    def _viewer_changed(self, _change: Any) -> None:
        # The last batch was filtered for the old eyes: filter it again for the new ones.
        self._sync(self._last_batch)

    def _memory_seat(self, seat: object, viewer: object) -> int | None:
        if seat is None:
            return None
        n = len(self.game.players)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"the memory panel (show_memory_of) takes None or a seat from 0 "
                             f"to {n - 1}, got {seat!r}")
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
        return _milliseconds(proposal["value"], "the bot pace (bot_delay_ms)")

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
    def _sync(self, events: list[dict[str, Any]] | None) -> None:
        """Replace view and legal from the game; publish ``events`` (a new batch) if given."""
        game = self.game
        if game.active_player not in self._bots:
            self._last_human = game.active_player
        seat = self.seat()
        legal = legal_summary(game, self.actor())
        bot = self._bots.get(game.active_player)
        if bot is not None and not game.is_over:
            legal["bot"] = bot.bot.name
        memory_of = self.show_memory_of
        with self.hold_sync():
            self.memory = ({} if seat is not None or memory_of is None
                           else memory_report(game, memory_of))
            self.view = game.observation(seat)
            self.legal = legal
            if events is not None:
                self._last_batch = events
                self._publish(visible_events(events, seat), game.step)

    def _apply(self, action: Action) -> list[dict[str, Any]]:
        events = self.game.apply(action)
        with self.hold_sync():
            self.error = ""
            self._sync(events)
        return events

    # -- Python API ----------------------------------------------------------------------
    def play(self, action: Action | Mapping[str, Any]) -> list[dict[str, Any]]:
        """Apply a human move from Python, as a click would; illegal moves raise and change
        nothing (``IllegalActionError``)."""
        if not isinstance(action, Action):
            action = Action.from_dict(action)
        self._check_turn()
        return self._apply(action)

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
        return {"action": self._on_action, "bot_step": self._on_bot_step}

    def _stale(self, content: Message, kind: str) -> bool:
        if "step" not in content:
            return False
        step = content["step"]
        if isinstance(step, bool) or not isinstance(step, int):
            raise ValueError(f"a {kind} message needs an integer 'step', got {step!r}")
        return step != self.game.step

    def _on_action(self, content: Message) -> None:
        _only(content, "action", ("action", "step"))
        if self._stale(content, "action"):
            raise ValueError(f"that click was for step {content['step']}, but the game has "
                             f"moved on to step {self.game.step}; try again")
        self._check_turn()
        if "action" not in content:
            raise ValueError("an action message needs an 'action' object")
        try:
            action = Action.from_dict(content["action"])
        except ValueError as err:
            raise ValueError(f"malformed action: {err}") from None
        self._apply(action)

    def _on_bot_step(self, content: Message) -> None:
        _only(content, "bot_step", ("step",))
        if "step" not in content:
            raise ValueError("a bot_step message needs the integer 'step' it continues from")
        if self._stale(content, "bot_step"):
            return  # another view of this widget already asked for this move
        seat = self._bots.get(self.game.active_player)
        if seat is None or self.game.is_over:
            raise ValueError("it is not a bot's turn")
        self._apply(seat.act(self.game))


# ---------------------------------------------------------------------------- static HTML
_CDN = "https://cdn.jsdelivr.net/npm/"
_LOADERS = {
    "require.js": "requirejs/require.js",
    "embed-amd.js": "@jupyter-widgets/html-manager/dist/embed-amd.js",
}

_HTML = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>body {{ font-family: system-ui, sans-serif; margin: 1rem auto; max-width: 52rem;
  padding: 0 1rem; }}</style>
{scripts}
</head>
<body>
{body}
</body>
</html>
"""


def _node_modules() -> Path | None:
    root = repo_root()
    candidates = [root / "node_modules"] if root else []
    candidates.append(Path.cwd() / "node_modules")
    for folder in candidates:
        if all((folder / rel).is_file() for rel in _LOADERS.values()):
            return folder
    return None


def _anywidget_amd() -> str:
    """anywidget's AMD bundle, named ``anywidget`` so a plain script tag can define it."""
    source = (Path(anywidget.__file__).parent / "nbextension" / "index.js").read_text("utf-8")
    anonymous = 'define(["@jupyter-widgets/base"]'
    if anonymous not in source:
        raise RuntimeError("this anywidget's nbextension bundle has an unexpected form; "
                           "static HTML export supports anywidget 0.11")
    return source.replace(anonymous, 'define("anywidget", ["@jupyter-widgets/base"]', 1)


def _inline_script(code: str) -> str:
    # Only these sequences could end or confuse an inline script; both are no-ops in JS text.
    code = code.replace("</script", "<\\/script").replace("<!--", "<\\!--")
    return f"<script>{code}</script>"


def to_html(widgets: Any, path: str | Path, *, title: str = "Leyline",
            assets: str = "inline", node_modules: str | Path | None = None) -> Path:
    """Write a static HTML page showing ``widgets`` (one or a list) as they are now.

    The page needs no kernel: it holds the widgets' state and the loaders (require.js, the
    ipywidgets HTML manager and anywidget's AMD bundle). ``assets="inline"`` puts the loaders
    in the page (one self-contained file); ``"copy"`` writes them to ``leyline-assets/`` next
    to it; ``"cdn"`` links the jsDelivr CDN. Local loaders come from ``node_modules`` (the
    repository's, by default), installed by ``npm install``.
    """
    from ipywidgets.embed import dependency_state, embed_data, escape_script

    if assets not in ("inline", "copy", "cdn"):
        raise ValueError(f"assets must be 'inline', 'copy' or 'cdn', got {assets!r}")
    views = list(widgets) if isinstance(widgets, (list, tuple)) else [widgets]
    path = Path(path)
    # Defaults must stay: anywidget models have no JS-side defaults for _esm or _view_name.
    data = embed_data(views=views, state=dependency_state(views, drop_defaults=False))
    state = escape_script(json.dumps(data["manager_state"]))
    body = [f'<script type="application/vnd.jupyter.widget-state+json">\n{state}\n</script>']
    body += [f'<script type="application/vnd.jupyter.widget-view+json">\n'
             f'{escape_script(json.dumps(spec))}\n</script>' for spec in data["view_specs"]]
    from ipywidgets._version import __html_manager_version__ as manager_version

    amd = _anywidget_amd()
    if assets == "cdn":
        scripts = [f'<script src="{_CDN}requirejs@2.3.7/require.js"></script>',
                   _inline_script(amd),
                   f'<script src="{_CDN}@jupyter-widgets/html-manager@{manager_version}'
                   f'/dist/embed-amd.js"></script>']
    else:
        folder = Path(node_modules) if node_modules is not None else _node_modules()
        if folder is None or not all((folder / rel).is_file() for rel in _LOADERS.values()):
            raise FileNotFoundError(
                "static HTML needs local copies of require.js and @jupyter-widgets/html-manager "
                "(run `npm install` in the repository, or pass node_modules=...); "
                "assets='cdn' links them from the CDN instead")
        if assets == "inline":
            scripts = [_inline_script((folder / _LOADERS["require.js"]).read_text("utf-8")),
                       _inline_script(amd),
                       _inline_script((folder / _LOADERS["embed-amd.js"]).read_text("utf-8"))]
        else:
            target = path.parent / "leyline-assets"
            target.mkdir(parents=True, exist_ok=True)
            for name, rel in _LOADERS.items():
                shutil.copyfile(folder / rel, target / name)
            (target / "anywidget.js").write_text(amd, "utf-8")
            scripts = [f'<script src="leyline-assets/{name}"></script>'
                       for name in ("require.js", "anywidget.js", "embed-amd.js")]
    html = _HTML.format(title=escape_html(title), scripts="\n".join(scripts),
                        body="\n".join(body))
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(html, "utf-8")
    return path


def escape_html(text: str) -> str:
    return (text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
            .replace('"', "&quot;"))


def _milliseconds(value: int, what: str) -> int:
    """A duration trait's value, or a TraitError naming it when outside 0 to 60000 ms."""
    if not 0 <= value <= 60_000:
        raise traitlets.TraitError(f"{what} must be from 0 to 60000 ms, got {value}")
    return int(value)


def __getattr__(name: str) -> Any:
    # ReplayWidget and LessonWidget are built on _BoardWidget in their own modules; they resolve
    # here too, as DESIGN.md places them in widget.py.
    if name in ("ReplayWidget", "LessonWidget"):
        from importlib import import_module

        module = "replay_widget" if name == "ReplayWidget" else "lesson_widget"
        return getattr(import_module(f"leyline_widget.{module}"), name)
    raise AttributeError(f"module 'leyline_widget.widget' has no attribute {name!r}")
