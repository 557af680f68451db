"""A Jupyter server extension: the kernel's websockets send small messages at once.

Why: a click's answer reaches the page as small messages, the kernel's "busy" status, then the
widget's update a millisecond or two later, then "idle". jupyter_server writes each one to the
page's websocket as it comes, and the socket runs Nagle's algorithm: the update waits in the
server's TCP stack until the page has acknowledged "busy", and the browser delays that
acknowledgement by up to 40 ms. Measured in JupyterLab here, one click in three waited about
40 ms for nothing (a trivial widget, which answers within a millisecond, is seldom caught).
Tornado's own documentation advises ``set_nodelay(True)`` for such websockets; this extension
does it for the kernel channels and for nothing else.

The package installs it enabled (``etc/jupyter/jupyter_server_config.d/leyline_widget.json``);
``jupyter server extension disable leyline_widget.widgets.server`` turns it off. It changes
how soon bytes leave, never what is sent.
"""

from __future__ import annotations

import functools
import inspect
from typing import Any

__all__ = ["nodelay"]

#: Set on a handler class once its ``open`` turns Nagle's algorithm off (loading twice is a no-op).
_MARK = "_leyline_nodelay"


def _jupyter_server_extension_points() -> list[dict[str, str]]:
    return [{"module": __name__}]


def _load_jupyter_server_extension(serverapp: Any) -> None:
    try:
        from jupyter_server.services.kernels.websocket import KernelWebsocketHandler
    except ImportError as err:  # another jupyter_server layout: leave the server as it is
        serverapp.log.warning(f"leyline_widget: kernel websockets left as they are ({err})")
        return
    nodelay(KernelWebsocketHandler)
    serverapp.log.info("leyline_widget: kernel websockets send without delay (TCP_NODELAY)")


def nodelay(handler: type) -> None:
    """Make the tornado ``WebSocketHandler`` class ``handler`` turn off Nagle's algorithm on
    each connection it opens, before its own ``open`` runs.

    >>> import asyncio
    >>> class Socket:
    ...     def set_nodelay(self, on): print("nodelay", on)
    ...     async def open(self, kernel_id): print("open", kernel_id)
    >>> nodelay(Socket); nodelay(Socket)
    >>> asyncio.run(Socket().open("k1"))
    nodelay True
    open k1
    """
    if getattr(handler, _MARK, False):
        return
    opened = handler.open  # type: ignore[attr-defined]

    @functools.wraps(opened)
    async def open_(self: Any, *args: Any, **kwargs: Any) -> Any:
        self.set_nodelay(True)
        result = opened(self, *args, **kwargs)
        return await result if inspect.isawaitable(result) else result

    handler.open = open_  # type: ignore[attr-defined]
    setattr(handler, _MARK, True)
