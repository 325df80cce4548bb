"""The counters behind ``/metrics`` move as requests are served (the
process's own registry here; tests/e2e/test_metrics_e2e.py reads them through
the listener under gunicorn)."""

from __future__ import annotations

from flask.testing import FlaskClient
from prometheus_client import REGISTRY, generate_latest

from service.serving.metrics_listener import parse_address, registry
from tests.api.conftest import auth, create, finish_setup, legal


def sample(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


def test_requests_refusals_and_cache_lookups_are_counted(client: FlaskClient) -> None:
    route = "/v1/games/<game_id>/actions"
    game = create(client)
    playing = finish_setup(client, game)
    seat = playing["active_seats"][0]
    action = {**legal(client, game, seat)[0], "expected_version": playing["version"]}
    before = {
        "accepted": sample("cablecar_http_requests_total", method="POST", route=route, status="201"),
        "stale": sample("cablecar_http_requests_total", method="POST", route=route, status="409"),
        "conflicts": sample("cablecar_problems_total", code="stale_version"),
        "timed": sample("cablecar_http_request_duration_seconds_count", method="POST", route=route),
        "unmatched": sample("cablecar_http_requests_total", method="GET", route="unmatched", status="404"),
        "hits": sample("cablecar_cache_lookups_total", outcome="hits"),
    }
    headers = auth(game["seats"][seat]["token"])
    assert client.post(f"/v1/games/{game['id']}/actions", json=action, headers=headers).status_code == 201
    assert client.post(f"/v1/games/{game['id']}/actions", json=action, headers=headers).status_code == 409
    assert client.get("/v1/no/such/path/at/all").status_code == 404
    assert client.get(f"/v1/games/{game['id']}").status_code == 200

    assert sample("cablecar_http_requests_total", method="POST", route=route, status="201") == before["accepted"] + 1
    assert sample("cablecar_http_requests_total", method="POST", route=route, status="409") == before["stale"] + 1
    assert sample("cablecar_problems_total", code="stale_version") == before["conflicts"] + 1
    assert sample("cablecar_http_request_duration_seconds_count", method="POST", route=route) == before["timed"] + 2
    assert sample("cablecar_http_requests_total", method="GET", route="unmatched", status="404") == \
        before["unmatched"] + 1
    assert sample("cablecar_cache_lookups_total", outcome="hits") > before["hits"]
    # the exposition the listener serves (one process: its own registry)
    assert b"cablecar_http_requests_total" in generate_latest(registry())


def test_a_metrics_address_must_be_host_and_port() -> None:
    assert parse_address("127.0.0.1:9108") == ("127.0.0.1", 9108)
    assert parse_address("[::1]:9108") == ("::1", 9108)
    for wrong in ("9108", "host:", "host:99999", ":9108"):
        try:
            parse_address(wrong)
        except ValueError as e:
            assert "CABLECAR_METRICS_ADDRESS" in str(e)
        else:
            raise AssertionError(f"{wrong!r} was accepted")
