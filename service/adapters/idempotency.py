"""``Idempotency-Key`` on the POSTs that create something: a game, a batch,
an organiser, a webhook.  The semantics are those of actions: the same key
with the same body gets the first answer again, and nothing more is created;
the same key with another body is ``422 idempotency_key_reused``.

Actions remember a key next to the events it wrote (``idempotency_keys``).
A creation has no game to look in before it happens, so the key *names* what
it creates instead: the ids (and the tokens, which are stored only as hashes)
are derived from the server's secret, the caller's scope (its organiser, or
nobody) and the key.  A retry derives the same ids, the store's own unique ids
refuse a second creation (also a concurrent one), and the first record, which
carries the hash of the request that made it, gives the first answer back.

So a key is as secret as the tokens it makes: use a fresh random one (a
UUID v4) per creation, and keep it no longer than the retries need.

Without an organiser token the scope is shared by every anonymous caller, so
the key alone is the capability: it must be at least
:data:`ANONYMOUS_KEY_MIN` characters (``400 idempotency_key_too_short``
otherwise, before anything is read or written).  What a reused key reveals:
the same body answers the first creation again, another body is ``422
idempotency_key_reused``; both only to a caller who already holds the key,
i.e. who could have made that creation itself.  A caller without the key
learns nothing: ids and tokens are HMACs of the key under the server's
secret, so neither the public game list nor a guess of the body leads back
to a key, and 32 random characters are not guessed.  With an organiser
token the key is scoped to that organiser (1 to :data:`CREATION_KEY_MAX`
characters): another organiser's key names other ids.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
from dataclasses import dataclass
from typing import Any

from events.encoding.canonical import canonical_json
from service.errors import IdempotencyKeyReused, IdempotencyKeyTooShort, InvalidRequest

#: the longest Idempotency-Key of an action
IDEMPOTENCY_MAX = 200
#: the longest Idempotency-Key of a creating POST
CREATION_KEY_MAX = 255
#: the shortest Idempotency-Key of a creation without an organiser token (a UUID has 36)
ANONYMOUS_KEY_MIN = 32
#: the metadata key of a created game that holds the hash of the request that made it
REQUEST_HASH = "creation_request_hash"


def request_hash(kind: str, body: Any) -> str:
    """What a key is bound to: the kind of thing created and the request body
    as the server read it (so key order and defaults do not matter)."""
    return hashlib.sha256(canonical_json({"create": kind, "body": body}).encode()).hexdigest()


def check_key(header: str | None, anonymous: bool) -> str | None:
    """The Idempotency-Key header's value, None without one; InvalidRequest
    when it is empty or too long, IdempotencyKeyTooShort when an
    ``anonymous`` caller's (no organiser token) is shorter than a secret."""
    if header is None:
        return None
    if not 1 <= len(header) <= CREATION_KEY_MAX:
        message = f"must be 1 to {CREATION_KEY_MAX} characters"
        raise InvalidRequest(f"Idempotency-Key: {message}", errors=[{"field": "Idempotency-Key", "message": message}])
    if anonymous and len(header) < ANONYMOUS_KEY_MIN:
        raise IdempotencyKeyTooShort(
            f"without an organiser token an Idempotency-Key is the only secret of what it creates: it must be"
            f" at least {ANONYMOUS_KEY_MIN} characters (send a random UUID), not {len(header)}"
        )
    return header


def refuse_reuse() -> IdempotencyKeyReused:
    """The refusal of a key already used for another request."""
    return IdempotencyKeyReused("this Idempotency-Key was already used for a different request")


@dataclass(frozen=True)
class CreationKey:
    """The ids and secrets one Idempotency-Key fixes, within one scope (an
    organiser id, or ``""`` for a caller without a token)."""

    secret: bytes
    scope: str
    key: str
    hash: str  # of the request that uses the key

    def _derive(self, *parts: str) -> bytes:
        message = "\0".join(("cablecar-create/1", self.scope, self.key, *parts)).encode()
        return hmac.new(self.secret, message, hashlib.sha256).digest()

    def identifier(self, kind: str, *parts: str) -> str:
        """A 16-hex-digit id (as random ids are) for the ``kind`` created."""
        return self._derive("id", kind, *parts).hex()[:16]

    def token(self, kind: str, scope: str, *parts: str) -> str:
        """A token (``kind``: st, ht, ot) of ``scope`` with 256 derived bits."""
        secret = base64.urlsafe_b64encode(self._derive("token", kind, scope, *parts)).decode().rstrip("=")
        return f"{kind}_{scope}_{secret}"

    def same_request(self, stored_hash: object) -> bool:
        """Whether the first request with this key was this one (constant time)."""
        return isinstance(stored_hash, str) and hmac.compare_digest(stored_hash, self.hash)
