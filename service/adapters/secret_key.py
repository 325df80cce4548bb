"""The server's secret key: required in production, generated once per install otherwise.

It keys the MAC of the states shared through Redis (:mod:`service.adapters.cache`), so
whoever knows it can make every worker trust a cached state, the stored
token hashes (:mod:`service.adapters.tokens`), so whoever knows it can make a
token hash that acts, and the sealed webhook secrets and the MACs of webhook
deliveries (:mod:`service.adapters.webhooks.sealing`): it must never be
guessable, and changing it revokes every token and leaves every stored
webhook secret unreadable (register the webhooks again).  :class:`ServerSecrets` holds what it makes.  On PostgreSQL (``DATABASE_URL``), which is how production runs,
``CABLECAR_SECRET_KEY`` must be set, the same on every worker and host: the
server refuses to start without it.  The embedded default (SQLite) runs on one
host, so it generates a random key once into its data folder (``secret.key``,
readable by its owner only) and reads it back on every start.
"""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

from service.adapters.tokens import TokenHasher
from service.adapters.webhooks.sealing import WebhookKeys
from service.config import Settings

#: how to make a key, in every message asking for one
GENERATE = "python3 -c 'import secrets; print(secrets.token_hex(32))'"
#: the per-install key's file, in ``CABLECAR_DATA_DIR``
KEY_FILE = "secret.key"


class MissingSecretKey(ValueError):
    """Production without ``CABLECAR_SECRET_KEY``."""


#: the shortest secret key accepted, in bytes (UTF-8): 256 bits if random
MIN_KEY_BYTES = 32


def require_secret_key(settings: Settings) -> None:
    """Raise :class:`MissingSecretKey` (one line naming the variable and how
    to make a value) when ``settings`` select PostgreSQL without a secret key,
    or set one shorter than :data:`MIN_KEY_BYTES` (guessable: whoever guesses
    it forges cache entries and creation-key tokens)."""
    if settings.database_url and not settings.secret_key.strip():
        raise MissingSecretKey(
            "CABLECAR_SECRET_KEY is not set: a server on PostgreSQL (DATABASE_URL) needs a secret key, "
            f"the same on every worker and host; generate one with {GENERATE}"
        )
    if settings.secret_key.strip() and len(settings.secret_key.strip().encode()) < MIN_KEY_BYTES:
        raise MissingSecretKey(
            f"CABLECAR_SECRET_KEY is too short ({len(settings.secret_key.strip().encode())} bytes): it must be at"
            f" least {MIN_KEY_BYTES} bytes, random; generate one with {GENERATE}"
        )


def cache_key(settings: Settings) -> bytes:
    """The key of cache entries' MACs, derived from the server's secret (so
    that the secret itself keys nothing directly)."""
    return hmac.new(_secret(settings), b"cablecar-cache/1", hashlib.sha256).digest()


def creation_secret(settings: Settings) -> bytes:
    """The key from which an Idempotency-Key of a creating POST derives ids
    and tokens (:mod:`service.adapters.idempotency`), derived from the server's secret."""
    return hmac.new(_secret(settings), b"cablecar-create/1", hashlib.sha256).digest()


def token_key(settings: Settings) -> bytes:
    """The key of the stored token hashes (:class:`service.adapters.tokens.TokenHasher`), derived from
    the server's secret: the database never holds it, so its login alone cannot make a hash that acts."""
    return hmac.new(_secret(settings), b"cablecar-tokens/1", hashlib.sha256).digest()


@dataclass(frozen=True)
class ServerSecrets:
    """What the server's secret makes: keyed token hashes (``tokens``), sealed
    webhook secrets and delivery MACs (``webhooks``); also what a migration
    converts the rows stored before with, once
    (:class:`events.migrations.keying.ServerKeying`)."""

    tokens: TokenHasher
    webhooks: WebhookKeys

    @classmethod
    def from_settings(cls, settings: Settings) -> ServerSecrets:
        """From the configured secret (:class:`MissingSecretKey` on PostgreSQL without one)."""
        return cls(TokenHasher(token_key(settings)), WebhookKeys.from_secret(_secret(settings)))

    def rekey(self, plain: str, scope: str, slot: str) -> str:
        """The keyed hash of a token whose SHA-256 is ``plain`` (epoch 0)."""
        return self.tokens.rekey(plain, scope, slot)

    def seal_webhook_secret(self, webhook_id: str, secret: str) -> str:
        """``secret`` sealed for the webhook ``webhook_id``."""
        return self.webhooks.seal(webhook_id, secret)

    def delivery_mac(self, delivery_id: str, webhook_id: str, game_id: str | None, event: str, occurrence: int,
                     body: str) -> str:
        """The MAC of a delivery of these fields."""
        return self.webhooks.mac(delivery_id, webhook_id, game_id, event, occurrence, body)


def _secret(settings: Settings) -> bytes:
    require_secret_key(settings)
    if settings.secret_key.strip():
        return settings.secret_key.encode()
    return _installed_secret(settings.data_path())


def _installed_secret(folder: Path) -> bytes:
    path = folder / KEY_FILE
    if not path.exists():
        folder.mkdir(parents=True, exist_ok=True)
        # Written whole under a private name, then linked into place: concurrent
        # first starts (several workers) all end up reading the one that won.
        draft = folder / f".{KEY_FILE}.{os.getpid()}.{secrets.token_hex(4)}"
        fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            with os.fdopen(fd, "w") as out:
                out.write(secrets.token_hex(32) + "\n")
            with contextlib.suppress(FileExistsError):
                os.link(draft, path)
        finally:
            draft.unlink()
    if path.stat().st_mode & 0o077:
        path.chmod(0o600)
    key = path.read_text(encoding="ascii", errors="replace").strip()
    if len(key) < 32:
        raise MissingSecretKey(f"{path} holds no usable key: delete it to have a new one generated, "
                               f"or set CABLECAR_SECRET_KEY (generate one with {GENERATE})")
    return key.encode()
