"""What only the server's secret makes, written into rows once, by the
migration that introduced it (issue 48).

Some rows must hold what the database's logins cannot make: keyed token
hashes (issue 34, :mod:`events.migrations.tokenkeys`), sealed webhook
secrets and the MACs of webhook deliveries
(:mod:`events.migrations.webhookkeys`).  The rows stored before each of those
was introduced are converted by whoever migrates the database holding the
server's secret (``cablecar migrate`` on PostgreSQL, as the owner; the
embedded store when the server opens it), inside the transaction of the
migration that introduced it (:data:`events.migrations.apply.ONCE`), and never
again: a row found later in the old form was written by someone without the
secret, so it is left unusable and reported, never converted into one that
acts.  A database with such rows to convert and nobody holding the secret is
refused (:class:`NoServerSecret`): nothing is applied, so no token, secret
or delivery stops working unannounced.
"""

from __future__ import annotations

from typing import Protocol


class ServerKeying(Protocol):
    """What the server's secret makes (:class:`service.adapters.secret_key.ServerSecrets`)."""

    def rekey(self, plain: str, scope: str, slot: str) -> str:
        """The keyed hash of a token whose SHA-256 is ``plain``, for ``slot`` of ``scope``, epoch 0."""

    def seal_webhook_secret(self, webhook_id: str, secret: str) -> str:
        """``secret`` sealed for the webhook ``webhook_id`` (what ``webhooks.secret`` stores)."""

    def delivery_mac(self, delivery_id: str, webhook_id: str, game_id: str | None, event: str, occurrence: int,
                     body: str) -> str:
        """The MAC a delivery of these fields carries (``webhook_deliveries.body_mac``)."""


class NoServerSecret(Exception):
    """Rows must be converted with the server's secret and nobody was given it."""


#: what every refusal for want of the secret ends with
ASK_FOR_THE_SECRET = ("migrate with the server's secret key (CABLECAR_SECRET_KEY, the same the server runs with), "
                      "so that they keep working")
