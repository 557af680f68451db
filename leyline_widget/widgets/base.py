"""The shared shell of every Leyline widget: assets, traits, strict page writes, messages.

:class:`BoardWidget` is what the play, replay and lesson widgets build on; it is the only
place that knows how a message from the page is received, checked and answered.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import anywidget
import traitlets

from ..core.echo import names, quote
from .assets import asset
from .presenters import ACTIVE, sentence

__all__ = ["MAX_ERROR", "BoardWidget", "Handler", "Message", "PageCheck", "count", "flag",
           "milliseconds", "only", "refusal", "seat_or_none", "shown_batch"]

Message = dict[str, Any]

#: What the page reads as null: in the browser's Python (Pyodide, JupyterLite) a trait that
#: becomes None reaches the page as undefined, and the kernel's JSON drops that field, so the
#: update would never arrive (js/src/index.js ``PAGE_NULL`` says the same).
PAGE_NULL: dict[str, str] = {"leyline": "null"}
#: Whether this kernel drops None from the updates it sends (only Pyodide does).
NONE_DROPPED = sys.platform == "emscripten"
Handler = Callable[[Message], None]
#: A strict check of one raw value the page wrote: a ValueError (a sentence) refuses it.
PageCheck = Callable[[str, object], None]


def count(name: str, value: object) -> None:
    """A page-written whole number from 0 up: ``True`` is not 1, ``1.0`` is not 1, no -5."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"the page set {name} to {quote(value)}; it takes a whole number "
                         "from 0 up")


def seat_or_none(name: str, value: object) -> None:
    """A page-written seat number (0 up) or null; never a bool or a float."""
    if value is not None and (isinstance(value, bool) or not isinstance(value, int)
                              or value < 0):
        raise ValueError(f"the page set {name} to {quote(value)}; it takes a seat number "
                         "or null")


def flag(name: str, value: object) -> None:
    """A page-written switch: ``true`` or ``false`` only (never 1 or "yes")."""
    if not isinstance(value, bool):
        raise ValueError(f"the page set {name} to {quote(value)}; it takes true or false")


class BoardWidget(anywidget.AnyWidget):
    """The shared shell of every Leyline front-end mode: assets, traits and message plumbing.

    Subclasses set ``mode``, fill ``view``/``legal``/``info`` and add message handlers in
    :meth:`_handlers`. Every handled request bumps ``ack`` (so the front-end can clear its
    "pending" marks even when a refusal repeats the same error), but not a notice
    (:attr:`_NOTICES`: the page saying what it did), which answers no click; and all trait
    changes of one message go out as one update (``hold_sync``), so the page never shows half
    a step.
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

    #: Traits the front-end may change through state sync, each with the strict check of the
    #: raw value it sends; the rest are the kernel's to say. The traits' own validators then
    #: check the range (a seat that exists, a step on the line).
    _page_writable: ClassVar[Mapping[str, PageCheck]] = {}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.on_msg(self._receive)

    def set_state(self, sync_data: dict[str, Any]) -> None:
        """Accept a front-end write only when every value in it passes its strict check.

        Each raw value is checked against :attr:`_page_writable` before traitlets sees it:
        traitlets re-validates only values that changed, and ``True == 1``, so a ``true``
        written over 1 would otherwise be stored unchecked. A write to any other trait (a
        page setting ``view`` or ``legal``), or one bad value, refuses the whole write: it
        changes nothing, sets ``error``, and the kernel's values are sent back.
        """
        table = self._page_writable
        refused = sorted(str(k) for k in sync_data if k not in table)
        message = ""
        if refused:
            message = f"the page may not change {names(refused)}; only the kernel does"
        else:
            for name, value in sync_data.items():
                try:
                    table[name](name, value)
                except ValueError as err:
                    message, refused = str(err), sorted(sync_data)
                    break
        with self.hold_sync():
            if not message:
                try:
                    super().set_state(sync_data)
                except traitlets.TraitError as err:
                    message, refused = str(err), sorted(sync_data)
            if message:
                self.error = refusal(message)
            known = [k for k in refused if k in self.keys]
            if known:
                self.send_state(known)

    @traitlets.validate("reveal_ms")
    def _check_reveal_ms(self, proposal: Any) -> int:
        return milliseconds(proposal["value"], "the reveal time (reveal_ms)")

    def send_state(self, key: Any = None) -> None:
        """Send the state (or the traits ``key`` names) to the page, as ipywidgets does, but
        without its walk for binary buffers: every trait here is JSON (no bytes anywhere), and
        that walk of each nested dict and list cost more than the rest of a click's update."""
        state = self.get_state(key=key)
        if not state:
            return
        if NONE_DROPPED:
            state = {name: PAGE_NULL if value is None else value for name, value in state.items()}
        lock = self._property_lock
        if lock:  # as ipywidgets: keep the values a page write is echoed against current
            for name, value in state.items():
                if name in lock:
                    lock[name] = value
        self._send({"method": "update", "state": state, "buffer_paths": []}, buffers=[])

    # -- messages ------------------------------------------------------------------------
    def send_message(self, content: Any) -> None:
        """Handle ``content`` exactly as a custom message from the front-end (for scripts)."""
        self._receive(self, content, [])

    #: Message types that tell the kernel what the page did rather than ask for a move: taken
    #: as an ack, one would clear the mark of a click still waiting for its own answer.
    _NOTICES: frozenset[str] = frozenset({"shown"})

    def _receive(self, _widget: Any, content: Any, _buffers: Any) -> None:
        with self.hold_sync():
            try:
                self._dispatch(content)
            except ValueError as err:  # IllegalActionError is a ValueError
                self.error = refusal(str(err))
            else:
                if isinstance(content, dict) and content.get("type") in self._NOTICES:
                    return
            self.ack += 1

    def _dispatch(self, content: Any) -> None:
        if not isinstance(content, Mapping):
            raise ValueError(f"a message from the front-end must be an object with a 'type', "
                             f"got {type(content).__name__}")
        handlers = self._handlers()
        kind = content.get("type")
        handler = handlers.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise ValueError(f"unknown message type {quote(kind)}; this widget accepts "
                             f"{', '.join(sorted(handlers))}")
        handler(dict(content))

    def _handlers(self) -> dict[str, Handler]:
        return {}

    def _mark_shown(self, content: Message) -> None:
        """The page says it has shown batch ``seq`` (the widget keeps ``shown_seq``): a view
        rendered again skips it, and its items (a reveal, another seat's peek) leave the
        synced state, so nothing the page has shown stays behind in it."""
        seq = shown_batch(content, self.events)
        self.set_trait("shown_seq", max(getattr(self, "shown_seq", 0), seq))
        self._drop_shown()

    def _drop_shown(self) -> None:
        events = self.events
        seq, shown = events.get("seq", 0), getattr(self, "shown_seq", -1)
        if events.get("items") and isinstance(seq, int) and seq <= shown:
            self.events = {**events, "items": []}

    def _publish(self, items: Sequence[Mapping[str, Any]], step: int) -> None:
        seq = self.events.get("seq", 0)
        self.events = {"seq": (seq if isinstance(seq, int) else 0) + 1, "step": step,
                       "items": items}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self._summary()}>"

    def _summary(self) -> str:
        view = self.view
        return f"{self.mode}, turn {view.get('turn', '?')}, step {self.legal.get('step', '?')}"

    # -- export --------------------------------------------------------------------------
    def static_state(self) -> dict[str, Any]:
        """The synced state as a static page shows it: what the front-end holds now (so no
        more than the viewer may see), JSON-safe, with nothing to click and no error."""
        names = [n for n in self.trait_names(sync=True)
                 if not n.startswith("_") and n not in _NOT_BOARD]
        state: dict[str, Any] = json.loads(json.dumps(self.get_state(key=names)))
        legal = self.legal
        state["legal"] = {"actor": None,
                          **{k: legal[k] for k in ("step", "variation") if k in legal}}
        state["error"] = ""
        if "shown_seq" in state:
            # A board that shows its reveals once: the page is the board as it is now, after
            # them, so it holds none (a reveal's element would sit in its data unshown).
            state["events"] = {**state["events"], "items": []}
        return state

    def to_html(self, path: str | Path, *, title: str = "Leyline", assets: str = "inline") -> Path:
        """Write a static HTML page of this widget (see :func:`~.export.widget_html`): by
        default one self-contained offline page of the board, read-only."""
        from .export import widget_html

        return widget_html(self, path, title=title, assets=assets)


#: The longest ``error`` a refusal sets: messages quote input short (``core.echo.quote``);
#: this is the backstop for one that does not.
MAX_ERROR = 600


def refusal(message: str) -> str:
    """``message`` as the ``error`` trait shows it: a sentence of at most MAX_ERROR characters.

    >>> len(refusal("no " * 10**5)) == MAX_ERROR
    True
    """
    text = sentence(message[:MAX_ERROR * 2])
    return text if len(text) <= MAX_ERROR else text[:MAX_ERROR - 4].rstrip() + " ..."


#: ipywidgets' own synced traits: not part of the board a static page shows.
_NOT_BOARD = frozenset({"layout", "tabbable", "tooltip", "keys", "comm", "log"})


def only(content: Message, kind: str, keys: tuple[str, ...]) -> None:
    extra = sorted(str(k) for k in content if k not in keys and k != "type")
    if extra:
        raise ValueError(f"a {quote(kind)[1:-1]} message has unexpected field(s) {names(extra)}")


def shown_batch(content: Message, events: Mapping[str, Any]) -> int:
    """The event batch a page's ``shown`` notice says it has shown: an integer no later than
    the last batch sent (``events["seq"]``), so that a page cannot mark unsent reveals shown."""
    only(content, "shown", ("seq",))
    seq = content.get("seq")
    if isinstance(seq, bool) or not isinstance(seq, int):
        raise ValueError(f"a shown message needs the integer 'seq' of a batch, got {quote(seq)}")
    sent = events.get("seq", 0)
    if not isinstance(sent, int) or seq > sent:
        raise ValueError(f"batch {seq} has not been sent yet")
    return seq


def milliseconds(value: int, what: str) -> int:
    """A duration trait's value, or a TraitError naming it when outside 0 to 60000 ms."""
    if isinstance(value, bool) or not 0 <= value <= 60_000:
        raise traitlets.TraitError(f"{what} must be from 0 to 60000 ms, got {quote(value)}")
    return int(value)
