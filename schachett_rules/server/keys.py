"""Invitation keys: unguessable, kept only as their hash, compared in constant time.

A key is 192 random bits (``secrets``), written in URL-safe base64. The database holds its SHA-256,
so a copy of the database lets no one act for a seat. A key is looked up by comparing its hash
with every place of the table, always all of them, with :func:`hmac.compare_digest`: how long the
answer takes says nothing about how much of a key was right.

>>> key = new_key()
>>> len(key), len(hash_key(key))
(32, 64)
>>> match(key, [hash_key(new_key()), hash_key(key), None])
1
>>> match(key[:-1] + ("A" if key[-1] != "A" else "B"), [hash_key(key)]) is None
True
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

KEY_BYTES = 24              # 192 bits; the issue asks for at least 128
MAX_KEY = 256               # characters: anything longer is not a key and is not hashed


def new_key() -> str:
    """A fresh key for one place at one table."""
    return secrets.token_urlsafe(KEY_BYTES)


def hash_key(key: str) -> str:
    """The key's SHA-256, hex: what the database keeps."""
    return hashlib.sha256(key.encode("utf-8", "replace")).hexdigest()


def match(key: str | None, hashes: list[str | None]) -> int | None:
    """The index of the place whose hash is the key's, or None; every place is compared, in constant time."""
    if not isinstance(key, str) or not key or len(key) > MAX_KEY:
        return None
    mine = hash_key(key).encode()
    found = None
    for i, h in enumerate(hashes):
        # a place without a key (a bot) is compared against a hash no key has, so every place costs the same
        if hmac.compare_digest(mine, (h or "-" * 64).encode()) and h is not None:
            found = i
    return found
