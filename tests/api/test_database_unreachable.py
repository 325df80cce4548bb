"""A host cut off from its database answers `503 unavailable` within a bound,
its health says so, and it serves again once the database answers.

The database is behind a TCP proxy that can go silent: connections stay open
and new ones are accepted, but nothing is passed on, as when the primary is
partitioned away or frozen (``SIGSTOP``): the case that, without client-side
bounds, hangs a request for minutes (issue 39)."""

from __future__ import annotations

import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from flask import Flask

from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import auth, finish_setup, legal
from tests.contract.conftest import create_database, drop_database, postgres_admin_url
from tests.contract.test_availability import TcpProxy, through

pytestmark = pytest.mark.postgres

#: the settings under test, small so that the test is quick
SETTINGS = {"db_connect_timeout": 2.0, "db_statement_timeout": 1.0, "db_keepalive_seconds": 4.0}


@pytest.fixture
def app_and_proxy(tmp_path: Path) -> Iterator[tuple[Flask, TcpProxy]]:
    from service.adapters.signing_keys import key_path, load_server_keys

    admin = postgres_admin_url()
    url = create_database(admin, "cc_silent")
    parts = urlsplit(url)
    proxy = TcpProxy((parts.hostname or "127.0.0.1", parts.port or 5432))
    proxy.up()
    embedded = Settings(data_dir=str(tmp_path))
    load_server_keys(embedded)  # makes the key file the server then reads, as `cablecar keys generate` would
    settings = Settings(data_dir=str(tmp_path), webhooks=False, database_url=through(proxy, url),
                        secret_key="k" * 64, signing_key_file=str(key_path(embedded)), db_pool_size=3,
                        **SETTINGS)  # type: ignore[arg-type]
    app = create_app(settings)
    try:
        yield app, proxy
    finally:
        proxy.down()
        app.extensions["cablecar"].stores.close()
        drop_database(admin, url)


def test_a_host_cut_off_from_its_database_answers_503_quickly_and_recovers(
    app_and_proxy: tuple[Flask, TcpProxy],
) -> None:
    app, proxy = app_and_proxy
    client = app.test_client()
    game = client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "ada"}, {"name": "bo"}]}).get_json()
    playing = finish_setup(client, game)
    seat = playing["active_seats"][0]
    action = {**legal(client, game, seat)[0], "expected_version": playing["version"]}
    headers = {**auth(game["seats"][seat]["token"]), "Idempotency-Key": str(uuid.uuid4())}
    assert client.get("/v1/health").status_code == 200

    proxy.silent.set()
    bound = SETTINGS["db_statement_timeout"] + 3 * SETTINGS["db_connect_timeout"] + 1.5
    t0 = time.monotonic()
    health = client.get("/v1/health")
    assert health.status_code == 503 and health.get_json()["status"] == "unavailable", health.get_json()
    assert time.monotonic() - t0 < 2 * SETTINGS["db_connect_timeout"] + 1.5
    for _ in range(2):
        t0 = time.monotonic()
        refused = client.post(f"/v1/games/{game['id']}/actions", json=action, headers=headers)
        assert refused.status_code == 503 and refused.get_json()["code"] == "unavailable", refused.get_json()
        assert refused.headers.get("Retry-After")
        assert time.monotonic() - t0 < bound

    proxy.silent.clear()
    proxy.down()  # the silent connections go, as when the link comes back and the peer resets them
    proxy.up()
    deadline = time.monotonic() + 20
    while (retry := client.post(f"/v1/games/{game['id']}/actions", json=action, headers=headers)).status_code == 503:
        assert time.monotonic() < deadline, retry.get_json()
        time.sleep(0.2)
    assert retry.status_code == 201, retry.get_json()
    assert client.get("/v1/health").status_code == 200
