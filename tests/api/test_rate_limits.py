"""Limits that hold: game creation limited by default, counted per client
address (never per presented header), shared through Redis, honouring
X-Forwarded-For only behind configured proxies; stream opens and batch sizes
limited; the RateLimit-* headers; the organiser-only creation switch."""

from __future__ import annotations

import logging
import os
import secrets
import socket
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import auth
from tests.api.test_openapi import check_response

BODY = {"type": "ttr-sf", "players": [{"name": "Ada"}, {"name": "Bo"}]}


def app_with(tmp_path: Path, **changes: Any) -> Flask:
    settings = replace(Settings(data_dir=str(tmp_path), webhooks=False, sse_max_seconds=1,
                                sse_heartbeat_seconds=1), **changes)
    app = create_app(settings)
    app.testing = True
    return app


def client_at(app: Flask, address: str = "192.0.2.10") -> FlaskClient:
    client = app.test_client()
    client.environ_base["REMOTE_ADDR"] = address
    return client


def create(client: FlaskClient, headers: dict[str, str] | None = None) -> Any:
    resp = client.post("/v1/games", json=BODY, headers=headers or {})
    check_response(resp, "/v1/games", "post")
    return resp


def game_count(client: FlaskClient) -> int:
    return len(client.get("/v1/games?limit=200").get_json()["games"])


_organiser_addresses = iter(range(1, 255))


def new_organiser(client: FlaskClient) -> tuple[str, str]:
    """A new organiser, made from an address of its own (creating organisers
    is rate-limited like creating games: it must not use up the tests' count)."""
    maker = client_at(client.application, f"198.51.100.{next(_organiser_addresses)}")
    body = maker.post("/v1/organisers", json={"name": "Bay Area Open"}).get_json()
    return body["token"], body["id"]


def tables(n: int) -> list[dict[str, Any]]:
    return [{"players": [{"name": f"T{t}A"}, {"name": f"T{t}B"}]} for t in range(n)]


def test_creation_is_limited_by_default(tmp_path: Path) -> None:
    assert Settings().create_rate_limit == "30/minute"
    client = client_at(app_with(tmp_path))
    codes = [create(client).status_code for _ in range(31)]
    assert codes == [201] * 30 + [429]
    assert game_count(client) == 30


def test_random_bearer_values_share_the_address_bucket(tmp_path: Path) -> None:
    client = client_at(app_with(tmp_path, create_rate_limit="3/minute"))
    codes = [create(client, auth(secrets.token_urlsafe(16))).status_code for _ in range(5)]
    assert codes == [201, 201, 201, 429, 429]
    # another address has a bucket of its own
    assert create(client_at(client.application, "192.0.2.11")).status_code == 201


def test_headers_on_limited_routes_and_the_429_problem(tmp_path: Path) -> None:
    client = client_at(app_with(tmp_path, create_rate_limit="2/hour"))
    first = create(client)
    assert first.status_code == 201
    assert (first.headers["RateLimit-Limit"], first.headers["RateLimit-Remaining"]) == ("2", "1")
    assert 1 <= int(first.headers["RateLimit-Reset"]) <= 3600
    assert create(client).headers["RateLimit-Remaining"] == "0"
    refused = create(client)
    assert refused.status_code == 429 and refused.mimetype == "application/problem+json"
    problem = refused.get_json()
    assert problem["code"] == "rate_limited" and "games created from this address" in problem["detail"]
    assert refused.headers["Retry-After"] == refused.headers["RateLimit-Reset"]
    assert refused.headers["RateLimit-Remaining"] == "0"
    assert game_count(client) == 2  # the refused request wrote nothing
    # routes no policy counted carry no RateLimit headers
    assert "RateLimit-Limit" not in client.get("/v1/game-types").headers


def test_forwarded_for_is_ignored_without_a_trusted_proxy(tmp_path: Path) -> None:
    client = client_at(app_with(tmp_path, create_rate_limit="2/minute"))
    codes = [create(client, {"X-Forwarded-For": f"198.51.100.{i}"}).status_code for i in range(3)]
    assert codes == [201, 201, 429]


def test_forwarded_for_names_the_client_behind_trusted_proxies(tmp_path: Path) -> None:
    app = app_with(tmp_path, create_rate_limit="2/minute", trusted_proxies=1)
    proxy = client_at(app, "10.0.0.1")  # every request arrives from the proxy
    one, two = "203.0.113.5", "203.0.113.6"
    assert [create(proxy, {"X-Forwarded-For": one}).status_code for _ in range(2)] == [201, 201]
    # the client may prepend anything: only the entry the trusted proxy wrote counts
    assert create(proxy, {"X-Forwarded-For": f"198.51.100.9, {one}"}).status_code == 429
    assert create(proxy, {"X-Forwarded-For": two}).status_code == 201
    # two proxies: the second entry from the right is the client
    app2 = app_with(tmp_path / "two", create_rate_limit="1/minute", trusted_proxies=2)
    proxy2 = client_at(app2, "10.0.0.1")
    assert create(proxy2, {"X-Forwarded-For": f"1.1.1.1, {one}, 10.0.0.2"}).status_code == 201
    assert create(proxy2, {"X-Forwarded-For": f"2.2.2.2, {one}, 10.0.0.3"}).status_code == 429
    assert create(proxy2, {"X-Forwarded-For": f"{two}, 10.0.0.2"}).status_code == 201


def test_an_organiser_has_its_own_bucket_and_minting_tokens_buys_nothing(tmp_path: Path) -> None:
    client = client_at(app_with(tmp_path, create_rate_limit="1/minute", organiser_create_rate_limit="3/minute"))
    assert [create(client).status_code for _ in range(2)] == [201, 429]
    token, _ = new_organiser(client)
    made = [create(client, auth(token)) for _ in range(2)]
    assert [r.status_code for r in made] == [201, 201]
    assert made[1].headers["RateLimit-Limit"] == "3"
    # a fresh organiser token from the same address shares the address's organiser count
    other, _ = new_organiser(client)
    assert [create(client, auth(other)).status_code for _ in range(2)] == [201, 429]
    # while the same organiser elsewhere is held by its own count (2 of 3 used)
    elsewhere = client_at(client.application, "192.0.2.99")
    assert [create(elsewhere, auth(token)).status_code for _ in range(2)] == [201, 429]


def test_a_batch_is_capped_and_counts_every_table(tmp_path: Path) -> None:
    assert Settings().max_batch_tables < 100
    client = client_at(app_with(tmp_path, max_batch_tables=3, organiser_create_rate_limit="5/minute"))
    token, _ = new_organiser(client)
    too_big = client.post("/v1/batches", json={"type": "ttr-sf", "tables": tables(4)}, headers=auth(token))
    check_response(too_big, "/v1/batches", "post")
    assert too_big.status_code == 400 and too_big.get_json()["code"] == "invalid_request"
    assert too_big.get_json()["errors"][0]["field"] == "tables" and "1 to 3" in too_big.get_json()["detail"]
    assert game_count(client) == 0
    made = client.post("/v1/batches", json={"type": "ttr-sf", "tables": tables(3)}, headers=auth(token))
    assert made.status_code == 201 and made.headers["RateLimit-Remaining"] == "2"
    again = client.post("/v1/batches", json={"type": "ttr-sf", "tables": tables(3)}, headers=auth(token))
    check_response(again, "/v1/batches", "post")
    assert again.status_code == 429 and game_count(client) == 3


def test_stream_opens_are_limited(tmp_path: Path) -> None:
    client = client_at(app_with(tmp_path, stream_rate_limit="2/minute"))
    game = create(client).get_json()
    path = f"/v1/games/{game['id']}/events/stream"
    for remaining in ("1", "0"):
        resp = client.get(path, buffered=False)
        assert resp.status_code == 200 and resp.headers["RateLimit-Remaining"] == remaining
        resp.close()
    refused = client.get(path)
    assert refused.status_code == 429 and refused.get_json()["code"] == "rate_limited"
    assert "event streams" in refused.get_json()["detail"] and int(refused.headers["Retry-After"]) >= 1
    # other reads are not counted against streams
    assert client.get(f"/v1/games/{game['id']}").status_code == 200


def test_creation_may_require_an_organiser_token(tmp_path: Path) -> None:
    client = client_at(app_with(tmp_path, create_requires_organiser=True))
    token, organiser_id = new_organiser(client)
    for headers in ({}, auth(secrets.token_urlsafe(16)), auth("ot_nobody_secret")):
        refused = create(client, headers)
        assert refused.status_code == 401 and refused.get_json()["code"] == "unauthorized"
    assert "organisers only" in create(client).get_json()["detail"]
    assert game_count(client) == 0
    made = create(client, auth(token))
    assert made.status_code == 201
    assert client.get(f"/v1/games/{made.get_json()['id']}").status_code == 200
    # a seat token is no organiser token either
    seat = made.get_json()["seats"][0]["token"]
    assert create(client, auth(seat)).status_code == 401 and game_count(client) == 1


def test_a_malformed_limit_stops_start_up_naming_its_variable(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="CABLECAR_STREAM_RATE_LIMIT"):
        app_with(tmp_path, stream_rate_limit="lots")


def test_off_turns_a_limit_off(tmp_path: Path) -> None:
    client = client_at(app_with(tmp_path, create_rate_limit="off"))
    resp = create(client)
    assert resp.status_code == 201 and "RateLimit-Limit" not in resp.headers


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_dead_redis_degrades_to_counting_per_worker(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    app = app_with(tmp_path, create_rate_limit="2/minute", redis_url=f"redis://127.0.0.1:{_closed_port()}/0")
    client = client_at(app)
    with caplog.at_level(logging.WARNING, logger="service.api.ratelimit"):
        codes = [create(client).status_code for _ in range(3)]
    assert codes == [201, 201, 429]
    assert any("counting per worker" in r.getMessage() for r in caplog.records)


def test_two_workers_on_one_redis_share_the_count(tmp_path: Path) -> None:
    url = os.environ.get("CABLECAR_TEST_REDIS_URL")
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail("CABLECAR_TEST_REDIS_URL is not set: the test command must start Redis")
        pytest.skip("CABLECAR_TEST_REDIS_URL not set (run scripts/test.sh)")
    # an address of this run alone, so that other runs on the same Redis count elsewhere
    address = f"2001:db8:{secrets.randbelow(65536):x}:{secrets.randbelow(65536):x}::1"
    one = client_at(app_with(tmp_path / "one", create_rate_limit="3/day", redis_url=url), address)
    two = client_at(app_with(tmp_path / "two", create_rate_limit="3/day", redis_url=url), address)
    assert [create(c).status_code for c in (one, two, one)] == [201, 201, 201]
    refused = create(two)
    assert refused.status_code == 429 and refused.headers["RateLimit-Remaining"] == "0"
    assert create(one).status_code == 429


def test_apps_on_one_embedded_store_share_the_limits(tmp_path: Path) -> None:
    # Two apps on one SQLite file, as two workers of `cablecar serve`: the creation limit is the server's.
    one = client_at(app_with(tmp_path, create_rate_limit="3/day"))
    two = client_at(app_with(tmp_path, create_rate_limit="3/day"))
    statuses = [create(c).status_code for c in (one, two, one, two, one)]
    assert statuses == [201, 201, 201, 429, 429]
    assert game_count(one) == 3


def test_apps_on_one_embedded_store_share_the_per_address_stream_places(tmp_path: Path) -> None:
    one_app = app_with(tmp_path, sse_max_streams_per_address=1, stream_rate_limit="off")
    two_app = app_with(tmp_path, sse_max_streams_per_address=1, stream_rate_limit="off")
    game = create(client_at(one_app)).get_json()["id"]
    held = client_at(one_app).get(f"/v1/games/{game}/events/stream", buffered=False)
    assert held.status_code == 200
    refused = client_at(two_app).get(f"/v1/games/{game}/events/stream")
    assert refused.status_code == 503 and refused.get_json()["code"] == "streams_busy"
    assert "on this server" in refused.get_json()["detail"]
    assert client_at(two_app, "192.0.2.11").get(f"/v1/games/{game}/events/stream").status_code == 200
    held.close()  # the place is given back
    assert client_at(two_app).get(f"/v1/games/{game}/events/stream").status_code == 200


def test_the_per_address_stream_cap_is_never_above_the_worker_cap(tmp_path: Path) -> None:
    app = app_with(tmp_path, sse_max_streams=3, sse_max_streams_per_address=20)
    streams = app.extensions["cablecar"].streams
    assert streams.max_per_address == 3
    streams.limit(2)  # a threaded worker: half its threads
    assert (streams.max_streams, streams.max_per_address) == (2, 2)


def test_two_workers_on_one_redis_share_the_per_address_stream_places(tmp_path: Path) -> None:
    url = os.environ.get("CABLECAR_TEST_REDIS_URL")
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail("CABLECAR_TEST_REDIS_URL is not set: the test command must start Redis")
        pytest.skip("CABLECAR_TEST_REDIS_URL not set (run scripts/test.sh)")
    address = f"2001:db8:{secrets.randbelow(65536):x}:{secrets.randbelow(65536):x}::1"
    common = {"sse_max_streams_per_address": 1, "stream_rate_limit": "off", "redis_url": url}
    one_app = app_with(tmp_path / "one", **common)
    two_app = app_with(tmp_path / "one", **common)  # one store, as two workers of one server
    game = create(client_at(one_app, address)).get_json()["id"]
    held = client_at(one_app, address).get(f"/v1/games/{game}/events/stream", buffered=False)
    assert held.status_code == 200
    refused = client_at(two_app, address).get(f"/v1/games/{game}/events/stream")
    assert refused.status_code == 503 and "on this server" in refused.get_json()["detail"]
    held.close()
    assert client_at(two_app, address).get(f"/v1/games/{game}/events/stream").status_code == 200


def test_a_dead_redis_lets_streams_count_per_worker(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    app = app_with(tmp_path, stream_rate_limit="off", sse_max_streams_per_address=1,
                   redis_url=f"redis://127.0.0.1:{_closed_port()}/0")
    game = create(client_at(app)).get_json()["id"]
    with caplog.at_level(logging.WARNING, logger="service.api.sse"):
        held = client_at(app).get(f"/v1/games/{game}/events/stream", buffered=False)
        assert held.status_code == 200
        assert client_at(app).get(f"/v1/games/{game}/events/stream").status_code == 503  # this worker's count
        held.close()
    assert any(r.name == "service.api.sse" and "counting per worker" in r.getMessage() for r in caplog.records)


def test_audits_are_rate_limited_and_reused_per_version(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Issue 25: /audit cost ~66 ms of CPU per call, needed no token and had no limit."""
    import service.usecases.records

    verified: list[str] = []
    real = service.usecases.records.verify_record

    def counted(header: Any, *args: Any, **kwargs: Any) -> Any:
        verified.append(header["game"]["id"])
        return real(header, *args, **kwargs)

    monkeypatch.setattr(service.usecases.records, "verify_record", counted)
    client = client_at(app_with(tmp_path, audit_rate_limit="3/minute"))
    game = create(client).get_json()
    answers = [client.get(f"/v1/games/{game['id']}/audit") for _ in range(4)]
    assert [r.status_code for r in answers] == [200, 200, 200, 429]
    assert answers[3].get_json()["code"] == "rate_limited" and "Retry-After" in answers[3].headers
    assert answers[0].get_json() == answers[2].get_json() and answers[0].get_json()["ok"]
    assert verified == [game["id"]]  # one replay for one version
    # another address has its own count; a new version is audited anew
    other = client_at(client.application, "192.0.2.77")
    seat = game["seats"][0]["token"]
    first = other.get(f"/v1/games/{game['id']}/legal-actions", headers=auth(seat)).get_json()["actions"][0]
    moved = other.post(f"/v1/games/{game['id']}/actions", json=first, headers=auth(seat))
    assert moved.status_code == 201, moved.get_json()
    again = other.get(f"/v1/games/{game['id']}/audit")
    assert again.status_code == 200 and again.get_json()["version"] == moved.get_json()["version"]
    assert len(verified) == 2
