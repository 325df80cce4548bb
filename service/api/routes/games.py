"""Game endpoints: create, list, view, legal actions, actions, events, stream."""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import Any

from flask import Blueprint, Response, current_app, request, stream_with_context, url_for
from marshmallow import ValidationError

from domain.body import integral
from domain.sampling import sample
from events.records import GameRecord
from service.adapters.idempotency import IDEMPOTENCY_MAX
from service.api.ratelimit import limits
from service.api.routes.cursors import events_after, legal_cursor, legal_offset
from service.api.routes.edge import authorization, creation_key, json_body
from service.api.runtime import runtime
from service.api.schemas import fastdump
from service.api.schemas.requests import (
    MAX_INT,
    CreateGameSchema,
    EventsQuerySchema,
    LegalActionsQuerySchema,
    ListGamesQuerySchema,
    StreamQuerySchema,
    ViewQuerySchema,
)
from service.api.schemas.responses import (
    EventsPageSchema,
    GameCreatedSchema,
    GamesPageSchema,
    GameViewSchema,
    StreamTicketSchema,
)
from service.api.sse_channel import peer_closed
from service.api.text import json_text
from service.errors import InvalidRequest
from service.usecases.auth import creating_organiser, game_caller, require_seat
from service.usecases.commands import ActionRequest
from service.usecases.created import created_game
from service.usecases.creation import GameRequest, requested_game
from service.usecases.listing import listed_summary
from service.usecases.presentation import game_view

bp = Blueprint("games", __name__, url_prefix="/v1")

#: the largest ``expected_version`` accepted (fits every database integer type)
VERSION_MAX = 2**53

# schemas are built once: building one copies all its fields
_CREATE_GAME = CreateGameSchema()
_EVENTS_PAGE = EventsPageSchema()
_EVENTS_QUERY = EventsQuerySchema()
_GAME_CREATED = GameCreatedSchema()
_GAME_VIEW = GameViewSchema()
_GAMES_PAGE = GamesPageSchema()
_LEGAL_ACTIONS_QUERY = LegalActionsQuerySchema()
_LIST_GAMES_QUERY = ListGamesQuerySchema()
_STREAM_QUERY = StreamQuerySchema()
_STREAM_TICKET = StreamTicketSchema()
_VIEW_QUERY = ViewQuerySchema()


@bp.post("/games")
def create_game() -> tuple[dict[str, Any], int, dict[str, str]]:
    """Create and start a game (with an organiser token, the organiser's
    webhooks cover it)."""
    rt = runtime()
    organiser = creating_organiser(rt.tokens, authorization(), rt.settings.create_requires_organiser)
    data = _CREATE_GAME.load(json_body())
    organiser_id = organiser.organiser_id if organiser else None
    key = creation_key(rt.settings, "game", data, organiser_id or "")
    rate = limits(current_app)

    def charge(request: GameRequest) -> None:
        rate.charge_creation(1, organiser_id)
        rate.charge_bot_seats(sum(1 for b in request.bots or () if b), organiser_id)

    created = rt.creation.create(requested_game(data, organiser, rate.client()), key, charge)
    body = created_game(created)
    location = url_for("games.get_game", game_id=created.record.game_id)
    return _GAME_CREATED.dump(body), 201, {"Location": location}


@bp.get("/games")
def list_games() -> dict[str, Any]:
    """List games, newest first."""
    q = _LIST_GAMES_QUERY.load(request.args.to_dict())
    rt = runtime()
    page = rt.queries.reader.list_games(q["status"], q["type"], q["batch"], q["limit"], q["cursor"], q["ref"])
    # each with the status its view gives: a damaged game's row may say more than its genuine events
    games = [listed_summary(g, listed) for g, listed in rt.listing.page(page.games, q["status"])]
    return _GAMES_PAGE.dump({"games": games, "next_cursor": page.next_cursor})


@bp.get("/games/<game_id>")
def get_game(game_id: str) -> Response | dict[str, Any]:
    """The game as the caller may see it, now or after event ``at``."""
    rt = runtime()
    q = _VIEW_QUERY.load(request.args.to_dict())
    record = rt.queries.record(game_id)
    caller = game_caller(rt.tokens, record, authorization())
    at = q["at"] if q["at"] is None else rt.queries.check_at(record, q["at"])
    loaded = None
    if at is None and (record.metadata.get("time_control") or record.metadata.get("starts_at")):
        # a timeout (or the start) may be due: the newest version is the one after it
        loaded = rt.queries.readable(game_id, record=record)
    etag_version = at if at is not None else (loaded.version if loaded else record.version)
    etag = f'"{etag_version}"'
    # RFC 9110 section 13.1.2: If-None-Match compares weakly, so W/"8" matches "8".
    if request.if_none_match and request.if_none_match.contains_weak(str(etag_version)):
        resp = Response(status=304)
        resp.headers["ETag"] = etag
        resp.headers["Vary"] = "Authorization"
        resp.headers["Cache-Control"] = "no-cache"
        return resp
    if loaded is None:
        # a damaged game is shown up to its last good event, saying damaged_from
        loaded = rt.queries.readable(game_id, record=record) if at is None else rt.queries.load(game_id, at, record=record)
    body = _GAME_VIEW.dump(game_view(loaded, caller.seat))
    resp = Response(json_text(body), mimetype="application/json")
    resp.headers["ETag"] = f'"{loaded.version}"'
    resp.headers["Vary"] = "Authorization"
    resp.headers["Cache-Control"] = "no-cache"
    return resp


@bp.get("/games/<game_id>/legal-actions")
def legal_actions(game_id: str) -> dict[str, Any]:
    """Every action the caller's seat may send now: a page at a time, or a
    uniform sample of the whole list; cable-car: optionally only those whose
    first placement is on one square."""
    rt = runtime()
    record = rt.queries.record(game_id)
    # who asks comes first: a caller without a seat hears 401/403, whatever its query
    seat = require_seat(game_caller(rt.tokens, record, authorization()))
    q = _LEGAL_ACTIONS_QUERY.load(request.args.to_dict())
    loaded = rt.queries.load(game_id, record=record)
    square = q["square"]
    listed = rt.queries.legal_actions(loaded, seat, square)
    total = len(listed)
    if q["sample"] is not None:
        seed = q["seed"] if q["seed"] is not None else secrets.token_urlsafe(16)
        chosen = sample(listed, q["sample"], seed, loaded.version)
        return fastdump.legal_actions_page(game_id, loaded.version, seat, total, None, [a.to_body() for a in chosen])
    start = 0
    if q["cursor"] is not None:
        start = legal_offset(q["cursor"], game_id, seat, square, loaded.version, total)
    end = start + q["limit"]
    actions = [a.to_body() for a in listed[start:end]]
    following = legal_cursor(game_id, seat, square, loaded.version, end) if end < total else None
    # the same dict as LegalActionsSchema().dump, in one pass (schemas/fastdump.py)
    return fastdump.legal_actions_page(game_id, loaded.version, seat, total, following, actions)


@bp.post("/games/<game_id>/actions")
def post_action(game_id: str) -> tuple[dict[str, Any], int]:
    """Send one action for the caller's seat."""
    refused = request.environ.get(REFUSED_ACTION)
    if refused is not None:
        # already tried by the action route (service/api/action_route.py): answered from here as refused
        raise refused
    outcome = runtime().commands.act(game_id, action_request(authorization(), request.headers.get("Idempotency-Key"),
                                                             json_body))
    # the hottest answer: the same dict as ActionResultSchema().dump, in one pass (schemas/fastdump.py)
    return fastdump.action_result(outcome.version, outcome.events, outcome.replayed), 201


#: the environ key under which the action route leaves the refusal of an action it tried
REFUSED_ACTION = "cablecar.refused_action"


def action_request(auth: str | None, key: str | None, body_of: Callable[[], Any]) -> ActionRequest:
    """The action as sent (``body_of``: its JSON, read and checked at the
    edge); what is wrong with its headers or JSON is carried as the refusal
    (the body's shape is the game's to check)."""
    try:
        if key is not None and not 1 <= len(key) <= IDEMPOTENCY_MAX:
            raise InvalidRequest(f"Idempotency-Key must be 1 to {IDEMPOTENCY_MAX} characters")
        body = body_of()
        sent = body.get("expected_version") if isinstance(body, dict) else None
        expected = None if sent is None else integral(sent)  # 8.0 is the integer 8 (JSON Schema)
        if sent is not None and (expected is None or not 0 <= expected <= VERSION_MAX):
            message = f"must be an integer between 0 and {VERSION_MAX}"
            raise InvalidRequest(
                f"expected_version: {message}", errors=[{"field": "expected_version", "message": message}]
            )
    except InvalidRequest as refusal:
        return ActionRequest(auth, {}, idempotency_key=key, refusal=refusal)
    return ActionRequest(auth, body, expected, key)


@bp.get("/games/<game_id>/events")
def list_events(game_id: str) -> dict[str, Any]:
    """The event log as the caller may see it."""
    rt = runtime()
    q = _EVENTS_QUERY.load(request.args.to_dict())
    record = rt.queries.record(game_id)
    caller = game_caller(rt.tokens, record, authorization())
    loaded = rt.queries.readable(game_id, record=record)
    after = events_after(q["cursor"], loaded.version) if q["cursor"] is not None else q["after"]
    # a damaged game's log ends at its last good event
    limit = q["limit"] if loaded.damaged_from is None else max(0, min(q["limit"], loaded.version - after))
    events = rt.queries.events(loaded, caller.seat, after, limit) if limit else []
    last = events[-1]["seq"] if events else after
    next_after = last if events and last < loaded.version else None
    page = {
        "game_id": game_id,
        "version": loaded.version,
        "events": events,
        "next_cursor": None if next_after is None else str(next_after),
        "next_after": next_after,
    }
    if loaded.damaged_from is not None:
        page["damaged_from"] = loaded.damaged_from
    return _EVENTS_PAGE.dump(page)


@bp.get("/games/<game_id>/events/stream")
def stream_events(game_id: str) -> Response:
    """The event log as Server-Sent Events, resumable with Last-Event-ID."""
    rt = runtime()
    q = _STREAM_QUERY.load(request.args.to_dict())
    record = rt.queries.record(game_id)
    seat, token_hash = _stream_seat(record, q["ticket"])
    after = q["after"]
    last_id = request.headers.get("Last-Event-ID")
    if last_id is not None:
        try:
            after = int(last_id)
        except ValueError as e:
            raise ValidationError({"Last-Event-ID": ["must be an event seq (integer)"]}) from e
        if not 0 <= after <= MAX_INT:
            raise ValidationError({"Last-Event-ID": [f"must be between 0 and {MAX_INT}"]})
    # loaded before answering: a game that cannot be served is refused (409 game_damaged), not cut off after a 200
    loaded = rt.queries.load(game_id)
    admission = rt.streams.admit(limits(current_app).client())  # same address rule as rate limits
    gen = rt.streams.stream(
        game_id, seat, after or 0, rt.settings.sse_max_seconds, rt.settings.sse_heartbeat_seconds,
        admission, token_hash, loaded, peer_closed(request.environ.get("gunicorn.socket")),
    )
    resp = Response(stream_with_context(gen), mimetype="text/event-stream")
    # Released when the server closes the answer, even one never iterated.
    resp.call_on_close(admission.release)
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Accel-Buffering"] = "no"
    return resp


def _stream_seat(record: GameRecord, ticket: str | None) -> tuple[int | None, str | None]:
    """Whose stream is opened: the seat of the Authorization header's token or
    of a stream ticket (used up now), with the seat token's hash, for the
    stream ends once that token is rotated away; (None, None) for a spectator."""
    rt = runtime()
    header = authorization()
    if ticket is not None:
        if header is not None:
            raise InvalidRequest("send either a stream ticket or an Authorization header, not both")
        opened = rt.tickets.redeem(record, ticket)
        return opened.seat, opened.token_hash
    seat = game_caller(rt.tokens, record, header).seat
    return seat, None if seat is None else str(record.metadata["seat_token_hashes"][seat])


@bp.post("/games/<game_id>/stream-tickets")
def create_stream_ticket(game_id: str) -> tuple[dict[str, Any], int]:
    """A single-use ticket opening the caller's seat's event stream (seat token only)."""
    rt = runtime()
    record = rt.queries.record(game_id)
    issued = rt.tickets.issue(record, authorization())
    return _STREAM_TICKET.dump({"ticket": issued.ticket, "expires_at": issued.expires_at}), 201
