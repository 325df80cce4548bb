"""What keeps a database login from sending webhooks in our name (issue 48).

* A webhook's signing secret is stored *sealed*: AES-256-GCM under a key
  derived (HKDF-SHA256) from the server's secret, with the webhook's id as
  associated data, so a login that reads ``webhooks.secret`` learns nothing it
  could sign with, and a sealed secret copied onto another webhook does not
  open there.  Stored as ``sealed1:`` and the base64url of nonce and
  ciphertext (:data:`~events.migrations.webhookkeys.SEALED_PREFIX`).
* A delivery carries the MAC (HMAC-SHA256, another key derived from the
  server's secret) of what is sent and where: its id, webhook, game, event,
  occurrence and body, made when the dispatcher creates it.  A row written by
  a login alone (a made-up body, a genuine MAC copied onto another body or
  webhook) does not verify and is refused, never sent.

The database holds neither key; changing the server's secret makes every
sealed secret unreadable (register the webhooks again), as it revokes every
token.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
from dataclasses import dataclass, field, replace

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.ciphers.aead import AESGCM
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from events.migrations.webhookkeys import MAC_PREFIX, SEALED_PREFIX
from events.recorders.deliveries import ClaimedDelivery, NewDelivery

_NONCE_BYTES = 12


def derive(secret: bytes, label: bytes) -> bytes:
    """A 256-bit key for ``label``, derived from the server's secret (HKDF-SHA256)."""
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=None, info=label).derive(secret)


def _unpadded(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


@dataclass(frozen=True)
class WebhookKeys:
    """The keys of sealed secrets and delivery MACs (see the module docs)."""

    sealing_key: bytes = field(repr=False)
    mac_key: bytes = field(repr=False)

    @classmethod
    def from_secret(cls, secret: bytes) -> WebhookKeys:
        """Both keys, derived from the server's secret."""
        return cls(derive(secret, b"cablecar-webhook-secrets/1"), derive(secret, b"cablecar-webhook-deliveries/1"))

    # --------------------------------------------------------------- secrets
    def seal(self, webhook_id: str, secret: str) -> str:
        """What ``webhooks.secret`` stores for ``secret`` of webhook ``webhook_id``."""
        nonce = secrets.token_bytes(_NONCE_BYTES)
        sealed = AESGCM(self.sealing_key).encrypt(nonce, secret.encode("utf-8"), webhook_id.encode("utf-8"))
        return SEALED_PREFIX + _unpadded(nonce + sealed)

    def open(self, webhook_id: str, stored: str) -> str | None:
        """The secret ``stored`` seals for ``webhook_id``; None when it is not
        one this server sealed for that webhook (a plain secret, another
        webhook's, garbage, another secret's seal)."""
        if not stored.startswith(SEALED_PREFIX):
            return None
        text = stored[len(SEALED_PREFIX):]
        try:
            data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
            opened = AESGCM(self.sealing_key).decrypt(data[:_NONCE_BYTES], data[_NONCE_BYTES:],
                                                      webhook_id.encode("utf-8"))
            return opened.decode("utf-8")
        except (InvalidTag, ValueError, binascii.Error, UnicodeDecodeError):
            return None

    # ------------------------------------------------------------ deliveries
    def mac(self, delivery_id: str, webhook_id: str, game_id: str | None, event: str, occurrence: int,
            body: str) -> str:
        """The MAC a delivery of these fields carries."""
        message = json.dumps([delivery_id, webhook_id, game_id, event, occurrence, body], separators=(",", ":"),
                             ensure_ascii=False).encode("utf-8")
        return MAC_PREFIX + hmac.new(self.mac_key, message, hashlib.sha256).hexdigest()

    def vouched(self, delivery: NewDelivery) -> NewDelivery:
        """``delivery`` carrying its MAC."""
        return replace(delivery, mac=self.mac(delivery.delivery_id, delivery.webhook_id, delivery.game_id,
                                              delivery.event, delivery.occurrence, delivery.body))

    def vouches(self, delivery: ClaimedDelivery) -> bool:
        """Whether a leased delivery is one the server made, as it made it."""
        if delivery.mac is None:
            return False
        expected = self.mac(delivery.delivery_id, delivery.webhook_id, delivery.game_id, delivery.event,
                            delivery.occurrence, delivery.body)
        return hmac.compare_digest(expected, delivery.mac)
