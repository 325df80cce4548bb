"""Fuzzing: schemathesis generates requests from openapi.yaml and checks the
answers against it (no 5xx, status codes, content types, bodies and headers
as documented).  Path ids are sometimes replaced by a real game so the
generated requests reach the deep code paths, and a real seat token is sent.
"""

from __future__ import annotations

import os
import tempfile
from typing import Any

import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from service.app import create_app
from service.config import Settings

_APP = create_app(Settings(data_dir=tempfile.mkdtemp(prefix="cablecar-fuzz-"), sse_max_seconds=1, sse_heartbeat_seconds=1))
_CLIENT = _APP.test_client()
_GAMES: dict[str, dict[str, Any]] = {}
for _type, _n in (("ttr-sf", 2), ("cable-car", 3)):
    _resp = _CLIENT.post("/v1/games", json={"type": _type, "players": [{"name": f"p{i}"} for i in range(_n)]})
    if _resp.status_code == 201:
        _GAMES[_type] = _resp.get_json()

schema = schemathesis.openapi.from_wsgi("/openapi.json", _APP)
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance,
          response_schema_conformance, response_headers_conformance]
MAX_EXAMPLES = int(os.environ.get("CABLECAR_FUZZ_EXAMPLES", "60"))


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
def test_api_conforms_to_openapi(case: schemathesis.Case) -> None:
    games = list(_GAMES.values())
    if games and case.path_parameters and "id" in case.path_parameters:
        game = games[hash(str(case.path_parameters["id"])) % len(games)]
        if hash(str(case.body)) % 3:
            case.path_parameters["id"] = game["id"]
            if hash(str(case.query)) % 2:
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {game['seats'][0]['token']}"}
    case.call_and_validate(checks=CHECKS)
