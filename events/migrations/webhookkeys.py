"""Sealing the webhook secrets and MAC'ing the deliveries stored before
(issue 48; :mod:`events.migrations.keying`).

Webhook secrets were stored in the clear, readable by the app role, and a
delivery row was sent as it stood: a login alone could read every secret and
have a made-up body delivered, signed.  Now ``webhooks.secret`` holds the
secret sealed under a key the database never holds, and every delivery
carries the MAC of what it sends (``service.adapters.webhooks.sealing``).
The secrets and the pending deliveries stored before are converted here, with
the server's secret, in the transaction of the migration that introduced
sealing (PostgreSQL ``0095_tokens_and_webhooks_custody.sql``, SQLite
``0070_tokens_and_webhooks_custody.sql``), and never again: a secret found
later in the clear, or a delivery without its MAC, was written by a login
without the secret; the dispatcher refuses them and :func:`unsealed_rows`
names the webhooks.
"""

from __future__ import annotations

from typing import Any

from events.migrations.keying import ASK_FOR_THE_SECRET, NoServerSecret, ServerKeying

#: what a sealed secret and a delivery's MAC begin with
SEALED_PREFIX = "sealed1:"
MAC_PREFIX = "m1:"

_PLAIN_SECRETS = "SELECT webhook_id, secret FROM webhooks WHERE secret NOT LIKE 'sealed1:%' ORDER BY webhook_id"
_UNMACED = ("SELECT delivery_id, webhook_id, game_id, event, occurrence, body FROM webhook_deliveries"
            " WHERE state = 'pending' AND body_mac IS NULL ORDER BY delivery_id")
_SET_SECRET = {
    "postgres": "UPDATE webhooks SET secret = %s WHERE webhook_id = %s",
    "sqlite": "UPDATE webhooks SET secret = ? WHERE webhook_id = ?",
}
_SET_MAC = {
    "postgres": "UPDATE webhook_deliveries SET body_mac = %s WHERE delivery_id = %s",
    "sqlite": "UPDATE webhook_deliveries SET body_mac = ? WHERE delivery_id = ?",
}


def seal_webhooks(cur: Any, dialect: str, keying: ServerKeying | None) -> int:
    """Seal every webhook secret stored in the clear and MAC every pending
    delivery (inside the transaction of the migration that introduced
    them); how many rows changed.  NoServerSecret when there are some and
    ``keying`` is None."""
    hooks = cur.execute(_PLAIN_SECRETS + (" FOR UPDATE" if dialect == "postgres" else "")).fetchall()
    due = cur.execute(_UNMACED + (" FOR UPDATE" if dialect == "postgres" else "")).fetchall()
    if not hooks and not due:
        return 0
    if keying is None:
        raise NoServerSecret(
            f"{len(hooks)} webhooks store their secret in the clear and {len(due)} pending deliveries carry no MAC: "
            + ASK_FOR_THE_SECRET
        )
    for webhook_id, secret in hooks:
        cur.execute(_SET_SECRET[dialect], (keying.seal_webhook_secret(webhook_id, secret), webhook_id))
    for delivery_id, webhook_id, game_id, event, occurrence, body in due:
        mac = keying.delivery_mac(delivery_id, webhook_id, game_id, event, int(occurrence), body)
        cur.execute(_SET_MAC[dialect], (mac, delivery_id))
    return len(hooks) + len(due)


def unsealed_rows(cur: Any, dialect: str) -> list[str]:
    """The webhooks whose secret is stored in the clear once sealing was done
    (nobody with the server's secret wrote it: the dispatcher signs nothing
    with it): ``webhook ID`` lines."""
    return [f"webhook {row[0]}" for row in cur.execute(_PLAIN_SECRETS).fetchall()]
