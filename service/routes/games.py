"""Game endpoints: create, list, view, legal actions, actions, events, stream."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, request, stream_with_context, url_for
from marshmallow import ValidationError

from service import tokens
from service.auth import game_caller, optional_organiser, require_seat
from service.games import ActionOutcome, Loaded
from service.problems import ApiError
from service.runtime import Runtime, runtime
from service.schemas.actions import load_action
from service.schemas.requests import (
    MAX_INT,
    CreateGameSchema,
    EventsQuerySchema,
    LegalActionsQuerySchema,
    ListGamesQuerySchema,
    StreamQuerySchema,
    ViewQuerySchema,
)
from service.schemas.responses import (
    ActionResultSchema,
    EventsPageSchema,
    GameCreatedSchema,
    GamesPageSchema,
    GameViewSchema,
    LegalActionsSchema,
)
from service.sse import stream

bp = Blueprint("games", __name__, url_prefix="/v1")

IDEMPOTENCY_MAX = 200

# schemas are built once: building one copies all its fields
_ACTION_RESULT = ActionResultSchema()
_CREATE_GAME = CreateGameSchema()
_EVENTS_PAGE = EventsPageSchema()
_EVENTS_QUERY = EventsQuerySchema()
_GAME_CREATED = GameCreatedSchema()
_GAME_VIEW = GameViewSchema()
_GAMES_PAGE = GamesPageSchema()
_LEGAL_ACTIONS_QUERY = LegalActionsQuerySchema()
_LEGAL_ACTIONS = LegalActionsSchema()
_LIST_GAMES_QUERY = ListGamesQuerySchema()
_STREAM_QUERY = StreamQuerySchema()
_VIEW_QUERY = ViewQuerySchema()


def json_body() -> Any:
    """The request body parsed as JSON, or a 400 problem."""
    if not request.data:
        raise ApiError(400, "invalid_request", "a JSON body is required")
    try:
        return request.get_json(force=True)
    except Exception as e:
        raise ApiError(400, "invalid_request", "the body is not valid JSON") from e


def summary(record: Any) -> dict[str, Any]:
    """The public summary of a game record."""
    meta = record.metadata
    return {
        "id": record.game_id,
        "type": record.game_type,
        "status": record.status,
        "version": record.version,
        "created_at": record.created_at,
        "updated_at": record.updated_at,
        "players": [{"seat": i, "name": n} for i, n in enumerate(meta.get("players", []))],
        "seed_commitment": meta.get("seed_commitment", ""),
        "batch": meta.get("batch"),
    }


def game_view(loaded: Loaded, seat: int | None) -> dict[str, Any]:
    """The view of a loaded game for ``seat`` with the shared top-level fields."""
    view = dict(loaded.game.view(loaded.state, seat))
    view.update(
        id=loaded.record.game_id,
        type=loaded.record.game_type,
        version=loaded.version,
        seed_commitment=loaded.record.metadata.get("seed_commitment"),
    )
    return view


@bp.post("/games")
def create_game() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Create and start a game (with an organiser token, the organiser's
    webhooks cover it)."""
    rt = runtime()
    organiser = optional_organiser(rt.store)
    data = _CREATE_GAME.load(json_body())
    created = rt.games.create_game(
        data["type"],
        [p["name"] for p in data["players"]],
        data["seed"],
        data["start_seat"],
        {"organiser": organiser.organiser_id} if organiser else None,
    )
    meta = created.record.metadata
    body = {
        "id": created.record.game_id,
        "type": created.record.game_type,
        "status": created.status,
        "version": created.version,
        "seed_commitment": meta["seed_commitment"],
        "seed_source": meta["seed_source"],
        "seats": [
            {"seat": i, "name": n, "token": t}
            for i, (n, t) in enumerate(zip(meta["players"], created.seat_tokens, strict=True))
        ],
        "host_token": created.host_token,
    }
    location = url_for("games.get_game", game_id=created.record.game_id)
    return _GAME_CREATED.dump(body), 201, {"Location": location}


@bp.get("/games")
def list_games() -> dict[str, Any]:
    """List games, newest first."""
    q = _LIST_GAMES_QUERY.load(request.args.to_dict())
    page = runtime().store.list_games(q["status"], q["type"], q["batch"], q["limit"], q["cursor"])
    return _GAMES_PAGE.dump({"games": [summary(g) for g in page.games], "next_cursor": page.next_cursor})


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> Response | dict[str, Any]:
    """The game as the caller may see it, now or after event ``at``."""
    rt = runtime()
    q = _VIEW_QUERY.load(request.args.to_dict())
    record = rt.games.get_record(game_id)
    caller = game_caller(rt.store, record)
    at = q["at"]
    etag_version = at if at is not None else record.version
    etag = f'"{etag_version}"'
    if at is not None and at > record.version:
        raise ApiError(400, "invalid_request", f"at must be between 1 and the game's version ({record.version})")
    if request.if_none_match and request.if_none_match.contains(str(etag_version)):
        resp = Response(status=304)
        resp.headers["ETag"] = etag
        resp.headers["Vary"] = "Authorization"
        return resp
    loaded = rt.games.load(game_id, at, record=record)
    body = _GAME_VIEW.dump(game_view(loaded, caller.seat))
    resp = Response(_json(body), mimetype="application/json")
    resp.headers["ETag"] = f'"{loaded.version}"'
    resp.headers["Vary"] = "Authorization"
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/games/<game_id>/legal-actions")
def legal_actions(game_id: str) -> dict[str, Any]:
    """Every action the caller's seat may send now, a page at a time."""
    rt = runtime()
    q = _LEGAL_ACTIONS_QUERY.load(request.args.to_dict())
    record = rt.games.get_record(game_id)
    seat = require_seat(game_caller(rt.store, record))
    loaded = rt.games.load(game_id, record=record)
    everything = rt.games.legal_actions(loaded, seat)
    start, end = q["cursor"], q["cursor"] + q["limit"]
    actions = [a.to_body() for a in everything[start:end]]
    return _LEGAL_ACTIONS.dump({
        "game_id": game_id,
        "version": loaded.version,
        "seat": seat,
        "total": len(everything),
        "next_cursor": end if end < len(everything) else None,
        "actions": actions,
    })


@bp.post("/games/<game_id>/actions")
def post_action(game_id: str) -> tuple[dict[str, Any], int]:
    """Send one action for the caller's seat."""
    rt = runtime()
    outcome = _act_on_recent(rt, game_id) or _act(rt, game_id)
    result = {"version": outcome.version, "events": list(outcome.events), "replayed": outcome.replayed}
    return _ACTION_RESULT.dump(result), 201


def _act(rt: Runtime, game_id: str) -> ActionOutcome:
    """The full path of an action: read the game row, resolve the caller,
    check the request, decide and append (every error answered exactly)."""
    record = rt.games.get_record(game_id)
    seat = require_seat(game_caller(rt.store, record))
    key = _idempotency_key()
    body, expected = load_action(record.game_type, json_body())
    return rt.games.act(game_id, seat, body, expected, key, record=record)


def _act_on_recent(rt: Runtime, game_id: str) -> ActionOutcome | None:
    """The one-round-trip path (:meth:`GameService.act_on_recent`) for a
    well-formed request with a seat token of a game this process has seen;
    None sends the request down the full path."""
    token = tokens.bearer(request.headers.get("Authorization"))
    key = request.headers.get("Idempotency-Key")
    record = rt.games.records.get(game_id)
    if token is None or record is None or (key is not None and not 1 <= len(key) <= IDEMPOTENCY_MAX):
        return None
    try:
        body, expected = load_action(record.game_type, request.get_json(force=True, silent=True))
    except ValidationError:
        return None
    return rt.games.act_on_recent(game_id, token, body, expected, key)


def _idempotency_key() -> str | None:
    key = request.headers.get("Idempotency-Key")
    if key is not None and not 1 <= len(key) <= IDEMPOTENCY_MAX:
        raise ApiError(400, "invalid_request", f"Idempotency-Key must be 1 to {IDEMPOTENCY_MAX} characters")
    return key


@bp.get("/games/<game_id>/events")
def list_events(game_id: str) -> dict[str, Any]:
    """The event log as the caller may see it."""
    rt = runtime()
    q = _EVENTS_QUERY.load(request.args.to_dict())
    record = rt.games.get_record(game_id)
    caller = game_caller(rt.store, record)
    loaded = rt.games.load(game_id, record=record)
    events = rt.games.events_for(loaded, caller.seat, q["after"], q["limit"])
    last = events[-1]["seq"] if events else q["after"]
    next_after = last if events and last < loaded.version else None
    return _EVENTS_PAGE.dump(
        {"game_id": game_id, "version": loaded.version, "events": events, "next_after": next_after}
    )


@bp.get("/games/<game_id>/events/stream")
def stream_events(game_id: str) -> Response:
    """The event log as Server-Sent Events, resumable with Last-Event-ID."""
    rt = runtime()
    q = _STREAM_QUERY.load(request.args.to_dict())
    record = rt.games.get_record(game_id)
    caller = game_caller(rt.store, record)
    after = q["after"]
    last_id = request.headers.get("Last-Event-ID")
    if last_id is not None:
        try:
            after = int(last_id)
        except ValueError as e:
            raise ValidationError({"Last-Event-ID": ["must be an event seq (integer)"]}) from e
        if not 0 <= after <= MAX_INT:
            raise ValidationError({"Last-Event-ID": [f"must be between 0 and {MAX_INT}"]})
    gen = stream(
        rt.games, game_id, caller, after or 0, rt.settings.sse_max_seconds, rt.settings.sse_heartbeat_seconds
    )
    resp = Response(stream_with_context(gen), mimetype="text/event-stream")
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp


def _json(body: Any) -> str:
    from flask import json

    return json.dumps(body)
