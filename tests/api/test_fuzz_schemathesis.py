"""Fuzzing: schemathesis generates requests from openapi.yaml, valid ones
(positive data) and invalid ones (negative data), and runs every check it
has on the answers: no 5xx, status codes, content types, headers and bodies as
documented, valid requests accepted, invalid ones refused, and the stateful
checks along the spec's links.

Each operation gets the token its ``security`` names (a seat, host or
organiser token of real games, a batch and a webhook), and path ids are often
replaced by real ones so the requests reach the deep code paths.

Known exceptions (documented in the spec, and listed in EXCEPTIONS below with
their reasons) are the answers no JSON Schema can predict; every other failure
fails the test.  ``CABLECAR_FUZZ_EXAMPLES`` bounds the examples per operation.
"""

from __future__ import annotations

import os
import tempfile
from dataclasses import dataclass
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import GenerationMode
from schemathesis.core.failures import Failure, FailureGroup

from service.api.app import create_app
from service.config import Settings

_APP = create_app(Settings(
    data_dir=tempfile.mkdtemp(prefix="cablecar-fuzz-"), sse_max_seconds=1, sse_heartbeat_seconds=1,
    webhook_private_addresses=True, webhooks=False, cors_origins="https://client.example",
))
_CLIENT = _APP.test_client()
_GAMES: list[dict[str, Any]] = []
for _type, _n in (("ttr-sf", 2), ("cable-car", 3)):
    _resp = _CLIENT.post("/v1/games", json={"type": _type, "players": [{"name": f"p{i}"} for i in range(_n)]})
    assert _resp.status_code == 201, _resp.get_json()
    _GAMES.append(_resp.get_json())
_ORGANISER = _CLIENT.post("/v1/organisers", json={"name": "fuzz"}).get_json()
_ORG_AUTH = {"Authorization": f"Bearer {_ORGANISER['token']}"}
_BATCH = _CLIENT.post("/v1/batches", headers=_ORG_AUTH, json={
    "type": "ttr-sf", "tables": [{"players": [{"name": "a"}, {"name": "b"}]}]}).get_json()
_WEBHOOK = _CLIENT.post("/v1/webhooks", headers=_ORG_AUTH, json={"url": "http://127.0.0.1:9/hook"}).get_json()
_GAMES.append(_BATCH["games"][0])

schema = schemathesis.openapi.from_wsgi("/openapi.json", _APP)
schema.config.generation.update(modes=[GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
MAX_EXAMPLES = int(os.environ.get("CABLECAR_FUZZ_EXAMPLES", "30"))


@dataclass(frozen=True)
class Exception_:
    """An answer the spec documents but no schema can predict."""

    operation: str  # operationId, or "*"
    check: str  # the class of the failure schemathesis raises
    status: int
    code: str  # the problem code of the answer
    reason: str


EXCEPTIONS = (
    Exception_("postAction", "RejectedPositiveData", 422, "illegal_action",
               "whether a well-formed action is legal depends on the game's state (the rules), not its shape"),
    Exception_("postAction", "RejectedPositiveData", 400, "invalid_request",
               "the path does not name the game type: a well-formed body of the other game's actions is refused"),
    Exception_("*", "RejectedPositiveData", 422, "idempotency_key_reused",
               "the fuzzer sends the spec's example Idempotency-Key again with other bodies: refusing that is "
               "the documented meaning of the key"),
    Exception_("*", "RejectedPositiveData", 400, "idempotency_key_too_short",
               "without an organiser token a creation key must be at least 32 characters; with one, 1 is "
               "enough: a schema cannot relate the header's length to the Authorization header"),
    Exception_("*", "RejectedPositiveData", 400, "invalid_request",
               "a made-up cursor is well formed but was not handed out by the listing (cursors are opaque)"),
    Exception_("createGame", "RejectedPositiveData", 422, "invalid_config",
               "start_seat must be below the number of players sent, which a schema cannot relate"),
    Exception_("createBatch", "RejectedPositiveData", 422, "invalid_config",
               "start_seat must be below the number of players of its table, which a schema cannot relate"),
    Exception_("createGame", "RejectedPositiveData", 400, "invalid_request",
               "player names must differ ignoring case (uniqueItems compares exactly) and Unicode format "
               "characters outside the Basic Multilingual Plane are refused (the pattern cannot name them)"),
    Exception_("createBatch", "RejectedPositiveData", 400, "invalid_request",
               "as for createGame's names; also more tables than the operator's cap, a setting of the server"),
    Exception_("createWebhook", "RejectedPositiveData", 400, "invalid_request",
               "a URL must name a reachable http(s) host and a batch must be one of the organiser's"),
    Exception_("getGame", "RejectedPositiveData", 400, "invalid_request",
               "`at` must not exceed the game's version, which depends on the game"),
    Exception_("rotateSeatToken", "RejectedPositiveData", 400, "invalid_request",
               "the seat must be one of the game's seats, which depends on the game"),
    Exception_("streamEvents", "JsonSchemaError", 200, "",
               "schemathesis validates each SSE message against the body's schema, but the body is declared "
               "as text for client generators (OpenAPI 3.1 has no per-message schema; SseMessage is the "
               "contentSchema's item, and tests/api/test_openapi.py validates every message against it)"),
    Exception_("getOpenApiYaml", "JsonSchemaError", 200, "",
               "schemathesis parses the YAML and compares the document with the schema of the text that "
               "generators read; the parsed document is checked by tests/api/test_openapi.py"),
    Exception_("getAsyncApiYaml", "JsonSchemaError", 200, "",
               "the same for the AsyncAPI document: schemathesis compares the parsed YAML with the schema of the "
               "text; the document itself is checked by tests/api/test_asyncapi.py and the AsyncAPI parser"),
)


def _documented(failure: Failure, case: schemathesis.Case, status: int, code: str) -> bool:
    return any(
        e.operation in ("*", case.operation.definition.raw.get("operationId")) and e.check == type(failure).__name__
        and e.status == status and e.code == code
        for e in EXCEPTIONS
    )


def _token_for(case: schemathesis.Case, game: dict[str, Any]) -> str | None:
    """The token the operation's first security requirement names (None: public)."""
    for requirement in case.operation.definition.raw.get("security", []):
        for kind in requirement:
            if kind == "seatToken":
                return str(game["seats"][0]["token"])
            if kind == "hostToken":
                return str(game["host_token"])
            if kind == "organiserToken":
                return str(_ORGANISER["token"])
    return None


def _aim(case: schemathesis.Case) -> dict[str, Any]:
    """Point most cases at real games, batches and webhooks; the game aimed at."""
    params = case.path_parameters or {}
    key = hash((str(case.body), str(case.query)))
    game = _GAMES[key % len(_GAMES)]
    # A path made invalid on purpose (negative data) stays invalid.
    components = case.meta.components if case.meta is not None else {}
    invalid_path = any(loc.value == "path" and info.mode == GenerationMode.NEGATIVE for loc, info in components.items())
    if key % 3 and not invalid_path:
        if "id" in params:
            params["id"] = game["id"]
        if "batch_id" in params:
            params["batch_id"] = _BATCH["id"]
        if "webhook_id" in params:
            params["webhook_id"] = _WEBHOOK["id"]
    return game


@schema.auth(refresh_interval=None)
class Tokens:
    """The token the operation's security names, for the game the case aims
    at: schemathesis knows it as the case's authentication, so its own auth
    checks (a missing or a made-up token must be refused) test the real one."""

    def get(self, case: schemathesis.Case, ctx: Any) -> str | None:
        return _token_for(case, _aim(case))

    def set(self, case: schemathesis.Case, data: str, ctx: Any) -> None:
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {data}"}


def _problem_code(response: Any) -> str:
    try:
        body = response.json()
    except Exception:  # not JSON (a stream, CSV, an empty 304): no problem code
        return ""
    return str(body.get("code", "")) if isinstance(body, dict) else ""


def _check(case: schemathesis.Case, response: Any) -> None:
    """Every check; a failure listed in EXCEPTIONS for this answer is let through."""
    try:
        case.validate_response(response)
    except (FailureGroup, Failure) as failed:
        failures = list(failed.exceptions) if isinstance(failed, FailureGroup) else [failed]
        code = _problem_code(response)
        left = [f for f in failures if not _documented(f, case, response.status_code, code)]
        if left:
            if os.environ.get("CABLECAR_FUZZ_REPORT"):
                for f in left:
                    print("undocumented failure:", case.operation.definition.raw.get("operationId"),
                          type(f).__name__, response.status_code, code, str(f).splitlines()[:12], case.meta)
            raise FailureGroup(left) if len(left) > 1 else left[0] from failed


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
def test_api_conforms_to_openapi(case: schemathesis.Case) -> None:
    if "Authorization" not in (case.headers or {}):
        _aim(case)  # public operations too reach real games
    _check(case, case.call())


class Links(schema.as_state_machine()):  # type: ignore[misc]
    """Sequences along the spec's links (create a game, then read, act on,
    export it...; create a batch or webhook, then read it), each call with the
    token its operation's security names for the game it targets."""

    def validate_response(self, response: Any, case: schemathesis.Case, **kwargs: Any) -> None:
        _check(case, response)


TestLinks = Links.TestCase
TestLinks.settings = settings(max_examples=max(3, MAX_EXAMPLES // 6), stateful_step_count=6, deadline=None,
                              suppress_health_check=list(HealthCheck))
