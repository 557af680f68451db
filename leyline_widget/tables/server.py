"""The table server: the referee of games played over the network (Starlette on uvicorn).

It holds each table's Game, applies moves with the engine, and sends each connection only
what its seat may see: a seat its observation and the events shown to it, a spectator the
public view (every player's view holds the same state; private peeks are hidden from it), a
teacher's key the all-seeing one. A move is taken only from the seat's own secret, only in its
turn, and is committed to the store before it is acknowledged or shown to anyone. The protocol
is documented in ``docs/tables.md``.

Starlette is a small ASGI toolkit with WebSockets built in (its only dependency is anyio), and
uvicorn with the ``websockets`` library is its usual server: the whole stack is three pure
packages, and the same app runs under any ASGI server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, TypeVar

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..agents import BOT_KINDS, BotSeat, make_bot
from ..core.actions import Action, EndPhase
from ..core.echo import quote
from ..core.game import ONLOOKER, Game
from ..core.rules import Rules
from ..core.types import Event
from ..replays.replay import Replay
from . import keys
from .pages import class_page, lobby_page, table_page
from .store import Conflict, NewMove, Store, TableRow

__all__ = ["MAX_FRAME", "Board", "BoardMaker", "Refused", "TableServer"]

#: The largest WebSocket message or HTTP body the server reads (a move is under 200 bytes).
MAX_FRAME = 16_384
#: Messages a connection may send per second, and the burst it may save up.
RATE, BURST = 60.0, 120.0
#: Frames waiting for a slow connection before it is dropped (it reconnects and catches up).
MAX_OUTBOX = 256
#: Events a reconnecting client may catch up on, in steps (older reveals were brief anyway).
MAX_CATCH_UP = 500
MAX_NAME = 40
PROTOCOL = 1
#: Seconds a table nobody watches stays in memory (``leyline serve --evict-after``).
EVICT_AFTER = 120.0

#: The page's board (what the bundled front-end renders from) for one viewer, built by the
#: layer above (widgets) and given to the server: ``maker(seat)`` makes one per connection,
#: called as ``board(game, view, bots, events, actor)`` after each change.
Board = Callable[[Game, Mapping[str, Any], Mapping[int, str], list[Event], "int | None"],
                 dict[str, Any]]
BoardMaker = Callable[["int | None"], Board]

_T = TypeVar("_T")
log = logging.getLogger("leyline.tables")


class Refused(ValueError):
    """A request or message the server refuses: ``field`` names what was wrong."""

    def __init__(self, field: str, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.field = field
        self.status = status

    def frame(self, msg_id: object = None) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "error", "field": self.field, "error": str(self)}
        if isinstance(msg_id, int) and not isinstance(msg_id, bool):
            out["id"] = msg_id
        return out


class _Bucket:
    """A token bucket: ``RATE`` messages a second, bursts of ``BURST``."""

    def __init__(self, rate: float = RATE, burst: float = BURST) -> None:
        self.rate, self.burst = rate, burst
        self.tokens, self.at = burst, time.monotonic()

    def take(self) -> bool:
        now = time.monotonic()
        self.tokens = min(self.burst, self.tokens + (now - self.at) * self.rate)
        self.at = now
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True


@dataclass(eq=False)
class _Conn:
    ws: WebSocket
    role: str  # "seat" | "spectator" | "teacher"
    seat: int | None  # the seat; None for the teacher; ONLOOKER for a spectator
    sent: int  # the last step whose events this connection was sent
    board: Board | None
    # Frames to send, as dicts or as JSON text already written; None closes the connection.
    outbox: asyncio.Queue[dict[str, Any] | str | None] = field(default_factory=asyncio.Queue)
    bucket: _Bucket = field(default_factory=_Bucket)
    acks: int = 0
    # False until its welcome is sent: a connection counts as watching (its table stays in
    # memory) from its hello on, and gets state frames from its welcome on.
    ready: bool = False

    @property
    def viewer(self) -> int | None:
        return self.seat


@dataclass(eq=False)
class _Live:
    """A table in this process's memory: the Game rebuilt from its recorded moves (its
    history holds each step's events)."""

    row: TableRow
    game: Game
    bots: dict[int, BotSeat]
    turn_started: float
    # When it was last used (time.monotonic()): a table nobody watches is dropped from memory
    # once it has been left alone for ``TableServer.evict_after`` seconds.
    touched: float = field(default_factory=time.monotonic)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    conns: set[_Conn] = field(default_factory=set)
    driver: asyncio.Task[None] | None = None
    # The views of the step ``views_step`` (see TableServer._view), made once for every
    # connection at that step.
    views: dict[str, tuple[dict[str, Any], str]] = field(default_factory=dict)
    views_step: int = -1

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def spec(self) -> dict[str, Any]:
        return self.row.spec

    def bot_kinds(self) -> dict[int, str]:
        return {int(k): v for k, v in self.spec["bots"].items()}


def _rules(spec: Mapping[str, Any]) -> Rules | None:
    return None if spec.get("rules") is None else Rules.from_dict(spec["rules"])


def _bots(spec: Mapping[str, Any]) -> dict[int, BotSeat]:
    seed = spec["seed"]
    return {int(seat): BotSeat(make_bot(kind, seed=seed * 10 + int(seat)), int(seat))
            for seat, kind in spec["bots"].items()}


def _fields(msg: Mapping[str, Any], kind: str, allowed: tuple[str, ...]) -> None:
    extra = sorted(str(k)[:40] for k in msg if k not in allowed and k != "type")
    if extra:
        raise Refused(extra[0], f"a {kind} message has no field {quote(extra[0])}; it takes "
                                f"{', '.join(allowed) or 'none'}")


def _int(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise Refused(name, f"{name} must be a whole number from {low} to {high}, got "
                            f"{quote(value)}")
    return value


def _secret(value: object, name: str) -> str:
    if not isinstance(value, str) or not 0 < len(value) <= keys.MAX_SECRET:
        raise Refused(name, f"{name} must be the secret from a table link")
    return value


class TableServer:
    """The tables of one store, served over HTTP and WebSockets (:attr:`app`).

    ``board`` makes the page's board for a viewer (the widgets layer's presenter; without it
    frames carry the observation, events and legal actions only, and ``/t/...`` pages are not
    served). ``static`` is the folder of the bundled front-end (``widget.js``, ``widget.css``)
    the pages load. ``origins``: the web origins (``https://host:port``) whose pages may open a
    WebSocket besides the server's own. ``poll``: how often (seconds) the server looks for
    moves recorded by another process sharing the store. ``evict_after``: how long (seconds)
    a table nobody watches stays in memory; it is loaded again from the store when someone
    comes back (or its turn timer runs out).
    """

    def __init__(self, store: Store, *, board: BoardMaker | None = None,
                 static: Path | None = None, origins: tuple[str, ...] = (),
                 poll: float = 0.5, evict_after: float = EVICT_AFTER) -> None:
        self.store = store
        self.board = board
        self.static = static
        self.origins = frozenset(o.rstrip("/") for o in origins)
        self.poll = poll
        self.evict_after = evict_after
        self.live: dict[str, _Live] = {}
        # Tables dropped from memory while a turn timer runs: when it runs out (Unix time),
        # the table is loaded again and its timer moves it on.
        self._wake: dict[str, float] = {}
        self._db_pool = ThreadPoolExecutor(max_workers=1, thread_name_prefix="leyline-store")
        self._loading: dict[str, asyncio.Future[_Live | None]] = {}
        self._http_buckets: dict[str, _Bucket] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self._pending: list[tuple[NewMove, asyncio.Future[None]]] = []  # moves to commit
        self._flusher: asyncio.Future[None] | None = None
        self.app = Starlette(routes=[
            Route("/", self._index),
            Route("/t/{table}", self._table_page),
            Route("/lobby", self._lobby_page),
            Route("/class", self._class_page),
            Route("/static/{name}", self._static),
            Route("/api/tables", self._create_table, methods=["POST"]),
            Route("/api/classes", self._create_class, methods=["POST"]),
            Route("/api/lobby", self._lobby, methods=["POST"]),
            Route("/api/class", self._class_tables),
            Route("/api/class/replays", self._class_replays),
            Route("/api/tables/{table}/replay", self._replay),
            WebSocketRoute("/ws/{table}", self._socket),
        ], lifespan=self._lifespan)

    # -- the store, off the event loop -----------------------------------------------------
    async def _db(self, fn: Callable[..., _T], *args: Any, **kwargs: Any) -> _T:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._db_pool, partial(fn, *args, **kwargs))

    @contextlib.asynccontextmanager
    async def _lifespan(self, _app: Starlette) -> AsyncIterator[None]:
        await self._start()
        try:
            yield
        finally:
            await self._stop()

    async def _start(self) -> None:
        # A restarted server resumes every unfinished table at its last recorded move. Those
        # with a bot seat or a turn timer are loaded now, so that they go on by themselves;
        # the others wait in the store until someone comes back to them.
        for row in await self._db(self.store.tables, status="playing"):
            if row.spec["bots"] or row.spec.get("turn_seconds"):
                await self._load(row.id)
        self._spawn(self._poll_loop())
        self._spawn(self._evict_loop())

    async def _stop(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        for live in self.live.values():
            if live.driver is not None:
                live.driver.cancel()
        self._db_pool.shutdown(wait=True)

    def _spawn(self, coro: Awaitable[Any]) -> asyncio.Task[Any]:
        task: asyncio.Task[Any] = asyncio.ensure_future(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    # -- tables in memory ------------------------------------------------------------------
    async def _load(self, table_id: str) -> _Live | None:
        """The table in memory, loaded from the store when it is not (None: no such table).
        Every use counts as a visit: it stays in memory ``evict_after`` seconds more."""
        live = self.live.get(table_id)
        if live is not None:
            live.touched = time.monotonic()
            return live
        pending = self._loading.get(table_id)
        if pending is not None:
            return await pending
        fut: asyncio.Future[_Live | None] = asyncio.get_running_loop().create_future()
        self._loading[table_id] = fut
        try:
            row = await self._db(self.store.table, table_id)
            built = None
            if row is not None:
                moves = await self._db(self.store.moves, table_id)
                built = self._build(row, [m.action for m in moves], [m.at for m in moves])
                self.live[table_id] = built
                self._wake.pop(table_id, None)  # in memory again: its own timer takes over
                self._drive(built)
            fut.set_result(built)
            return built
        except BaseException as err:
            fut.set_exception(err)
            raise
        finally:
            del self._loading[table_id]

    @staticmethod
    def _build(row: TableRow, actions: list[dict[str, Any]], times: list[float]) -> _Live:
        spec = row.spec
        game = Game.new(players=spec["players"], seed=spec["seed"], rules=_rules(spec))
        started = row.created
        for action, at in zip(actions, times, strict=True):
            turn = game.turn
            game.apply(Action.from_dict(action))
            if game.turn != turn:
                started = at
        return _Live(row=row, game=game, bots=_bots(spec), turn_started=started)

    async def _catch_up(self, live: _Live) -> None:
        """Apply the moves another process recorded since this one's last (lock held)."""
        moves = await self._db(self.store.moves, live.id, live.game.step)
        if not moves:
            return
        for m in moves:
            turn = live.game.turn
            live.game.apply(Action.from_dict(m.action))
            if live.game.turn != turn:
                live.turn_started = m.at
        self._broadcast(live)
        self._drive(live)

    async def _poll_loop(self) -> None:
        while True:
            await asyncio.sleep(self.poll)
            try:
                watched = [t for t, live in self.live.items() if not live.game.is_over]
                if not watched:
                    continue
                steps = await self._db(self.store.steps, watched)
                for table_id, step in steps.items():
                    live = self.live.get(table_id)
                    if live is not None and step > live.game.step:
                        async with live.lock:
                            await self._catch_up(live)
            except asyncio.CancelledError:
                raise
            except Exception:  # a store hiccup: the next round tries again
                continue

    async def _evict_loop(self) -> None:
        while True:
            await asyncio.sleep(min(5.0, self.evict_after / 2))
            self.evict()
            now = time.time()
            for table_id in [t for t, at in self._wake.items() if at <= now]:
                del self._wake[table_id]
                self._spawn(self._load(table_id))  # its timer ran out: it moves on

    def evict(self, older: float | None = None) -> list[str]:
        """Drop from memory the tables nobody has watched or moved at for ``older`` seconds
        (``evict_after`` by default); the ids dropped. Everything of a table is in the store
        (its spec and every recorded move), so nothing is lost: it is loaded again when
        someone comes back. A table whose bot is to move stays until it has moved; one whose
        turn timer runs is woken when it runs out."""
        limit = self.evict_after if older is None else older
        now = time.monotonic()
        dropped = []
        for table_id, live in list(self.live.items()):
            game = live.game
            if live.conns or live.lock.locked() or now - live.touched < limit or (
                    not game.is_over and game.active_player in live.bots):
                continue
            if live.driver is not None:
                live.driver.cancel()
            deadline = self._deadline(live)
            if deadline is not None:
                self._wake[table_id] = deadline
            del self.live[table_id]
            dropped.append(table_id)
        return dropped

    @staticmethod
    def _deadline(live: _Live) -> float | None:
        """When the turn timer ends (Unix time), or None: no timer, a bot's turn, or over."""
        game = live.game
        seconds = live.spec.get("turn_seconds")
        if not seconds or game.is_over or game.active_player in live.bots:
            return None
        return float(live.turn_started + seconds)

    # -- moves -----------------------------------------------------------------------------
    async def _commit(self, live: _Live, action: Action, seat: int, cause: str) -> None:
        """Apply ``action`` for ``seat``, record it, then show it (lock held). Refused when
        illegal; when another process recorded this step first, this one catches up instead.

        The move is applied to a copy of the game (the copy shares the history and copies
        only the position), which becomes the table's game once the move is recorded: until
        then every frame shows the recorded position, and a move the store refused leaves
        nothing to undo."""
        game = live.game
        step = game.step
        after = game.clone()
        after.apply(action)  # IllegalActionError: refused, nothing changed
        over = after.is_over
        try:
            replay = Replay.from_game(after).to_json() if over else None
            await self._record(NewMove(live.id, step, action.to_dict(), seat, cause, over,
                                       replay))
        except Conflict:
            # Another process recorded this step first: take what it recorded.
            await self._catch_up(live)
            raise Refused("step", "another move was made at this table first; the table "
                                  "has moved on, look again") from None
        live.game = after
        live.touched = time.monotonic()
        if after.turn != game.turn:
            live.turn_started = time.time()

    async def _record(self, move: NewMove) -> None:
        """Record ``move``; returns once it is committed. The moves of every table that wait
        meanwhile are committed together in the next transaction (one wait for the disk for
        all of them), so many tables cost little more than one."""
        fut: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((move, fut))
        if self._flusher is None or self._flusher.done():
            self._flusher = asyncio.ensure_future(self._flush())
        await fut

    async def _flush(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, []
            results: list[BaseException | None]
            try:
                results = list(await self._db(self.store.add_moves, [m for m, _ in batch]))
            except Exception as failed:  # the store failed: every move of the batch is refused
                results = [failed] * len(batch)
            for (_, fut), refusal in zip(batch, results, strict=True):
                if fut.done():
                    continue
                if refusal is None:
                    fut.set_result(None)
                else:
                    fut.set_exception(refusal)

    def _drive(self, live: _Live) -> None:
        """Start (again) what plays at this table without a person: its bots, its timer."""
        if live.driver is not None and not live.driver.done():
            live.driver.cancel()
        live.driver = None
        game = live.game
        if game.is_over:
            return
        if game.active_player in live.bots:
            delay = live.spec["bot_delay_ms"] / 1000
        elif live.spec.get("turn_seconds"):
            delay = max(0.0, live.turn_started + live.spec["turn_seconds"] - time.time())
        else:
            return
        live.driver = asyncio.ensure_future(self._drive_later(live, game.step, delay))

    async def _drive_later(self, live: _Live, step: int, delay: float) -> None:
        await asyncio.sleep(delay)
        async with live.lock:
            game = live.game
            if game.step != step or game.is_over:
                return
            seat = game.active_player
            bot = live.bots.get(seat)
            try:
                if bot is not None:
                    action = await asyncio.to_thread(bot.act, game)
                    await self._commit(live, action, seat, "bot")
                else:
                    # The turn timer ran out: the seat passes, ends its phases, and a refill
                    # that must be made takes the first empty slot.
                    turn = game.turn
                    while not live.game.is_over and live.game.turn == turn:
                        legal = live.game.legal_actions()
                        action = EndPhase() if EndPhase() in legal else legal[0]
                        await self._commit(live, action, seat, "timer")
            except Refused:
                return  # another process moved first; _commit caught up and drove on
        self._broadcast(live)
        self._drive(live)

    # -- frames ----------------------------------------------------------------------------
    @staticmethod
    def _view(live: _Live, seat: int | None) -> tuple[dict[str, Any], str]:
        """What ``seat`` sees now (None: the all-seeing view), and as JSON text.

        Every player's view holds the same state but for its ``viewer``: what a player glimpsed
        reaches them as events, never as state (an inert card carries no element for any
        player), and a spectator sees what they all see. So the view is made and written once
        per step for every seat and spectator of the table, and once for its teachers."""
        game = live.game
        if live.views_step != game.step:
            live.views.clear()
            live.views_step = game.step
        key = "all" if seat is None else "players"
        made = live.views.get(key)
        if made is None:
            shared = dict(game.observation(None if seat is None else 0))
            del shared["viewer"]
            made = live.views[key] = (shared, json.dumps(shared, separators=(",", ":")))
        shared, text = made
        return {"viewer": seat, **shared}, f'{{"viewer":{json.dumps(seat)},{text[1:]}'

    def _frame(self, live: _Live, conn: _Conn, **extra: Any) -> str:
        """The ``state`` frame for ``conn`` now, as JSON text (its view written once per step,
        see :meth:`_view`)."""
        game = live.game
        seat = conn.seat
        view, view_text = self._view(live, seat)
        start = max(conn.sent + 1, game.step + 1 - MAX_CATCH_UP, 0)
        items = game.visible_events_since(start, seat)
        conn.sent = game.step
        actor = (seat if seat is not None and seat >= 0 and not game.is_over
                 and game.active_player == seat else None)
        deadline = None
        if live.spec.get("turn_seconds") and not game.is_over and \
                game.active_player not in live.bots:
            deadline = live.turn_started + live.spec["turn_seconds"]
        frame: dict[str, Any] = {
            "type": "state", "table": live.id, "step": game.step, "role": conn.role,
            "seat": None if seat == ONLOOKER else seat, "players": list(game.players),
            "bots": {str(k): v for k, v in live.bot_kinds().items()},
            "active_player": game.active_player, "over": game.is_over, "deadline": deadline,
            "events": {"from": start, "step": game.step, "items": items},
            "actions": [a.to_dict() for a in game.legal_actions()] if actor is not None else [],
            **extra,
        }
        if conn.board is not None:
            frame["board"] = conn.board(game, view, live.bot_kinds(), items, actor)
        return f'{json.dumps(frame, separators=(",", ":"))[:-1]},"view":{view_text}}}'

    def _send(self, conn: _Conn, frame: dict[str, Any] | str) -> None:
        if conn.outbox.qsize() >= MAX_OUTBOX:
            conn.outbox.put_nowait(None)  # too slow: drop it; it reconnects and catches up
            return
        conn.outbox.put_nowait(frame)

    def _broadcast(self, live: _Live) -> None:
        for conn in list(live.conns):
            if conn.ready and conn.sent < live.game.step:
                self._send(conn, self._frame(live, conn))

    # -- WebSocket -------------------------------------------------------------------------
    def _origin_ok(self, ws: WebSocket) -> bool:
        origin = ws.headers.get("origin")
        if origin is None:
            return True  # not a browser page (a kernel, a script): no cross-site risk
        host = ws.headers.get("host", "")
        own = {f"http://{host}", f"https://{host}"}
        return origin.rstrip("/") in own or origin.rstrip("/") in self.origins

    async def _socket(self, ws: WebSocket) -> None:
        if not self._origin_ok(ws):
            await ws.close(code=1008, reason="cross-origin WebSocket refused")
            return
        await ws.accept()
        table_id = ws.path_params["table"]
        conn: _Conn | None = None
        live: _Live | None = None
        writer: asyncio.Task[None] | None = None
        try:
            hello = await self._receive(ws)
            try:
                live, conn = await self._hello(table_id, ws, hello)
            except Refused as err:
                await ws.send_text(json.dumps(err.frame()))
                await ws.close(code=1008, reason=str(err)[:100])
                return
            # Watching from here on (no wait since the table was loaded): it stays in memory.
            live.conns.add(conn)
            writer = asyncio.ensure_future(self._writer(conn))
            async with live.lock:
                conn.ready = True
                self._send(conn, {"type": "welcome", "protocol": PROTOCOL, "table": live.id,
                                  "role": conn.role,
                                  "seat": None if conn.seat == ONLOOKER else conn.seat})
                self._send(conn, self._frame(live, conn))
            while not writer.done():
                msg = await self._receive(ws)
                await self._message(live, conn, msg)
        except (WebSocketDisconnect, RuntimeError):
            pass
        except Exception as err:  # the store failed: the client reconnects and tries again
            log.warning("table %s: connection closed after %s: %s", table_id,
                        type(err).__name__, str(err)[:200])
            with contextlib.suppress(Exception):
                await ws.close(code=1011)
        finally:
            if live is not None and conn is not None:
                live.conns.discard(conn)
                live.touched = time.monotonic()
                conn.outbox.put_nowait(None)
                if live.game.is_over and not live.conns and self.live.get(live.id) is live:
                    del self.live[live.id]  # finished and unwatched: its replay is stored
            if writer is not None:
                try:
                    await asyncio.wait_for(writer, 5)
                except (TimeoutError, Exception):
                    writer.cancel()

    async def _writer(self, conn: _Conn) -> None:
        ws = conn.ws
        while True:
            frame = await conn.outbox.get()
            if frame is None:
                if ws.client_state is WebSocketState.CONNECTED:
                    with contextlib.suppress(Exception):
                        await ws.close(code=1001)
                return
            try:
                await ws.send_text(frame if isinstance(frame, str)
                                   else json.dumps(frame, separators=(",", ":")))
            except Exception:
                # A frame that cannot go out: close, so that the client reconnects and
                # catches up rather than wait for frames that never come.
                with contextlib.suppress(Exception):
                    await ws.close(code=1011)
                return

    async def _receive(self, ws: WebSocket) -> Any:
        """The next message: text of at most MAX_FRAME bytes holding a JSON object, or the
        refusal to send back (an error frame carries no echo of the junk beyond a quote)."""
        while True:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                raise WebSocketDisconnect(message.get("code", 1000))
            text = message.get("text")
            if text is None:
                return Refused("frame", "frames are JSON text, not binary")
            if len(text) > MAX_FRAME:
                return Refused("frame", f"a frame holds at most {MAX_FRAME} bytes")
            try:
                msg = json.loads(text)
            except ValueError:
                return Refused("frame", f"a frame must be JSON, got {quote(text)}")
            if not isinstance(msg, dict):
                return Refused("type", "a frame must be a JSON object with a 'type'")
            return msg

    async def _hello(self, table_id: str, ws: WebSocket, msg: Any) -> tuple[_Live, _Conn]:
        if isinstance(msg, Refused):
            raise msg
        if msg.get("type") != "hello":
            raise Refused("type", "the first message must be a hello")
        _fields(msg, "hello", ("secret", "watch", "teacher", "seen", "board", "protocol"))
        given = [k for k in ("secret", "watch", "teacher") if k in msg]
        if len(given) != 1:
            raise Refused("secret", "a hello carries one of secret (a seat), watch (a "
                                    "spectator) or teacher (a teacher's key)")
        kind = given[0]
        key = _secret(msg[kind], kind)
        seen = _int(msg.get("seen", -1), "seen", -1, 10**9)
        want_board = msg.get("board", False)
        if not isinstance(want_board, bool):
            raise Refused("board", f"board must be true or false, got {quote(want_board)}")
        if want_board and self.board is None:
            raise Refused("board", "this server sends no page board (started without one)")
        # The teacher's class is looked up first: from the table's loading on, nothing waits
        # before the connection joins it (see _socket).
        class_id = await self._class_of(key) if kind == "teacher" else None
        live = await self._load(table_id) if len(table_id) <= 40 else None
        if live is None:
            raise Refused("table", f"no table {quote(table_id)} on this server", 404)
        row = live.row
        seat: int | None
        if kind == "secret":
            found = keys.find(key, row.seat_hashes)
            if found is None:
                raise Refused("secret", "that secret is not a seat of this table", 403)
            seat, role = found, "seat"
        elif kind == "watch":
            if not keys.matches(key, row.watch_hash):
                raise Refused("watch", "that is not this table's spectator link", 403)
            seat, role = ONLOOKER, "spectator"
        else:
            if row.class_id is None or class_id != row.class_id:
                raise Refused("teacher", "that teacher's key is not this table's class", 403)
            seat, role = None, "teacher"
        board = self.board(seat) if want_board and self.board is not None else None
        return live, _Conn(ws=ws, role=role, seat=seat, sent=min(seen, live.game.step),
                           board=board)

    async def _message(self, live: _Live, conn: _Conn, msg: Any) -> None:
        msg_id = msg.get("id") if isinstance(msg, dict) else None
        try:
            if not conn.bucket.take():
                raise Refused("rate", f"too many messages: at most {RATE:.0f} a second")
            if isinstance(msg, Refused):
                raise msg
            kind = msg.get("type")
            if kind == "ping":
                _fields(msg, "ping", ("id",))
                self._send(conn, {"type": "pong", **({"id": msg_id} if "id" in msg else {})})
            elif kind == "sync":
                _fields(msg, "sync", ("id",))
                async with live.lock:
                    conn.sent = live.game.step  # the whole state again, no events replayed
                    if conn.board is not None and self.board is not None:
                        conn.board = self.board(conn.seat)  # its log goes out whole again
                    self._send(conn, self._frame(live, conn, resync=True))
            elif kind == "move":
                await self._move(live, conn, msg)
            else:
                raise Refused("type", f"unknown message type {quote(kind)}; a client sends "
                                      "hello, move, sync or ping")
        except Refused as err:
            self._send(conn, err.frame(msg_id))
        except ValueError as err:  # the engine's refusal (IllegalActionError): nothing changed
            self._send(conn, Refused("action", str(err)).frame(msg_id))

    async def _move(self, live: _Live, conn: _Conn, msg: dict[str, Any]) -> None:
        _fields(msg, "move", ("id", "step", "action"))
        msg_id = _int(msg.get("id"), "id", 0, 2**53)
        if conn.role != "seat" or conn.seat is None or conn.seat < 0:
            raise Refused("role", f"a {conn.role} watches; only a seat's secret may move")
        if "action" not in msg:
            raise Refused("action", "a move needs an 'action' object")
        step = _int(msg.get("step"), "step", 0, 10**9)
        try:
            action = Action.from_dict(msg["action"])
        except ValueError as err:
            raise Refused("action", f"malformed action: {err}") from None
        async with live.lock:
            game = live.game
            if game.is_over:
                raise Refused("turn", f"the game is over ({game.end_reason}); no move is "
                                      "possible")
            # The step first: a move made on an old view is out of date whoever's turn it is
            # now (the sender looks again), while a move for this very step out of turn is
            # refused by the rule.
            if step != game.step:
                raise Refused("step", f"that move was for step {step}, but the table is at "
                                      f"step {game.step}; look again")
            if game.active_player != conn.seat:
                raise Refused("turn", f"it is {game.players[game.active_player]}'s turn, not "
                                      f"{game.players[conn.seat]}'s")
            await self._commit(live, action, conn.seat, "seat")
            self._send(conn, {"type": "ack", "id": msg_id, "step": live.game.step})
            self._broadcast(live)
            self._drive(live)

    # -- HTTP ------------------------------------------------------------------------------
    async def _http(self, request: Request,
                    handler: Callable[[], Awaitable[Any]]) -> Response:
        host = request.client.host if request.client else "?"
        bucket = self._http_buckets.get(host)
        if bucket is None:
            if len(self._http_buckets) > 10_000:
                self._http_buckets.clear()
            bucket = self._http_buckets[host] = _Bucket(10.0, 50.0)
        if not bucket.take():
            return JSONResponse({"type": "error", "field": "rate",
                                 "error": "too many requests: at most 10 a second"}, 429)
        try:
            result = await handler()
        except Refused as err:
            return JSONResponse(err.frame(), err.status)
        if isinstance(result, Response):
            return result
        return JSONResponse(result)

    async def _body(self, request: Request) -> dict[str, Any]:
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > MAX_FRAME:
                raise Refused("body", f"a request body holds at most {MAX_FRAME} bytes", 413)
            chunks.append(chunk)
        try:
            data = json.loads(b"".join(chunks) or b"{}")
        except ValueError:
            raise Refused("body", "the request body must be a JSON object") from None
        if not isinstance(data, dict):
            raise Refused("body", "the request body must be a JSON object")
        return data

    @staticmethod
    def _bearer(request: Request, name: str) -> str:
        auth = request.headers.get("authorization", "")
        if not auth.startswith("Bearer "):
            raise Refused(name, f"send the {name} as 'Authorization: Bearer <{name}>'", 401)
        return _secret(auth[len("Bearer "):].strip(), name)

    async def _class_of(self, key: str) -> str | None:
        classes = await self._db(self.store.classes_with_key, keys.digest(key))
        found = keys.find(key, [h for _, _, h in classes])
        return None if found is None else classes[found][0]

    def _base(self, request: Request) -> str:
        return str(request.base_url).rstrip("/")

    async def _create_class(self, request: Request) -> Response:
        async def run() -> dict[str, Any]:
            data = await self._body(request)
            _fields(data, "class", ("name",))
            name = data.get("name", "Class")
            if not isinstance(name, str) or not 0 < len(name) <= MAX_NAME:
                raise Refused("name", f"name must be text of 1 to {MAX_NAME} characters")
            class_id, key = keys.new_id(), keys.new_secret()
            await self._db(self.store.add_class, class_id, name, keys.digest(key))
            return {"type": "class", "class": class_id, "name": name, "teacher_key": key,
                    "room": f"{self._base(request)}/class#key={key}"}
        return await self._http(request, run)

    async def _create_table(self, request: Request) -> Response:
        async def run() -> dict[str, Any]:
            data = await self._body(request)
            return await self.create(data, self._base(request))
        return await self._http(request, run)

    async def create(self, data: Mapping[str, Any], base: str) -> dict[str, Any]:
        """Create a table from a request body (see docs/tables.md); its links under ``base``."""
        _fields(data, "table", ("seats", "seed", "rules", "class", "turn_seconds",
                                "bot_delay_ms"))
        seats = data.get("seats")
        if not isinstance(seats, list) or not 1 <= len(seats) <= 4:
            raise Refused("seats", "seats must list 1 to 4 seats: a player's name or a bot "
                                   f"kind ({', '.join(BOT_KINDS)})")
        names: list[str] = []
        bots: dict[str, str] = {}
        for p, entry in enumerate(seats):
            if not isinstance(entry, str) or not 0 < len(entry.strip()) <= MAX_NAME:
                raise Refused("seats", f"seat {p} must be a name of 1 to {MAX_NAME} "
                                       f"characters, got {quote(entry)}")
            kind = entry.strip().lower()
            if kind in BOT_KINDS:
                bots[str(p)] = kind
                base_name = f"{kind.capitalize()} bot"
                name, n = base_name, 2
                while name in names:
                    name, n = f"{base_name} {n}", n + 1
                names.append(name)
            else:
                names.append(entry.strip())
        if len(bots) == len(seats):
            raise Refused("seats", "a table needs at least one person's seat")
        seed = data.get("seed")
        seed = (secrets.randbelow(2**32) if seed is None
                else _int(seed, "seed", 0, 2**63 - 1))
        rules = data.get("rules")
        if rules is not None:
            try:
                Rules.from_dict(rules)
            except (ValueError, TypeError) as err:
                raise Refused("rules", f"rules: {str(err)[:300]}") from None
        turn_seconds = data.get("turn_seconds")
        if turn_seconds is not None:
            turn_seconds = _int(turn_seconds, "turn_seconds", 1, 30 * 86400)
        bot_delay = _int(data.get("bot_delay_ms", 600), "bot_delay_ms", 0, 60_000)
        class_id = None
        if data.get("class") is not None:
            class_id = await self._class_of(_secret(data["class"], "class"))
            if class_id is None:
                raise Refused("class", "that teacher's key opens no class on this server", 403)
        spec = {"players": names, "seed": seed, "rules": rules, "bots": bots,
                "turn_seconds": turn_seconds, "bot_delay_ms": bot_delay}
        try:
            Game.new(players=names, seed=seed, rules=_rules(spec))
        except ValueError as err:
            raise Refused("rules", str(err)[:300]) from None
        table_id = keys.new_id()
        secrets_ = [None if str(p) in bots else keys.new_secret() for p in range(len(names))]
        watch = keys.new_secret()
        await self._db(self.store.add_table, table_id, class_id, spec, keys.digest(watch),
                       [None if s is None else keys.digest(s) for s in secrets_])
        await self._load(table_id)
        link = f"{base}/t/{table_id}"
        return {"type": "table", "table": table_id, "players": names,
                "seats": [{"seat": p, "name": names[p], "bot": bots.get(str(p)),
                           **({"secret": s, "link": f"{link}?seat={s}"} if s else {})}
                          for p, s in enumerate(secrets_)],
                "watch": watch, "spectator": f"{link}?watch={watch}"}

    def _summary(self, live: _Live | None, row: TableRow) -> dict[str, Any]:
        game = live.game if live is not None else None
        out: dict[str, Any] = {"table": row.id, "players": row.spec["players"],
                               "bots": row.spec["bots"], "status": row.status,
                               "step": row.step, "updated": row.updated}
        if game is not None:
            out.update(step=game.step, status="over" if game.is_over else "playing",
                       turn=game.turn, active_player=game.active_player,
                       scores=game.scores(), end_reason=game.end_reason)
        return out

    async def _lobby(self, request: Request) -> Response:
        async def run() -> dict[str, Any]:
            data = await self._body(request)
            _fields(data, "lobby", ("links",))
            links = data.get("links")
            if not isinstance(links, list) or len(links) > 100:
                raise Refused("links", "links must list at most 100 {table, secret} objects")
            out = []
            for i, entry in enumerate(links):
                if not isinstance(entry, dict) or set(entry) != {"table", "secret"} or \
                        not isinstance(entry["table"], str) or len(entry["table"]) > 40:
                    raise Refused("links", f"links[{i}] must be an object with table and "
                                           "secret")
                secret = _secret(entry["secret"], f"links[{i}].secret")
                live = await self._load(entry["table"])
                seat = None if live is None else keys.find(secret, live.row.seat_hashes)
                if live is None or seat is None:
                    out.append({"table": entry["table"][:40], "error": "not a seat of a table "
                                                                        "on this server"})
                    continue
                summary = self._summary(live, live.row)
                summary.update(seat=seat, your_turn=(not live.game.is_over
                                                     and live.game.active_player == seat))
                out.append(summary)
            return {"type": "lobby", "tables": out}
        return await self._http(request, run)

    async def _teacher_class(self, request: Request) -> str:
        class_id = await self._class_of(self._bearer(request, "teacher"))
        if class_id is None:
            raise Refused("teacher", "that teacher's key opens no class on this server", 403)
        return class_id

    async def _class_tables(self, request: Request) -> Response:
        async def run() -> dict[str, Any]:
            class_id = await self._teacher_class(request)
            rows = await self._db(self.store.tables, class_id=class_id)
            return {"type": "class", "class": class_id,
                    "tables": [self._summary(await self._load(r.id), r) for r in rows]}
        return await self._http(request, run)

    async def _replay_of(self, table_id: str) -> str | None:
        live = await self._load(table_id)
        if live is None:
            return None
        row = await self._db(self.store.table, table_id)
        if row is not None and row.replay is not None:
            return row.replay
        async with live.lock:
            return Replay.from_game(live.game).to_json()

    async def _class_replays(self, request: Request) -> Response:
        async def run() -> dict[str, Any]:
            class_id = await self._teacher_class(request)
            rows = await self._db(self.store.tables, class_id=class_id)
            replays = {}
            for r in rows:
                text = await self._replay_of(r.id)
                if text is not None:
                    replays[r.id] = json.loads(text)
            return {"type": "replays", "class": class_id, "replays": replays}
        return await self._http(request, run)

    async def _replay(self, request: Request) -> Response:
        async def run() -> Response:
            table_id = request.path_params["table"][:40]
            key = self._bearer(request, "secret")
            live = await self._load(table_id)
            if live is None:
                raise Refused("table", f"no table {quote(table_id)} on this server", 404)
            allowed = keys.find(key, live.row.seat_hashes) is not None or (
                live.row.class_id is not None and await self._class_of(key) == live.row.class_id)
            if not allowed:
                raise Refused("secret", "only the table's seats and its teacher may download "
                                        "its replay", 403)
            if not live.game.is_over:
                raise Refused("table", "the game is not over yet: its replay is kept when it "
                                       "ends", 409)
            text = await self._replay_of(table_id)
            return Response(text, media_type="application/json", headers={
                "content-disposition": f'attachment; filename="leyline-{table_id}.json"'})
        return await self._http(request, run)

    # -- pages -----------------------------------------------------------------------------
    async def _index(self, request: Request) -> Response:
        return HTMLResponse(lobby_page())

    async def _lobby_page(self, request: Request) -> Response:
        return HTMLResponse(lobby_page())

    async def _class_page(self, request: Request) -> Response:
        return HTMLResponse(class_page())

    async def _table_page(self, request: Request) -> Response:
        if self.static is None or self.board is None:
            return JSONResponse(Refused("page", "this server serves no pages (started "
                                                "without the front-end)").frame(), 404)
        return HTMLResponse(table_page(request.path_params["table"][:40]))

    async def _static(self, request: Request) -> Response:
        name = request.path_params["name"]
        if self.static is None or name not in ("widget.js", "widget.css"):
            return JSONResponse(Refused("name", "no such file").frame(), 404)
        return FileResponse(self.static / name, headers={"cache-control": "no-cache"})


def serve(store: Store, *, host: str = "127.0.0.1", port: int = 8765,
          board: BoardMaker | None = None, static: Path | None = None,
          origins: tuple[str, ...] = (), poll: float = 0.5,
          evict_after: float = EVICT_AFTER) -> None:
    """Run the table server until interrupted (``leyline serve``)."""
    import uvicorn

    server = TableServer(store, board=board, static=static, origins=origins, poll=poll,
                         evict_after=evict_after)
    # No permessage-deflate: a frame is a few KB of JSON, and compressing each one costs CPU at
    # both ends and a zlib window per connection, for bytes a network carries without notice.
    uvicorn.run(server.app, host=host, port=port, ws_max_size=MAX_FRAME, log_level="warning",
                ws="websockets-sansio", ws_per_message_deflate=False)
