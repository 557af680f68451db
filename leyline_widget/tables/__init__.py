"""Play over the network: the table server (ASGI), its store (SQLite by default, PostgreSQL by
URL), seats and their secrets, spectators, the teacher's room, and the client a widget uses.

The server needs the ``tables`` extra (Starlette, uvicorn, websockets; psycopg for
PostgreSQL); the client needs only websockets. Names load on first use, so importing this
package needs neither.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

from ..core.echo import quote

__all__ = ["TableClient", "TableError", "TableServer", "create_class", "create_table",
           "open_store", "parse_link", "serve"]

_LAZY = {"TableClient": "client", "TableError": "client", "create_class": "client",
         "create_table": "client", "parse_link": "client", "TableServer": "server",
         "serve": "server", "open_store": "store"}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module {quote(__name__)} has no attribute {quote(name)}")
    return getattr(import_module(f".{module}", __name__), name)
