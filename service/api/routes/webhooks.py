"""Webhook endpoints (organiser token): register, list, look at, delete, and
read the delivery log."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, request, url_for

from events.recorders.deliveries import DeliveryRecord
from events.recorders.tournaments import WebhookRecord
from service.api.routes.edge import authorization, creation_key, json_body
from service.api.runtime import runtime
from service.api.schemas.tournament import (
    CreateWebhookSchema,
    DeliveriesPageSchema,
    DeliveriesQuerySchema,
    WebhookCreatedSchema,
    WebhookSchema,
    WebhooksSchema,
)
from service.usecases.auth import organiser_caller
from service.usecases.organisers import OrganiserService

bp = Blueprint("webhooks", __name__, url_prefix="/v1")


def _service() -> OrganiserService:
    rt = runtime()
    return rt.organisers


def webhook_json(hook: WebhookRecord) -> dict[str, Any]:
    """A webhook as the API shows it (without its secret)."""
    return {
        "id": hook.webhook_id,
        "url": hook.url,
        "batch": hook.batch_id,
        "events": list(hook.events),
        "created_at": hook.created_at,
    }


def delivery_json(d: DeliveryRecord) -> dict[str, Any]:
    """A delivery with its attempts, and the body it sends (parsed)."""
    return {
        "id": d.delivery_id,
        "event": d.event,
        "game_id": d.game_id,
        "state": d.state,
        "attempts": d.attempts,
        "created_at": d.created_at,
        "next_attempt_at": d.next_attempt_at,
        "delivered_at": d.delivered_at,
        "last_status_code": d.last_status_code,
        "last_error": d.last_error,
        "history": [
            {
                "attempt": a.attempt,
                "at": a.attempted_at,
                "status_code": a.status_code,
                "error": a.error,
                "duration_ms": a.duration_ms,
            }
            for a in d.history
        ],
        "payload": json.loads(d.body),
    }


@bp.post("/webhooks")
def create_webhook() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Register a webhook; the signing secret is shown only in this answer."""
    organiser = organiser_caller(runtime().tokens, authorization())
    data = CreateWebhookSchema().load(json_body())
    key = creation_key(runtime().settings, "webhook", data, organiser.organiser_id)
    hook = _service().register_webhook(organiser, data["url"], data["events"], data["batch"], key)
    location = url_for("webhooks.get_webhook", webhook_id=hook.webhook_id)
    return (
        WebhookCreatedSchema().dump({**webhook_json(hook), "secret": hook.secret}),
        201,
        {"Location": location},
    )


@bp.get("/webhooks")
def list_webhooks() -> dict[str, Any]:
    """The organiser's webhooks, oldest first."""
    organiser = organiser_caller(runtime().tokens, authorization())
    return WebhooksSchema().dump({"webhooks": [webhook_json(h) for h in _service().webhooks(organiser)]})


@bp.get("/webhooks/<webhook_id>")
def get_webhook(webhook_id: str) -> dict[str, Any]:
    """One of the organiser's webhooks."""
    organiser = organiser_caller(runtime().tokens, authorization())
    return WebhookSchema().dump(webhook_json(_service().owned_webhook(organiser, webhook_id)))


@bp.delete("/webhooks/<webhook_id>")
def delete_webhook(webhook_id: str) -> Response:
    """Stop a webhook; its pending deliveries are given up."""
    organiser = organiser_caller(runtime().tokens, authorization())
    _service().delete_webhook(organiser, webhook_id)
    return Response(status=204)


@bp.get("/webhooks/<webhook_id>/deliveries")
def list_deliveries(webhook_id: str) -> dict[str, Any]:
    """The webhook's deliveries, newest first: state, attempts, status codes, next retry."""
    organiser = organiser_caller(runtime().tokens, authorization())
    q = DeliveriesQuerySchema().load(request.args.to_dict())
    page = _service().deliveries(organiser, webhook_id, q["limit"], q["cursor"])
    body = {
        "webhook_id": webhook_id,
        "deliveries": [delivery_json(d) for d in page.deliveries],
        "next_cursor": page.next_cursor,
    }
    return DeliveriesPageSchema().dump(body)
