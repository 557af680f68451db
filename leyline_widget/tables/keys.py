"""Secrets of seats, spectators and teachers: random, stored only as hashes, compared in
constant time.

A link carries a secret of 192 random bits (``secrets.token_urlsafe(24)``); the store keeps
its SHA-256. A secret so long needs no slow hash: nobody guesses 2**192, and the hash only
keeps a copy of the database from being a list of working links.

>>> key = new_secret()
>>> len(key) >= 32, matches(key, digest(key)), matches(key + "x", digest(key))
(True, True, False)
>>> find(key, [None, digest("other"), digest(key)])
2
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence

__all__ = ["SECRET_BYTES", "digest", "find", "matches", "new_id", "new_secret"]

#: 24 bytes: 192 bits of randomness per secret (the contract asks for at least 128).
SECRET_BYTES = 24
#: The longest secret a request may carry (longer ones are refused before hashing).
MAX_SECRET = 100


def new_secret() -> str:
    return secrets.token_urlsafe(SECRET_BYTES)


def new_id() -> str:
    """A table or class id: public in links, so random but short (72 bits)."""
    return secrets.token_urlsafe(9)


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def matches(secret: str, stored: str | None) -> bool:
    """Whether ``secret`` hashes to ``stored``, in time that does not depend on where they
    differ."""
    if stored is None:
        return False
    return hmac.compare_digest(digest(secret), stored)


def find(secret: str, stored: Sequence[str | None]) -> int | None:
    """The index whose hash ``secret`` matches, comparing against every entry (no early exit),
    or None."""
    mine = digest(secret)
    found: int | None = None
    for i, h in enumerate(stored):
        if h is not None and hmac.compare_digest(mine, h) and found is None:
            found = i
    return found
