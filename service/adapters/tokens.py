"""Secret tokens: generation, hashing and parsing.

A token reads ``<kind>_<scope>_<secret>`` where ``kind`` is ``st`` (seat),
``ht`` (host) or ``ot`` (organiser), ``scope`` names what it belongs to (a
game id, or an organiser id) and ``secret`` is 32 random bytes in URL-safe
base64 (256 bits).  The visible scope lets the service tell "a token of
another game" (403) from a token that is simply wrong (401) without a global
token index.

Only keyed hashes are stored (:class:`TokenHasher`): ``k1:<epoch>:<hex>``,
the HMAC-SHA256, under a key derived from the server's secret, of the token's
SHA-256 bound to where it may act (its scope, its slot: a seat number,
``host`` or ``organiser``) and to its *epoch* (the seq of the event that set
it: 0 at creation, a ``seat_token_rotated`` event's seq after a rotation).
The database never holds that key, so a hash written by anyone who only holds
its login authenticates nobody; the binding stops a hash copied to another
seat, game or epoch from acting there.  Hashes stored before keying (the
plain SHA-256 of the token) are keyed in place by ``cablecar migrate``
(:meth:`TokenHasher.rekey`): the keyed hash is computed from the plain one.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from dataclasses import dataclass, field

from events.migrations.tokenkeys import HOST_SLOT, KEYED, ORGANISER_SLOT

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


#: the scheme tag of a keyed token hash, and the slots of a host's and an organiser's token (a seat's slot is its
#: number): named once, where the migration that keys old hashes needs them too
HOST, ORGANISER = HOST_SLOT, ORGANISER_SLOT


def plain_hash(token: str) -> str:
    """A token's SHA-256 (hex): what was stored before hashes were keyed, and what the keyed hash is made of."""
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def epoch_of(stored: object) -> int | None:
    """The epoch of a keyed hash (None: not a keyed hash: it authenticates nobody)."""
    if not isinstance(stored, str):
        return None
    scheme, _, rest = stored.partition(":")
    epoch, _, digest = rest.partition(":")
    if scheme != KEYED or not epoch.isdigit() or len(digest) != 64:
        return None
    return int(epoch)


@dataclass(frozen=True)
class TokenHasher:
    """Keyed token hashes (see the module docs); ``key`` comes from the server's secret."""

    key: bytes = field(repr=False)

    def rekey(self, plain: str, scope: str, slot: str, epoch: int = 0) -> str:
        """The keyed hash of a token whose SHA-256 is ``plain``, for ``slot`` of ``scope`` at ``epoch``."""
        message = f"{scope}\n{slot}\n{epoch}\n{plain}".encode()
        return f"{KEYED}:{epoch}:{hmac.new(self.key, message, hashlib.sha256).hexdigest()}"

    def stored(self, token: str, scope: str, slot: str | int, epoch: int = 0) -> str:
        """What is stored for ``token`` acting in ``slot`` of ``scope`` from ``epoch`` on."""
        return self.rekey(plain_hash(token), scope, str(slot), epoch)

    def matches(self, token: str, scope: str, slot: str | int, stored: object) -> bool:
        """Constant-time check of ``token`` against what ``slot`` of ``scope`` stores."""
        epoch = epoch_of(stored)
        if epoch is None:
            return False
        return hmac.compare_digest(self.stored(token, scope, slot, epoch), str(stored))


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
