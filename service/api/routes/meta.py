"""Service-level endpoints: game types, boards, health, the API description."""

from __future__ import annotations

import logging
from functools import lru_cache
from importlib import resources
from typing import Any

import yaml
from flask import Blueprint, Response

from domain.registry import all_games
from events.migrations.apply import MIGRATE_COMMAND, SchemaNotMigrated
from events.records import StoreError
from service.api.immutable import immutable
from service.api.runtime import runtime
from service.api.schemas.action_bodies import action_bodies
from service.api.schemas.event_schemas import event_catalogue
from service.api.schemas.responses import GameTypesSchema, HealthSchema, SigningKeysSchema
from service.usecases.bot_seats import bots_of_type
from service.usecases.queries import definition_of

bp = Blueprint("meta", __name__)
log = logging.getLogger("cablecar.health")

SERVICE_VERSION = "0.1.0"


@lru_cache(maxsize=1)
def openapi_text() -> str:
    """The packaged openapi.yaml."""
    return resources.files("service").joinpath("openapi.yaml").read_text(encoding="utf-8")


@lru_cache(maxsize=1)
def openapi_dict() -> dict[str, Any]:
    """openapi.yaml parsed."""
    data = yaml.safe_load(openapi_text())
    assert isinstance(data, dict)
    return data


@bp.get("/v1/game-types")
def game_types() -> dict[str, Any]:
    """The game types this server plays, each with its action bodies (all derived
    from the game definitions)."""
    types = [
        {
            "type": g.type_id,
            "title": g.title,
            "min_players": g.min_players,
            "max_players": g.max_players,
            "rules_version": g.rules_version,
            "board_version": g.board_version,
            "actions": sorted(g.move_types),
            "bots": list(bots_of_type(g.type_id)),
            "action_bodies": action_bodies(g),
        }
        for g in all_games()
    ]
    return GameTypesSchema().dump({"types": types})


@bp.get("/v1/games-types")
def game_types_deprecated() -> Response:
    """The path of the first releases, kept answering (deprecated)."""
    resp = Response(_json_text(game_types()), mimetype="application/json")
    resp.headers["Deprecation"] = "true"
    resp.headers["Link"] = '</v1/game-types>; rel="successor-version"'
    return resp


def _json_text(body: Any) -> str:
    from flask import json

    return json.dumps(body)


@bp.get("/v1/game-types/<type_id>/events")
def event_types(type_id: str) -> Response:
    """The event catalogue of a game type: each event type and schema version
    it writes or reads, with the JSON Schema of its payload and its redacted
    fields (derived from the game definition; immutable)."""
    game = definition_of(type_id)
    return immutable(_json({"type": game.type_id, "events": event_catalogue(game)}))


@bp.get("/v1/boards/<type_id>")
def board(type_id: str) -> Response:
    """Static board data of a game type, for rendering (immutable)."""
    game = definition_of(type_id)
    data = dict(game.board())
    data.setdefault("type", game.type_id)
    return immutable(_json(data))


def _json(body: Any) -> Response:
    """``body`` as the JSON answer Flask would make of it."""
    from flask import current_app

    return Response(current_app.json.dumps(body), mimetype="application/json")


@bp.get("/v1/keys")
def signing_keys() -> dict[str, Any]:
    """The public keys of every key the server signs (or signed) its records
    with, the current one first, each naming the seqs of its lifetime's events
    in the server's own stream: save them to check records offline
    (``cablecar verify --keys``)."""
    rt = runtime()
    keys = rt.server_stream.public_keys(rt.signing_keys)
    return SigningKeysSchema().dump({"keys": [k.to_json() for k in keys]})


@bp.get("/v1/health")
def health() -> tuple[dict[str, Any], int]:
    """Liveness plus the state of the event store, the cache and the bot runners."""
    rt = runtime()
    backend = rt.stores.backend
    try:
        rt.stores.ping()
        store = {"backend": backend, "ok": True, "detail": "reachable"}
    except SchemaNotMigrated:
        # said once in the log by the store; the command names no host
        store = {"backend": backend, "ok": False,
                 "detail": f"the database schema is not migrated: run `{MIGRATE_COMMAND}`"}
    except StoreError as e:
        # The error may name the database's host and port: the log has it, the public answer does not.
        log.warning("health: the event store is unreachable: %s", e)
        store = {"backend": backend, "ok": False, "detail": "unreachable (the server log says why)"}
    cache_health = rt.cache.health()
    cache = {"backend": cache_health.backend, "ok": cache_health.ok, "detail": cache_health.detail}
    # the bot runners alive (their heartbeats): none refuses bot seats, but the server is not down for it
    runners = rt.creation.bot_turns.live_runners() if store["ok"] and rt.creation.bot_turns is not None else 0
    log_health = _log_health(rt) if store["ok"] else {
        "ok": False, "checkpoint_age_s": None, "tree_size": 0, "detail": "unknown: the event store is unavailable"}
    if not store["ok"]:
        status, code = "unavailable", 503
    elif not cache["ok"] or not log_health["ok"]:
        status, code = "degraded", 200
    else:
        status, code = "ok", 200
    body = {"status": status, "store": store, "cache": cache, "bots": {"runners": runners, "ok": runners > 0},
            "log": log_health, "version": SERVICE_VERSION}
    return HealthSchema().dump(body), code


def _log_health(rt: Any) -> dict[str, Any]:
    """The transparency log's latest checkpoint: its age, degraded past 60 s while events wait (issue 48)."""
    try:
        fresh = rt.log.freshness(rt.stores.deadlines.estimated_time())
    except StoreError as e:
        log.warning("health: the transparency log cannot be read: %s", e)
        return {"ok": False, "checkpoint_age_s": None, "tree_size": 0,
                "detail": "unreadable (the server log says why)"}
    age = None if fresh.checkpoint_age_s is None else round(fresh.checkpoint_age_s, 3)
    return {"ok": fresh.ok, "checkpoint_age_s": age, "tree_size": fresh.tree_size, "detail": fresh.detail}


@bp.get("/openapi.yaml")
def openapi_yaml() -> Response:
    """The API description (OpenAPI 3.1)."""
    return Response(openapi_text(), mimetype="application/yaml")


@bp.get("/asyncapi.yaml")
def asyncapi_yaml() -> Response:
    """The event stream and the webhooks (AsyncAPI 3), beside openapi.yaml (its refs point there)."""
    text = resources.files("service").joinpath("asyncapi.yaml").read_text(encoding="utf-8")
    return Response(text, mimetype="application/yaml")


@bp.get("/openapi.json")
def openapi_json() -> dict[str, Any]:
    """The API description as JSON."""
    return openapi_dict()


@bp.get("/docs")
def docs() -> Response:
    """A browsable page of the API description."""
    html = resources.files("service").joinpath("static/docs.html").read_text(encoding="utf-8")
    return Response(html, mimetype="text/html")
