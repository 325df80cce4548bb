"""Signatures of stored events: who wrote the record, not just that it holds together.

The hash chain (:mod:`events.integrity.envelope`) has no secret: anyone able to write
the table can rebuild it.  So the store signs every event it appends:

    signature = Ed25519(private key, ASCII bytes of the event's ``hash``)

written base64url without padding, next to ``key_id`` (the first 16
characters of base64url(SHA-256(raw public key)), so an id names exactly one
key).  Signing happens on the store's append path (the backends call
:meth:`Signer.sign`); checking is :mod:`events.integrity.verify`'s.  The keys come from
the server's configuration (``service/adapters/signing_keys.py``), never from
the database, so a database writer cannot add one.  Nothing here reads a
clock or a file: callers pass ``created_at`` and the key bytes.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Mapping
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from domain.core import JSON
from events.encoding.timestamps import parse_timestamp

#: the only algorithm, as named in ``GET /v1/keys``
ALGORITHM = "ed25519"
#: bytes of a raw Ed25519 public key, private seed, and signature
KEY_BYTES, SIGNATURE_BYTES = 32, 64


def b64url(data: bytes) -> str:
    """base64url without padding."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def unb64url(text: str) -> bytes:
    """The bytes of base64url text with or without padding; ValueError if it is not."""
    if not isinstance(text, str) or not text.isascii():
        raise ValueError("not base64url text")
    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError) as e:
        raise ValueError(f"not base64url text: {e}") from None


def key_id_of(public_raw: bytes) -> str:
    """The id of a raw public key (see the module docs)."""
    return b64url(hashlib.sha256(public_raw).digest())[:16]


def is_timestamp(value: JSON) -> bool:
    """Whether ``value`` is a timestamp as the stores write them."""
    try:
        parse_timestamp(value)
    except (TypeError, ValueError):
        return False
    return True


#: a key entry's fields naming where the server's own stream (:mod:`events.integrity.lifetimes`) records the
#: key's lifetime: the seq of its ``key_added`` and ``key_retired`` events, and the size of the log's tree whose
#: last leaf is that ``key_retired`` (the largest tree a checkpoint the key signs may have); null while unknown
LOG_FIELDS = ("added_seq", "retired_seq", "retired_tree_size")


@dataclass(frozen=True)
class PublicKey:
    """A public key as ``GET /v1/keys`` lists it."""

    key_id: str
    public_key: str  # raw 32 bytes, base64url without padding
    created_at: str | None = None
    retired_at: str | None = None
    #: see :data:`LOG_FIELDS`
    added_seq: int | None = None
    retired_seq: int | None = None
    retired_tree_size: int | None = None

    def to_json(self) -> dict[str, JSON]:
        """The ``GET /v1/keys`` entry."""
        return {**self.file_json(), "added_seq": self.added_seq, "retired_seq": self.retired_seq,
                "retired_tree_size": self.retired_tree_size}

    def file_json(self) -> dict[str, JSON]:
        """The entry a key file keeps: the key and its dates, not where the log holds them."""
        return {"key_id": self.key_id, "algorithm": ALGORITHM, "public_key": self.public_key,
                "created_at": self.created_at, "retired_at": self.retired_at}

    @classmethod
    def from_json(cls, data: Mapping[str, JSON]) -> PublicKey:
        """A key from its ``GET /v1/keys`` entry; ValueError naming what is wrong
        (another algorithm, not 32 bytes, a key_id that is not this key's, a
        date that is no timestamp, a seq or tree size that is no whole number).
        The :data:`LOG_FIELDS` may be absent (a file saved before they existed)."""
        if not isinstance(data, Mapping):
            raise ValueError("a key is a JSON object")
        if data.get("algorithm", ALGORITHM) != ALGORITHM:
            raise ValueError(f"unknown key algorithm {data.get('algorithm')!r} (only {ALGORITHM})")
        public, key_id = data.get("public_key"), data.get("key_id")
        raw = unb64url(public) if isinstance(public, str) else b""
        if len(raw) != KEY_BYTES:
            raise ValueError("public_key must be 32 bytes, base64url")
        if key_id != key_id_of(raw):
            raise ValueError(f"key_id {key_id!r} is not the id of its public_key ({key_id_of(raw)})")
        created, retired = data.get("created_at"), data.get("retired_at")
        for name, stamp in (("created_at", created), ("retired_at", retired)):
            if stamp is not None and not is_timestamp(stamp):
                raise ValueError(f"{name} {stamp!r} is not a timestamp (YYYY-MM-DDTHH:MM:SS.ffffffZ)")
        logged = [data.get(name) for name in LOG_FIELDS]
        for name, number in zip(LOG_FIELDS, logged, strict=True):
            if number is not None and (not isinstance(number, int) or isinstance(number, bool) or number < 1):
                raise ValueError(f"{name} {number!r} is not a whole number (1 or more)")
        return cls(key_id, b64url(raw), created if isinstance(created, str) else None,
                   retired if isinstance(retired, str) else None,
                   *(n if isinstance(n, int) else None for n in logged))

    def retired(self, at: str) -> PublicKey:
        """This key, retired at ``at``."""
        return PublicKey(self.key_id, self.public_key, self.created_at, at)


class Signer:
    """The current private key: signs events' hashes."""

    def __init__(self, seed: bytes, created_at: str | None = None) -> None:
        if len(seed) != KEY_BYTES:
            raise ValueError("an Ed25519 private key is 32 bytes")
        self._key = Ed25519PrivateKey.from_private_bytes(seed)
        raw = self._key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        self.key_id = key_id_of(raw)
        #: the raw 32-byte public key (checkpoint notes name it by its key hash)
        self.public_raw = raw
        self.public = PublicKey(self.key_id, b64url(raw), created_at, None)
        self._sign = self._key.sign

    @classmethod
    def generate(cls, created_at: str | None = None) -> Signer:
        """A new random key."""
        from cryptography.hazmat.primitives.serialization import NoEncryption, PrivateFormat

        seed = Ed25519PrivateKey.generate().private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())
        return cls(seed, created_at)

    def seed(self) -> bytes:
        """The 32 private bytes (to save the key; never logged or served)."""
        from cryptography.hazmat.primitives.serialization import NoEncryption, PrivateFormat

        return self._key.private_bytes(Encoding.Raw, PrivateFormat.Raw, NoEncryption())

    def sign(self, digest: str) -> str:
        """The signature of an event whose ``hash`` is ``digest`` (hex)."""
        return b64url(self._sign(digest.encode("ascii")))

    def sign_bytes(self, message: bytes) -> bytes:
        """The raw Ed25519 signature of ``message`` (the transparency log's signed notes)."""
        return self._sign(message)

    def __repr__(self) -> str:  # never the private bytes
        return f"Signer(key_id={self.key_id!r})"
