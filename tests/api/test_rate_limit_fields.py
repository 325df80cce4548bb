"""The draft-ietf-httpapi-ratelimit-headers fields: ``RateLimit-Policy``
(``"name";q=quota;w=window``) and ``RateLimit`` (``"name";r=remaining;t=reset``)
on every answer of a limited route, refusals and 429s included, and on no
route outside every limit; the older ``RateLimit-Limit/-Remaining/-Reset``
stay (deprecated) beside them."""

from __future__ import annotations

import re
from pathlib import Path

from tests.api.test_rate_limits import app_with, client_at, create

_STATE = re.compile(r'^"(?P<name>[a-z-]+)";r=(?P<r>\d+);t=(?P<t>\d+)$')


def state(value: str) -> tuple[str, int, int]:
    match = _STATE.match(value)
    assert match is not None, value
    return match["name"], int(match["r"]), int(match["t"])


def test_a_counted_creation_names_its_policy_quota_window_remaining_and_reset(tmp_path: Path) -> None:
    client = client_at(app_with(tmp_path, create_rate_limit="3/hour"))
    first = create(client)
    assert first.status_code == 201
    assert first.headers["RateLimit-Policy"] == '"create";q=3;w=3600'
    name, remaining, reset = state(first.headers["RateLimit"])
    assert (name, remaining) == ("create", 2) and 1 <= reset <= 3600
    assert state(create(client).headers["RateLimit"])[:2] == ("create", 1)
    # the deprecated fields stay for one release and agree
    assert (first.headers["RateLimit-Limit"], first.headers["RateLimit-Remaining"]) == ("3", "2")


def test_a_429_carries_the_fields_with_nothing_remaining(tmp_path: Path) -> None:
    client = client_at(app_with(tmp_path, create_rate_limit="1/minute"))
    assert create(client).status_code == 201
    refused = create(client)
    assert refused.status_code == 429
    assert refused.headers["RateLimit-Policy"] == '"create";q=1;w=60'
    name, remaining, reset = state(refused.headers["RateLimit"])
    assert (name, remaining) == ("create", 0) and 1 <= reset <= 60
    assert refused.headers["Retry-After"] == str(reset)


def test_a_refusal_before_counting_still_names_the_routes_policies(tmp_path: Path) -> None:
    client = client_at(app_with(tmp_path, create_rate_limit="5/minute", organiser_create_rate_limit="7/hour"))
    bad = client.post("/v1/games", json={"type": "no-such-game"})
    assert bad.status_code in (400, 422)
    policy = bad.headers["RateLimit-Policy"]
    assert '"create";q=5;w=60' in policy and '"organiser";q=7;w=3600' in policy
    assert "RateLimit" not in bad.headers  # nothing was counted


def test_stream_opens_and_the_general_limit_carry_their_policies(tmp_path: Path) -> None:
    client = client_at(app_with(tmp_path, stream_rate_limit="4/minute", rate_limit=100, rate_limit_window=10))
    game = create(client).get_json()
    resp = client.get(f"/v1/games/{game['id']}/events/stream", buffered=False)
    assert resp.status_code == 200
    assert resp.headers["RateLimit-Policy"] == '"general";q=100;w=10, "stream";q=4;w=60'
    items = [state(item) for item in resp.headers["RateLimit"].split(", ")]
    assert [(n, r) for n, r, _ in items] == [("general", 98), ("stream", 3)]
    resp.close()
    # with the general limit on, every route but health is limited
    types = client.get("/v1/game-types")
    assert types.headers["RateLimit-Policy"] == '"general";q=100;w=10'
    assert "RateLimit-Policy" not in client.get("/v1/health").headers


def test_a_route_outside_every_limit_carries_none(tmp_path: Path) -> None:
    client = client_at(app_with(tmp_path))
    assert create(client).headers["RateLimit-Policy"].startswith('"create";')
    answer = client.get("/v1/game-types")
    assert answer.status_code == 200
    for field in ("RateLimit-Policy", "RateLimit", "RateLimit-Limit", "RateLimit-Remaining", "RateLimit-Reset"):
        assert field not in answer.headers
