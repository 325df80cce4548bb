"""Organiser endpoints: create an organiser (its token is shown once), and
look at the organiser a token belongs to."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from service.auth import organiser_caller
from service.errors import Forbidden
from service.organisers import OrganiserService
from service.routes.edge import authorization, creation_key, json_body
from service.runtime import runtime
from service.schemas.tournament import CreateOrganiserSchema, OrganiserCreatedSchema, OrganiserSchema

bp = Blueprint("organisers", __name__, url_prefix="/v1")


@bp.post("/organisers")
def create_organiser() -> tuple[dict[str, Any], int]:
    """Create an organiser; open to anyone unless ``CABLECAR_OPEN_ORGANISERS=false``
    (then ``cablecar organiser create NAME`` makes them)."""
    rt = runtime()
    if not rt.settings.open_organisers:
        raise Forbidden(
            "organisers are created by the operator here (cablecar organiser create NAME)"
        )
    data = CreateOrganiserSchema().load(json_body())
    created = OrganiserService(rt.store).create(data["name"], creation_key(rt.settings, "organiser", data, ""))
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
    organiser = organiser_caller(runtime().store, authorization())
    body = {"id": organiser.organiser_id, "name": organiser.name, "created_at": organiser.created_at}
    return OrganiserSchema().dump(body)
