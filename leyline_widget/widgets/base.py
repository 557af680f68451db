"""The shared shell of every Leyline widget: assets, traits, strict page writes, messages.

:class:`BoardWidget` is what the play, replay and lesson widgets build on; it is the only
place that knows how a message from the page is received, checked and answered.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import anywidget
import traitlets

from .assets import asset
from .presenters import ACTIVE, sentence

__all__ = ["BoardWidget", "Handler", "Message", "milliseconds", "only"]

Message = dict[str, Any]
Handler = Callable[[Message], None]


class BoardWidget(anywidget.AnyWidget):
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
                self.error = sentence(message)
            known = [k for k in refused if k in self.keys]
            if known:
                self.send_state(known)

    @traitlets.validate("reveal_ms")
    def _check_reveal_ms(self, proposal: Any) -> int:
        return milliseconds(proposal["value"], "the reveal time (reveal_ms)")

    # -- messages ------------------------------------------------------------------------
    def send_message(self, content: Any) -> None:
        """Handle ``content`` exactly as a custom message from the front-end (for scripts)."""
        self._receive(self, content, [])

    def _receive(self, _widget: Any, content: Any, _buffers: Any) -> None:
        with self.hold_sync():
            try:
                self._dispatch(content)
            except ValueError as err:  # IllegalActionError is a ValueError
                self.error = sentence(str(err))
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

    def _publish(self, items: Sequence[Mapping[str, Any]], step: int) -> None:
        seq = self.events.get("seq", 0)
        self.events = {"seq": (seq if isinstance(seq, int) else 0) + 1, "step": step,
                       "items": items}

    # -- export --------------------------------------------------------------------------
    def to_html(self, path: str | Path, *, title: str = "Leyline", assets: str = "inline") -> Path:
        """Write a static HTML page of this widget (see :func:`~.export.widget_html`)."""
        from .export import widget_html

        return widget_html(self, path, title=title, assets=assets)


def only(content: Message, kind: str, keys: tuple[str, ...]) -> None:
    extra = sorted(str(k) for k in content if k not in keys and k != "type")
    if extra:
        raise ValueError(f"a {kind} message has unexpected field(s) {', '.join(extra)}")


def milliseconds(value: int, what: str) -> int:
    """A duration trait's value, or a TraitError naming it when outside 0 to 60000 ms."""
    if not 0 <= value <= 60_000:
        raise traitlets.TraitError(f"{what} must be from 0 to 60000 ms, got {value}")
    return int(value)
