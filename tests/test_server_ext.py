"""The server extension that sends kernel websocket messages without delay (widgets/server.py):
the wrapper itself, what it assumes of jupyter_server and tornado, that the package ships it
enabled, and that a real JupyterLab of this environment loads it."""

from __future__ import annotations

import asyncio
import inspect
import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from leyline_widget.widgets import server

REPO = Path(__file__).resolve().parent.parent
CONFIG = REPO / "jupyter-config" / "jupyter_server_config.d" / "leyline_widget.json"


class _Socket:
    """A stand-in websocket handler that records what happens to it, in order."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []

    def set_nodelay(self, on: bool) -> None:
        self.calls.append(("nodelay", on))

    async def open(self, kernel_id: str) -> str:
        self.calls.append(("open", kernel_id))
        return kernel_id


def test_nodelay_comes_before_open_and_loading_twice_wraps_once() -> None:
    class Socket(_Socket):
        pass

    server.nodelay(Socket)
    wrapped = Socket.open
    server.nodelay(Socket)
    assert Socket.open is wrapped and Socket.open.__name__ == "open"
    sock = Socket()
    assert asyncio.run(sock.open("k1")) == "k1"
    assert sock.calls == [("nodelay", True), ("open", "k1")]


def test_a_plain_open_is_wrapped_too() -> None:
    class Plain(_Socket):
        def open(self, kernel_id: str) -> str:  # type: ignore[override]  # tornado allows it
            self.calls.append(("open", kernel_id))
            return "plain"

    server.nodelay(Plain)
    sock = Plain()
    assert asyncio.run(sock.open("k2")) == "plain"
    assert sock.calls == [("nodelay", True), ("open", "k2")]


def test_jupyter_servers_kernel_websocket_is_what_the_extension_expects() -> None:
    websocket = pytest.importorskip("jupyter_server.services.kernels.websocket")
    handler = websocket.KernelWebsocketHandler
    assert callable(handler.set_nodelay)  # tornado's WebSocketHandler.set_nodelay
    assert inspect.iscoroutinefunction(handler.open) or callable(handler.open)


class _App:
    def __init__(self) -> None:
        self.log = self
        self.said: list[str] = []

    def info(self, text: str) -> None:
        self.said.append(text)

    def warning(self, text: str) -> None:
        self.said.append(text)


def test_loading_the_extension_patches_the_kernel_websocket(
        monkeypatch: pytest.MonkeyPatch) -> None:
    websocket = pytest.importorskip("jupyter_server.services.kernels.websocket")
    handler = websocket.KernelWebsocketHandler
    # On a copy of the class, so that this process's own jupyter_server stays as it was.
    copy = type("KernelWebsocketHandler", (handler,), {})
    monkeypatch.setattr(websocket, "KernelWebsocketHandler", copy)
    app = _App()
    server._load_jupyter_server_extension(app)
    assert copy._leyline_nodelay and copy.open is not handler.open
    assert app.said == ["leyline_widget: kernel websockets send without delay (TCP_NODELAY)"]
    assert server._jupyter_server_extension_points() == [
        {"module": "leyline_widget.widgets.server"}]


def test_the_package_ships_the_extension_enabled() -> None:
    assert json.loads(CONFIG.read_text("utf-8")) == {
        "ServerApp": {"jpserver_extensions": {"leyline_widget.widgets.server": True}}}
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
    wheel = project["tool"]["hatch"]["build"]["targets"]["wheel"]
    assert wheel["shared-data"] == {
        "jupyter-config/jupyter_server_config.d": "etc/jupyter/jupyter_server_config.d"}
    assert "jupyter-config" in project["tool"]["hatch"]["build"]["targets"]["sdist"]["include"]
