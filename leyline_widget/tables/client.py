"""The client side of a table: what a notebook's kernel (``LeylineWidget.join``), a script or
a test uses to sit at a table over the network.

:class:`TableClient` keeps one WebSocket to the server in a background thread and comes back by
itself after a drop: its hello says the last step it has, and the server answers with the state
now and the events this seat missed. Needs only the ``websockets`` package.

>>> parse_link("http://127.0.0.1:8765/t/abc?seat=s3cret")
Link(server='http://127.0.0.1:8765', table='abc', role='secret', key='s3cret')
>>> parse_link("http://127.0.0.1:8765/t/abc#teacher=k").role
'teacher'
"""

from __future__ import annotations

import json
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any
from urllib.parse import parse_qs, urlsplit
from urllib.parse import quote as urlquote

from ..core.actions import Action
from ..core.echo import quote

__all__ = ["Link", "TableClient", "TableError", "create_class", "create_table", "parse_link",
           "request"]


class TableError(ValueError):
    """The server refused something: ``field`` names what (see docs/tables.md)."""

    def __init__(self, message: str, field: str = "") -> None:
        super().__init__(message)
        self.field = field


@dataclass(frozen=True)
class Link:
    server: str  # http://host:port
    table: str
    role: str  # "secret" (a seat) | "watch" (a spectator) | "teacher"
    key: str

    @property
    def socket_url(self) -> str:
        parts = urlsplit(self.server)
        scheme = "wss" if parts.scheme == "https" else "ws"
        return f"{scheme}://{parts.netloc}/ws/{urlquote(self.table, safe='')}"


def parse_link(link: str) -> Link:
    """A table link as ``leyline table new`` prints it: ``.../t/<table>?seat=<secret>`` (a
    seat), ``?watch=<secret>`` (a spectator) or ``#teacher=<key>`` (a teacher)."""
    if not isinstance(link, str) or len(link) > 2000:
        raise ValueError(f"a table link must be text, got {quote(link)}")
    parts = urlsplit(link)
    path = parts.path.split("/")
    if parts.scheme not in ("http", "https") or len(path) != 3 or path[1] != "t" or not path[2]:
        raise ValueError(f"not a table link (http://host:port/t/<table>?seat=<secret>): "
                         f"{quote(link)}")
    query, frag = parse_qs(parts.query), parse_qs(parts.fragment)
    for name, role, source in (("seat", "secret", query), ("watch", "watch", query),
                               ("teacher", "teacher", frag)):
        if source.get(name):
            return Link(f"{parts.scheme}://{parts.netloc}", path[2], role, source[name][0])
    raise ValueError("the link holds no ?seat=, ?watch= or #teacher= key: "
                     f"{quote(link)}")


def request(server: str, path: str, body: Mapping[str, Any] | None = None, *,
            bearer: str | None = None, timeout: float = 30) -> Any:
    """One JSON request to the server (POST when ``body`` is given); a refusal raises
    :class:`TableError` with the server's words."""
    data = None if body is None else json.dumps(body).encode()
    headers = {"content-type": "application/json"}
    if bearer is not None:
        headers["authorization"] = f"Bearer {bearer}"
    req = urllib.request.Request(server.rstrip("/") + path, data=data, headers=headers)
    try:
        with urllib.request.urlopen(req, timeout=timeout) as resp:
            return json.loads(resp.read())
    except urllib.error.HTTPError as err:
        try:
            answer = json.loads(err.read())
        except ValueError:
            raise TableError(f"the server answered {err.code}") from None
        raise TableError(str(answer.get("error", err.code)), str(answer.get("field", ""))
                         ) from None


def create_table(server: str, seats: Sequence[str], **options: Any) -> dict[str, Any]:
    """Create a table (``POST /api/tables``): its links, one per person's seat, and the
    spectator's. ``options``: seed, rules, class (a teacher's key), turn_seconds,
    bot_delay_ms."""
    result: dict[str, Any] = request(server, "/api/tables", {"seats": list(seats), **options})
    return result


def create_class(server: str, name: str) -> dict[str, Any]:
    """Create a class (``POST /api/classes``): its teacher's key and room link."""
    result: dict[str, Any] = request(server, "/api/classes", {"name": name})
    return result


class TableClient:
    """A seat, spectator or teacher at a table, over one WebSocket that reconnects by itself.

    ``on_frame(frame)`` is called (in the client's thread) for every frame from the server;
    :attr:`state` is the last ``state`` frame; :meth:`move` sends a move and waits for the
    server's acknowledgement (the move is then recorded) or its refusal. ``board=True`` asks
    for the page's board in each state (``LeylineWidget.join``); ``record=True`` keeps every
    frame received in :attr:`frames` (tests scan them).
    """

    def __init__(self, link: str, *, board: bool = False, record: bool = False,
                 on_frame: Callable[[dict[str, Any]], None] | None = None,
                 reconnect: bool = True) -> None:
        self.link = parse_link(link)
        self.board = board
        self.record = record
        self.frames: list[dict[str, Any]] = []
        self.on_frame = on_frame
        self.reconnect = reconnect
        self.state: dict[str, Any] | None = None
        self.online = False
        self.refused: TableError | None = None  # a hello refusal: no retry mends it
        self.connections = 0
        self._cond = threading.Condition()
        self._answers: dict[int, dict[str, Any]] = {}
        self._waiting: set[int] = set()  # moves sent and not yet answered
        self._next_id = 0
        self._ws: Any = None
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="leyline-table", daemon=True)
        self._thread.start()

    # -- the connection thread -------------------------------------------------------------
    def _run(self) -> None:
        from websockets.exceptions import WebSocketException
        from websockets.sync.client import connect

        delay = 0.2
        while not self._stop.is_set():
            try:
                with connect(self.link.socket_url, open_timeout=10, max_size=2**24,
                             close_timeout=1) as ws:
                    hello: dict[str, Any] = {"type": "hello", self.link.role: self.link.key,
                                             "board": self.board}
                    if self.state is not None:
                        hello["seen"] = self.state["step"]
                    ws.send(json.dumps(hello))
                    self._ws = ws
                    welcomed = False
                    for text in ws:
                        frame = json.loads(text)
                        if frame.get("type") == "welcome":
                            delay = 0.2
                            with self._cond:
                                self.connections += 1
                                welcomed = True
                        self._take(frame)
                        if welcomed and frame.get("type") == "state":
                            # Online from the first state of this connection: until then the
                            # state held is the one from before the drop, out of date.
                            welcomed = False
                            with self._cond:
                                self.online = True
                                self._cond.notify_all()
                        if self.refused is not None:
                            return
            except (OSError, WebSocketException, TimeoutError):
                pass
            finally:
                self._ws = None
                was = self.online
                with self._cond:
                    self.online = False
                    # A move whose answer never came: its sender hears of the drop.
                    for msg_id in list(self._waiting):
                        self._answers[msg_id] = {"type": "error", "field": "connection",
                                                 "error": "the connection dropped before the "
                                                          "server answered; look again"}
                    self._cond.notify_all()
                if was and self.on_frame is not None:
                    self.on_frame({"type": "offline"})  # local: the page says it is offline
            if not self.reconnect or self._stop.wait(delay):
                return
            delay = min(delay * 2, 5.0)

    def _take(self, frame: dict[str, Any]) -> None:
        if self.record:
            self.frames.append(frame)
        if self.on_frame is not None:
            # First the owner (a widget's traits), then the waiters: whoever waits for a step
            # finds the widget showing it.
            self.on_frame(frame)
        kind = frame.get("type")
        with self._cond:
            if kind == "state":
                self.state = frame
            elif kind in ("ack", "error") and isinstance(frame.get("id"), int):
                self._answers[frame["id"]] = frame
            elif kind == "error" and self.state is None:
                self.refused = TableError(str(frame.get("error")), str(frame.get("field", "")))
            self._cond.notify_all()

    # -- the caller's side -----------------------------------------------------------------
    def wait(self, until: Callable[[TableClient], bool], timeout: float = 30) -> bool:
        """Wait until ``until(self)`` holds (checked at each frame); False after ``timeout``."""
        end = time.monotonic() + timeout
        with self._cond:
            while not until(self):
                if self.refused is not None:
                    raise self.refused
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self._cond.wait(left)
            return True

    def send(self, message: Mapping[str, Any] | str) -> bool:
        """Send a raw message (tests send junk this way); False when offline."""
        ws = self._ws
        if ws is None:
            return False
        try:
            ws.send(message if isinstance(message, str) else json.dumps(message))
        except Exception:
            return False
        return True

    def move(self, action: Action | Mapping[str, Any], *, step: int | None = None,
             timeout: float = 30) -> int:
        """Make a move for this seat and wait for the server: the step after it once it is
        recorded. A refusal raises :class:`TableError` naming the field or rule."""
        if isinstance(action, Action):
            action = action.to_dict()
        if not self.wait(lambda c: c.online and c.state is not None, timeout):
            raise TableError("the table server cannot be reached", "connection")
        with self._cond:
            self._next_id += 1
            msg_id = self._next_id
            self._waiting.add(msg_id)
            state = self.state
        assert state is not None
        sent = self.send({"type": "move", "id": msg_id, "action": dict(action),
                          "step": state["step"] if step is None else step})
        try:
            if not sent:
                raise TableError("the connection dropped; the move was not sent", "connection")
            if not self.wait(lambda c: msg_id in c._answers, timeout):
                self.drop()  # a connection that answers nothing: start a fresh one
                raise TableError("no answer from the table server", "connection")
            answer = self._answers.pop(msg_id)
        finally:
            with self._cond:
                self._waiting.discard(msg_id)
        if answer["type"] == "error":
            raise TableError(str(answer.get("error")), str(answer.get("field", "")))
        step_after: int = answer["step"]
        # The state frame of this move follows the ack: wait for it, so callers see it.
        self.wait(lambda c: c.state is not None and c.state["step"] >= step_after, timeout)
        return step_after

    def drop(self) -> None:
        """Close the connection as a network fault would (it reconnects when allowed)."""
        ws = self._ws
        if ws is not None:
            ws.close()

    def close(self) -> None:
        self._stop.set()
        self.drop()
        self._thread.join(timeout=5)
