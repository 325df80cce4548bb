"""What a receiver gets: the event names, the body of a delivery, its
headers, and the HMAC signature that proves the body came from us."""

from __future__ import annotations

import hashlib
import hmac
import json

from domain.core import JSON
from events.recorders.deliveries import ClaimedDelivery
from events.records import GameRecord

#: The event types a webhook can subscribe to.
GAME_STARTED = "game.started"
GAME_FINISHED = "game.finished"
#: a seat resigned or timed out (one delivery per seat; the game may go on)
GAME_SEAT_OUT = "game.seat_out"
#: the host cancelled the game
GAME_CANCELLED = "game.cancelled"
#: what happens in a game: a webhook without ``events`` subscribes to these
GAME_EVENTS = (GAME_STARTED, GAME_FINISHED, GAME_SEAT_OUT, GAME_CANCELLED)
#: the transparency log published a checkpoint (one delivery per checkpoint;
#: organiser-wide webhooks only, and only when asked for)
LOG_CHECKPOINT = "log.checkpoint"
WEBHOOK_EVENTS = (*GAME_EVENTS, LOG_CHECKPOINT)
USER_AGENT = "cablecar-webhooks/1"


def sign(secret: str, body: bytes) -> str:
    """The ``X-CableCar-Signature`` value of ``body``: ``sha256=`` and the hex
    HMAC-SHA256 of the raw body keyed with the webhook's secret."""
    return "sha256=" + hmac.new(secret.encode("utf-8"), body, hashlib.sha256).hexdigest()


def signature_matches(secret: str, body: bytes, header: str | None) -> bool:
    """Constant-time check of a received ``X-CableCar-Signature`` header."""
    return header is not None and hmac.compare_digest(sign(secret, body), header)


def delivery_body(
    delivery_id: str, event: str, created_at: str, record: GameRecord, result: JSON | None,
    seat_out: JSON | None = None,
) -> str:
    """The JSON text of a delivery (sent, and signed, byte for byte the same on
    every attempt): ``{id, type, created_at, batch_ref, game: {id, type,
    status, batch, ref, players: [{seat, name, ref}], result?}, seat?}``;
    ``result`` only for a finished game (each seat's ``standing`` in it),
    ``seat`` (``{"seat", "standing", "seq"}``) only for ``game.seat_out``.
    The refs are the organiser's own ids (null where none was given)."""
    meta = record.metadata
    names = meta.get("players")
    refs = meta.get("player_refs")
    listed_refs = refs if isinstance(refs, list) else []
    game: dict[str, JSON] = {
        "id": record.game_id,
        "type": record.game_type,
        "status": record.status,
        "batch": meta.get("batch"),
        "ref": meta.get("ref"),
        "players": [
            {"seat": seat, "name": name, "ref": listed_refs[seat] if seat < len(listed_refs) else None}
            for seat, name in enumerate(names if isinstance(names, list) else [])
        ],
    }
    if result is not None:
        game["result"] = result
    body: dict[str, JSON] = {"id": delivery_id, "type": event, "created_at": created_at,
                             "batch_ref": meta.get("batch_ref"), "game": game}
    if seat_out is not None:
        body["seat"] = seat_out
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False)


def checkpoint_body(delivery_id: str, created_at: str, checkpoint: JSON) -> str:
    """The JSON text of a ``log.checkpoint`` delivery: ``{id, type,
    created_at, checkpoint}``, ``checkpoint`` being what ``GET
    /v1/log/checkpoint?tree_size=N`` answers for it."""
    body: dict[str, JSON] = {"id": delivery_id, "type": LOG_CHECKPOINT, "created_at": created_at,
                             "checkpoint": checkpoint}
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False)


def delivery_headers(delivery: ClaimedDelivery, secret: str, body: bytes, attempt: int) -> dict[str, str]:
    """The headers of attempt number ``attempt`` (1, 2, ...) at ``delivery``,
    signed with its webhook's ``secret`` (opened: the store holds it sealed)."""
    return {
        "Content-Type": "application/json",
        "User-Agent": USER_AGENT,
        "X-CableCar-Delivery": delivery.delivery_id,
        "X-CableCar-Event": delivery.event,
        "X-CableCar-Attempt": str(attempt),
        "X-CableCar-Signature": sign(secret, body),
    }
