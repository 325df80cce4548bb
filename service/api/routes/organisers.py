"""Organiser endpoints: create an organiser (its token is shown once), and
look at the organiser a token belongs to."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app

from service.api.ratelimit import limits
from service.api.routes.edge import authorization, creation_key, json_body
from service.api.runtime import runtime
from service.api.schemas.tournament import CreateOrganiserSchema, OrganiserCreatedSchema, OrganiserSchema
from service.errors import Forbidden
from service.usecases.auth import creating_organiser, organiser_caller
from service.usecases.organisers import OrganiserService

bp = Blueprint("organisers", __name__, url_prefix="/v1")


@bp.post("/organisers")
def create_organiser() -> tuple[dict[str, Any], int]:
    """Create an organiser; open to anyone unless ``CABLECAR_OPEN_ORGANISERS=false``
    (then ``cablecar organiser create NAME`` makes them).  Rate-limited as
    game creation is (a token is a thing to hoard, like a game)."""
    rt = runtime()
    if not rt.settings.open_organisers:
        raise Forbidden(
            "organisers are created by the operator here (cablecar organiser create NAME)"
        )
    # An organiser token (optional) scopes the Idempotency-Key to its organiser.
    parent = creating_organiser(rt.tokens, authorization(), required=False)
    parent_id = parent.organiser_id if parent else None
    data = CreateOrganiserSchema().load(json_body())
    key = creation_key(rt.settings, "organiser", data, parent_id or "")
    service = OrganiserService(rt.store)
    if key is None or service.created_with(key, data["name"]) is None:  # a retry creates nothing: not charged
        limits(current_app).charge_organiser_creation(parent_id)
    created = service.create(data["name"], rt.tokens.hasher, key)
    body = {
        "id": created.record.organiser_id,
        "name": created.record.name,
        "created_at": created.record.created_at,
        "token": created.token,
    }
    return OrganiserCreatedSchema().dump(body), 201


@bp.get("/organisers/me")
def whoami() -> dict[str, Any]:
    """The organiser the presented token belongs to."""
    organiser = organiser_caller(runtime().tokens, authorization())
    body = {"id": organiser.organiser_id, "name": organiser.name, "created_at": organiser.created_at}
    return OrganiserSchema().dump(body)
