"""The service with ``CABLECAR_READ_DATABASE_URL``: event pages, listings,
exports and audits come from a hot standby (fed by streaming replication
from the test server), answers match the primary's even while the standby
lags, and the game rows (versions, tokens) never come from it."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import psycopg
import pytest
from flask import Flask
from flask.testing import FlaskClient

from events.postgres.standby import StandbyReader
from service.adapters.signing_keys import write_key_file
from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import act, auth, create, legal
from tests.contract.conftest import TEST_SIGNER, postgres_url, standby_url  # noqa: F401 - fixtures

pytestmark = pytest.mark.postgres


@pytest.fixture
def replica_app(tmp_path: Path, postgres_url: str, standby_url: str) -> Iterator[Flask]:  # noqa: F811
    key_file = tmp_path / "signing-key.json"
    write_key_file(key_file, TEST_SIGNER)  # the key the session's stores sign with
    settings = Settings(
        data_dir=str(tmp_path), database_url=postgres_url, read_database_url=standby_url,
        secret_key="ab" * 32, webhooks=False, timeout_sweep_seconds=0, signing_key_file=str(key_file),
    )
    app = create_app(settings)
    app.testing = True
    yield app
    app.extensions["cablecar"].stores.close()


def _pause(url: str, on: bool) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("SELECT pg_wal_replay_pause()" if on else "SELECT pg_wal_replay_resume()")


def _events(client: FlaskClient, game_id: str, token: str, after: int = 0) -> list[int]:
    resp = client.get(f"/v1/games/{game_id}/events?after={after}&limit=500", headers=auth(token))
    assert resp.status_code == 200, resp.get_json()
    return [e["seq"] for e in resp.get_json()["events"]]


def test_pages_and_listings_come_from_the_standby_and_never_lag(
    replica_app: Flask, standby_url: str  # noqa: F811
) -> None:
    client = replica_app.test_client()
    reader = replica_app.extensions["cablecar"].queries.reader
    assert isinstance(reader, StandbyReader)
    game = create(client)
    token = game["seats"][0]["token"]
    for _ in range(500):  # on a busy machine the standby may lag more than a read waits
        assert _events(client, game["id"], token)  # the opening
        if reader.stats.served:
            break
        time.sleep(0.02)
    assert reader.stats.served >= 1
    _pause(standby_url, True)
    try:
        seat = client.get(f"/v1/games/{game['id']}").get_json()["active_seats"][0]
        resp = act(client, game, seat, legal(client, game, seat)[0])
        assert resp.status_code == 201, resp.get_json()
        version = resp.get_json()["version"]
        # the standby has not replayed the action: the page still ends with it
        assert _events(client, game["id"], token)[-1] == version
        listed = client.get("/v1/games?limit=200").get_json()["games"]
        assert game["id"] in [g["id"] for g in listed]
        assert reader.stats.fell_back >= 1
    finally:
        _pause(standby_url, False)
