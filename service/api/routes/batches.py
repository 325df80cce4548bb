"""Batch endpoints (organiser token): create a round's games at once (now or
scheduled), follow them, start or cancel them together, read their results
as JSON or CSV."""

from __future__ import annotations

from collections import Counter
from typing import Any

from flask import Blueprint, Response, current_app, request, url_for

from domain.core import STATUSES
from domain.custody import STATUS_SCHEDULED
from events.recorders.tournaments import BatchRecord
from events.records import GameRecord
from service.api.ratelimit import limits
from service.api.routes.edge import authorization, creation_key, json_body
from service.api.runtime import runtime
from service.api.schemas.tournament import (
    BatchCreatedSchema,
    BatchesPageSchema,
    BatchesQuerySchema,
    BatchResultsSchema,
    BatchSchema,
    CreateBatchSchema,
    ResultsQuerySchema,
)
from service.api.text import json_text
from service.usecases.auth import organiser_caller
from service.usecases.batch_results import TableResult, results_csv
from service.usecases.batches import ENDED, BatchService, table_specs
from service.usecases.bot_seats import bot_seats
from service.usecases.created import batch_fields, created_batch
from service.usecases.listing import Listed
from service.usecases.presentation import player_refs

bp = Blueprint("batches", __name__, url_prefix="/v1")


def _service() -> BatchService:
    rt = runtime()
    return rt.batches


@bp.post("/batches")
def create_batch() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Create every game of a batch, or none."""
    organiser = organiser_caller(runtime().tokens, authorization())
    data = CreateBatchSchema().load(json_body())
    # the key binds the body as read; a start time is hashed as the instant it names (ISO-8601 UTC)
    read = {**data, "start_at": data["start_at"].isoformat() if data["start_at"] is not None else None}
    key = creation_key(runtime().settings, "batch", read, organiser.organiser_id)
    rate = limits(current_app)
    created = _service().create(organiser, data["type"], table_specs(data), data["name"], key, data["ref"],
                                data["start_at"],
                                charge=lambda tables: rate.charge_creation(tables, organiser.organiser_id))
    body = created_batch(created)
    batch = created.batch
    location = url_for("batches.get_batch", batch_id=batch.batch_id)
    return BatchCreatedSchema().dump(body), 201, {"Location": location}


@bp.get("/batches")
def list_batches() -> dict[str, Any]:
    """The organiser's batches, newest first."""
    organiser = organiser_caller(runtime().tokens, authorization())
    q = BatchesQuerySchema().load(request.args.to_dict())
    page = _service().batches(organiser, q["limit"], q["cursor"], q["ref_prefix"])
    batches = [{**batch_fields(b), "tables": b.tables} for b in page.batches]
    return BatchesPageSchema().dump({"batches": batches, "next_cursor": page.next_cursor})


@bp.get("/batches/<batch_id>")
def get_batch(batch_id: str) -> dict[str, Any]:
    """The batch's games and how far each is."""
    organiser = organiser_caller(runtime().tokens, authorization())
    return _batch_body(*_service().tables_of(organiser, batch_id))


@bp.post("/batches/<batch_id>/start")
def start_batch(batch_id: str) -> dict[str, Any]:
    """Start every table of a scheduled batch now (each records ``game_started``)."""
    organiser = organiser_caller(runtime().tokens, authorization())
    return _batch_body(*_service().start(organiser, batch_id))


@bp.post("/batches/<batch_id>/cancel")
def cancel_batch(batch_id: str) -> dict[str, Any]:
    """End every table of the batch not yet ended with no result (scheduled ones included)."""
    organiser = organiser_caller(runtime().tokens, authorization())
    return _batch_body(*_service().cancel(organiser, batch_id))


def _batch_body(batch: BatchRecord, tables: tuple[tuple[GameRecord, Listed], ...]) -> dict[str, Any]:
    """The batch and its games, each with the status its view gives (and ``damaged_from`` for a damaged one)."""
    counts = Counter(listed.status for _, listed in tables)
    body = {
        **batch_fields(batch),
        "finished": all(listed.status in ENDED for _, listed in tables),
        # a scheduled round counts its waiting tables too; any other batch answers as it always did
        "status_counts": {status: counts.get(status, 0)
                          for status in ((STATUS_SCHEDULED, *STATUSES) if batch.starts_at else STATUSES)},
        "games": [_batch_game(r, listed) for r, listed in tables],
    }
    return BatchSchema().dump(body)


def _batch_game(r: GameRecord, listed: Listed) -> dict[str, Any]:
    game = {
        "table": int(r.metadata.get("batch_table", 0)),
        "ref": r.metadata.get("ref"),
        "id": r.game_id,
        "status": listed.status,
        "version": r.version,
        "updated_at": r.updated_at,
        "players": [
            {"seat": i, "name": n, "bot": b, "ref": ref}
            for i, (n, b, ref) in enumerate(zip(r.metadata.get("players", []), bot_seats(r.metadata),
                                                player_refs(r.metadata, len(r.metadata.get("players", []))),
                                                strict=False))
        ],
    }
    if listed.damaged_from is not None:
        game["damaged_from"] = listed.damaged_from
    return game


@bp.get("/batches/<batch_id>/results")
def batch_results(batch_id: str) -> Response:
    """Per table: players, scores, ranks and winners; JSON, or CSV with
    ``Accept: text/csv`` or ``?format=csv``."""
    organiser = organiser_caller(runtime().tokens, authorization())
    q = ResultsQuerySchema().load(request.args.to_dict())
    batch, tables = _service().results(organiser, batch_id)
    wants_csv = q["format"] == "csv" or (
        q["format"] is None
        and request.accept_mimetypes.best_match(["application/json", "text/csv"]) == "text/csv"
        and request.accept_mimetypes["text/csv"] > request.accept_mimetypes["application/json"]
    )
    if wants_csv:
        resp = _csv(batch.batch_id, tables)
        resp.vary.add("Accept")
        return resp
    body = {
        "batch": batch.batch_id,
        "ref": batch.ref,
        "type": batch.game_type,
        "finished": all(t.status in ENDED for t in tables),
        "tables": [_table_body(t) for t in tables],
    }
    resp = Response(json_text(BatchResultsSchema().dump(body)), mimetype="application/json")
    resp.vary.add("Accept")
    return resp


def _table_body(t: TableResult) -> dict[str, Any]:
    """One table's result (with ``damaged_from`` for a damaged one)."""
    table: dict[str, Any] = {
        "table": t.table,
        "ref": t.ref,
        "game_id": t.game_id,
        "status": t.status,
        "winners": list(t.winners),
        "reason": t.reason,
        "players": [
            {
                "seat": p.seat,
                "name": p.name,
                "ref": p.ref,
                "score": p.score,
                "rank": p.rank,
                "winner": p.winner,
                "completed_tickets": p.completed_tickets,
                "standing": p.standing,
            }
            for p in t.players
        ],
    }
    if t.damaged_from is not None:
        table["damaged_from"] = t.damaged_from
    return table


@bp.get("/batches/<batch_id>/results.csv")
def batch_results_csv(batch_id: str) -> Response:
    """The results as CSV whatever ``Accept`` says (one format per operation,
    for generated clients)."""
    organiser = organiser_caller(runtime().tokens, authorization())
    batch, tables = _service().results(organiser, batch_id)
    return _csv(batch.batch_id, tables)


def _csv(batch_id: str, tables: tuple[TableResult, ...]) -> Response:
    resp = Response(results_csv(batch_id, tables), mimetype="text/csv")
    resp.headers["Content-Disposition"] = f'attachment; filename="batch-{batch_id}-results.csv"'
    return resp
