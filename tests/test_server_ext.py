"""The server extension that sends kernel websocket messages without delay (widgets/server.py):
the wrapper itself, what it assumes of jupyter_server and tornado, that installing the package
does not enable it, that the README's command does, and (tests/test_browser_lab.py) that a real
JupyterLab with it enabled loads it."""

from __future__ import annotations

import asyncio
import inspect
import json
import os
import re
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

from leyline_widget.widgets import server

REPO = Path(__file__).resolve().parent.parent


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


CONFIG = REPO / "jupyter-config" / "jupyter_server_config.d" / "leyline_widget.json"


def test_installing_the_package_does_not_enable_the_extension() -> None:
    """Opt-in: the wheel installs the extension's configuration DISABLED (an extension enabled
    on install would patch every Jupyter server of the environment, JupyterHub's included);
    ``jupyter server extension enable`` needs that entry to find it."""
    assert json.loads(CONFIG.read_text("utf-8")) == {
        "ServerApp": {"jpserver_extensions": {"leyline_widget.widgets.server": False}}}
    project = tomllib.loads((REPO / "pyproject.toml").read_text("utf-8"))
    targets = project["tool"]["hatch"]["build"]["targets"]
    assert targets["wheel"]["shared-data"] == {
        "jupyter-config/jupyter_server_config.d": "etc/jupyter/jupyter_server_config.d"}
    assert "jupyter-config" in targets["sdist"]["include"]
    readme = (REPO / "README.md").read_text("utf-8")
    assert "jupyter server extension enable leyline_widget.widgets.server" in readme


def test_the_readmes_command_enables_it(tmp_path: Path) -> None:
    """``jupyter server extension enable leyline_widget.widgets.server`` finds the installed
    (disabled) entry, validates the module and turns it on. Here for a user whose
    configuration lives in a temporary folder holding the entry the wheel installs, so that
    this environment's own configuration is left alone."""
    pytest.importorskip("jupyter_server")
    (tmp_path / "jupyter_server_config.d").mkdir()
    (tmp_path / "jupyter_server_config.d" / CONFIG.name).write_text(CONFIG.read_text("utf-8"))
    jupyter = Path(sys.executable).with_name("jupyter")
    env = {**os.environ, "JUPYTER_CONFIG_DIR": str(tmp_path)}

    def command(*args: str) -> str:
        done = subprocess.run([str(jupyter), "server", "extension", *args], capture_output=True,
                              text=True, env=env, timeout=120, check=False)
        assert done.returncode == 0, done.stderr
        return done.stderr + done.stdout

    said = command("enable", "--user", "leyline_widget.widgets.server")
    assert "Extension successfully enabled" in said, said
    written = tmp_path / "jupyter_server_config.d" / "leyline_widget.widgets.server.json"
    assert json.loads(written.read_text("utf-8")) == {
        "ServerApp": {"jpserver_extensions": {"leyline_widget.widgets.server": True}}}
    # `list` shows each configuration folder; the user's (this one) says enabled.
    plain = re.sub(r"\x1b\[[0-9;]*m", "", command("list"))  # without its colours
    ours = plain.split(f"Config dir: {tmp_path}")[1].split("Config dir:")[0]
    assert "leyline_widget.widgets.server enabled" in ours, ours
