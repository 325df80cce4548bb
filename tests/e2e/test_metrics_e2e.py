"""``/metrics`` under gunicorn: one listener on the operator's address sums
every worker's counts (prometheus_client's multiprocess mode), nothing of it
is on the public port, and JSON log lines carry the request id."""

from __future__ import annotations

import json
import urllib.request
import uuid
from pathlib import Path

import pytest
import requests

from tests.e2e.conftest import free_port, start_gunicorn, stop

pytestmark = pytest.mark.e2e


def scrape(address: str) -> dict[str, float]:
    """Every sample of the listener's answer, by its name and labels as written."""
    with urllib.request.urlopen(f"http://{address}/metrics", timeout=5) as resp:
        text = resp.read().decode()
    samples: dict[str, float] = {}
    for line in text.splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            samples[name] = float(value)
    return samples


def total(samples: dict[str, float], name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels``."""
    found = 0.0
    for key, value in samples.items():
        metric, _, rest = key.partition("{")
        if metric == name and all(f'{k}="{v}"' in rest for k, v in labels.items()):
            found += value
    return found


def test_metrics_sum_every_worker_and_logs_are_json(
    tmp_path: Path, pg_url: str, redis_url: str
) -> None:
    address = f"127.0.0.1:{free_port()}"
    server = start_gunicorn(tmp_path, {
        "DATABASE_URL": pg_url, "REDIS_URL": redis_url,
        "CABLECAR_SECRET_KEY": "e2e-secret-key-0123456789abcdef0123456789abcdef",
        "CABLECAR_METRICS_ADDRESS": address, "CABLECAR_LOG_FORMAT": "json", "CABLECAR_WORKERS": "2",
    }, workers=2)
    try:
        before = scrape(address)
        route = "/v1/games/<game_id>"
        sent = 40
        with requests.Session() as http:
            game = http.post(f"{server.url}/v1/games",
                             json={"type": "ttr-sf", "players": [{"name": "ada"}, {"name": "bo"}]}).json()
            for _ in range(sent):  # new connections: gunicorn's workers share them out
                assert requests.get(f"{server.url}/v1/games/{game['id']}", timeout=5).status_code == 200
            rid = f"e2e-{uuid.uuid4().hex}"
            missing = http.get(f"{server.url}/v1/games/nope-{uuid.uuid4().hex[:8]}", headers={"X-Request-Id": rid})
            assert missing.status_code == 404
            assert http.get(f"{server.url}/metrics").status_code == 404  # not on the public port
        after = scrape(address)
        assert total(after, "cablecar_http_requests_total", route=route, status="200") - \
            total(before, "cablecar_http_requests_total", route=route, status="200") == sent
        assert total(after, "cablecar_http_requests_total", route="/v1/games", status="201") >= 1
        assert total(after, "cablecar_problems_total", code="not_found") >= 1
        assert total(after, "cablecar_http_request_duration_seconds_count", route=route) >= sent
        assert total(after, "cablecar_db_write_duration_seconds_count") >= 1  # the creation
        assert total(after, "cablecar_cache_lookups_total") >= sent
    finally:
        stop(server)
    lines = [json.loads(line) for line in server.log.read_text().splitlines() if line.startswith("{")]
    access = [line for line in lines if line.get("logger") == "gunicorn.access"]
    assert access and all({"time", "level", "method", "path", "status", "request_id"} <= line.keys() for line in access)
    assert any(line["request_id"] == rid and line["status"] == 404 for line in access), access[-3:]
