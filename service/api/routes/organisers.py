"""Organiser endpoints: create an organiser (its token is shown once), look
at the organiser a token belongs to, and its standings across rounds."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, current_app, request

from service.api.ratelimit import limits
from service.api.routes.edge import authorization, creation_key, json_body
from service.api.runtime import runtime
from service.api.schemas.tournament import (
    CreateOrganiserSchema,
    OrganiserCreatedSchema,
    OrganiserSchema,
    StandingsQuerySchema,
    StandingsSchema,
)
from service.api.text import json_text
from service.errors import Forbidden
from service.usecases.auth import creating_organiser, organiser_caller
from service.usecases.standings import Standings, standings, standings_csv

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
    service = rt.organisers
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


def _standings() -> Standings:
    rt = runtime()
    organiser = organiser_caller(rt.tokens, authorization())
    q = StandingsQuerySchema().load({"batch": request.args.getlist("batch")})
    service = rt.batches
    return standings(service, organiser, q["batch"])


@bp.get("/organisers/me/standings")
def get_standings() -> Response:
    """Each player ref's wins (and points, completed tickets) summed over the
    rounds named by ``batch`` (repeated), as JSON (CSV: ``standings.csv``:
    one format per operation, for generated clients)."""
    return Response(json_text(_standings_body(_standings())), mimetype="application/json")


@bp.get("/organisers/me/standings.csv")
def get_standings_csv() -> Response:
    """The standings of ``get_standings`` as CSV."""
    return _standings_csv(_standings())


def _standings_body(result: Standings) -> dict[str, Any]:
    return StandingsSchema().dump({
        "type": result.game_type,
        "batches": list(result.batches),
        "finished": result.finished,
        "tie_breaks": list(result.tie_breaks),
        "unreferenced_seats": result.unreferenced_seats,
        "standings": [
            {"rank": p.rank, "player_ref": p.player_ref, "name": p.name, "games": p.games, "finished": p.finished,
             "wins": p.wins, "points": p.points, "completed_tickets": p.completed_tickets,
             "damaged_games": p.damaged_games}
            for p in result.players
        ],
        "damaged_tables": [
            {"batch": t.batch, "table": t.table, "game_id": t.game_id, "damaged_from": t.damaged_from}
            for t in result.damaged_tables
        ],
    })


def _standings_csv(result: Standings) -> Response:
    resp = Response(standings_csv(result), mimetype="text/csv")
    resp.headers["Content-Disposition"] = 'attachment; filename="standings.csv"'
    return resp
