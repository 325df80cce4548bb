"""Export and audit endpoints."""

from __future__ import annotations

import json
from typing import Any

from flask import Blueprint, Response, current_app, request

from service.api.immutable import immutable
from service.api.ratelimit import limits
from service.api.runtime import runtime
from service.api.text import json_text
from service.usecases.records import audit_game, export_game

bp = Blueprint("records", __name__, url_prefix="/v1")


@bp.get("/games/<game_id>/export")
def export(game_id: str) -> Response:
    """The complete record of a finished (or cancelled) game, as JSON or
    (``Accept``) NDJSON: immutable, since an ended game never changes."""
    header, events = export_game(runtime().queries, game_id)
    best = request.accept_mimetypes.best_match(["application/json", "application/x-ndjson"])
    if best == "application/x-ndjson" and request.accept_mimetypes["application/x-ndjson"] > \
            request.accept_mimetypes["application/json"]:
        resp = _ndjson(header, events)
    else:
        resp = Response(json_text({**header, "events": events}), mimetype="application/json")
    resp.vary.add("Accept")
    return immutable(resp)


@bp.get("/games/<game_id>/export.ndjson")
def export_ndjson(game_id: str) -> Response:
    """The complete record of a finished game as NDJSON, whatever ``Accept`` says
    (one format per operation, for generated clients)."""
    header, events = export_game(runtime().queries, game_id)
    return immutable(_ndjson(header, events))


def _ndjson(header: dict[str, Any], events: list[dict[str, Any]]) -> Response:
    lines = [json.dumps({"kind": "header", **header}, separators=(",", ":"))]
    lines += [json.dumps({"kind": "event", **e}, separators=(",", ":")) for e in events]
    return Response("\n".join(lines) + "\n", mimetype="application/x-ndjson")


@bp.get("/games/<game_id>/audit")
def audit(game_id: str) -> dict[str, Any]:
    """Verification of the stored game (rate-limited per address; an answer
    is reused for the same game version for a short while)."""
    limits(current_app).charge_audit()
    return audit_game(runtime().queries, game_id)
