"""Secret tokens: generation, hashing and parsing.

A token reads ``<kind>_<scope>_<secret>`` where ``kind`` is ``st`` (seat),
``ht`` (host) or ``ot`` (organiser), ``scope`` names what it belongs to (a
game id, or an organiser id) and ``secret`` is 32 random bytes in URL-safe
base64 (256 bits).  Only SHA-256 hashes of whole tokens are stored.  The
visible scope lets the service tell "a token of another game" (403) from a
token that is simply wrong (401) without a global token index.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass

KINDS = ("st", "ht", "ot")


@dataclass(frozen=True)
class ParsedToken:
    """A token split into its parts (not yet verified)."""

    kind: str
    scope: str
    raw: str


def new_token(kind: str, scope: str) -> str:
    """A fresh random token of ``kind`` for ``scope``."""
    assert kind in KINDS and "_" not in scope
    return f"{kind}_{scope}_{secrets.token_urlsafe(32)}"


def hash_token(token: str) -> str:
    """The stored form of a token."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def matches(token: str, stored_hash: str | None) -> bool:
    """Constant-time check of a token against a stored hash."""
    return bool(stored_hash) and hmac.compare_digest(hash_token(token), str(stored_hash))


def parse(token: str) -> ParsedToken | None:
    """Split a presented token; None when it has not the token shape."""
    parts = token.split("_", 2)
    if len(parts) != 3 or parts[0] not in KINDS or not parts[1] or len(parts[2]) < 20:
        return None
    return ParsedToken(parts[0], parts[1], token)


def bearer(header: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, if any."""
    if not header:
        return None
    scheme, _, value = header.strip().partition(" ")
    if scheme.lower() != "bearer" or not value.strip():
        return None
    return value.strip()
