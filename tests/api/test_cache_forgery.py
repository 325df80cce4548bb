"""Whoever can write to Redis cannot run code in the service, nor make it show
a state that the event store does not hold: a forged, copied, tampered or
truncated cache entry is ignored (logged, counted in ``/v1/health``) and the
state rebuilt from the store.  Runs on the real test Redis
(``CABLECAR_TEST_REDIS_URL``); every key is a fresh game's."""

from __future__ import annotations

import hashlib
import hmac
import os
import pickle
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.adapters.statecodec import FORMAT
from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import create

pytestmark = pytest.mark.redis


@pytest.fixture
def redis_url() -> str:
    url = os.environ.get("CABLECAR_TEST_REDIS_URL")
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail("CABLECAR_TEST_REDIS_URL must be set in CI")
        pytest.skip("no test Redis")
    return url


@pytest.fixture
def app(tmp_path: Path, redis_url: str) -> Iterator[Flask]:
    # No worker-local layer: every read goes to Redis, as on a worker that never saw the game.
    # No secret key: the embedded default, where the old key was derived from the URLs.
    app = create_app(Settings(data_dir=str(tmp_path), redis_url=redis_url, local_cache_entries=0, webhooks=False))
    app.testing = True
    yield app
    app.extensions["cablecar"].stores.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def _redis(app: Flask) -> Any:
    return app.extensions["cablecar"].cache.redis_client


def _key(game: dict[str, Any]) -> str:
    return f"cablecar:state:{game['id']}"


def _looked_at(client: FlaskClient, game: dict[str, Any]) -> dict[str, Any]:
    """The spectator's view (which also writes the game's state to Redis)."""
    resp = client.get(f"/v1/games/{game['id']}")
    assert resp.status_code == 200, resp.get_json()
    body: dict[str, Any] = resp.get_json()
    return body


def _rejected(app: Flask) -> int:
    return int(app.extensions["cablecar"].cache.stats.rejected)


class RunsCode:
    """Unpickling this creates ``marker``: what a shell command would do, harmlessly."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[Any, ...]:
        return (open, (str(self.marker), "w"))


def test_a_pickle_in_redis_is_never_run(client: FlaskClient, app: Flask, redis_url: str, tmp_path: Path) -> None:
    game = create(client, players=3, seed="forged")
    seen = _looked_at(client, game)
    version = int(seen["version"])
    marker = tmp_path / "pwned"
    body = pickle.dumps(RunsCode(marker))
    version_part = f"{version:08d}".encode()
    # Signed as the old entries were, with the key an attacker could derive from the URLs
    old_key = hashlib.sha256(f"cablecar-cache:None:{redis_url}".encode()).digest()
    forgeries = [
        version_part + hmac.new(old_key, version_part + body, hashlib.sha256).digest() + body,
        version_part + b"%02d" % FORMAT + bytes(32) + body,  # today's layout, a made-up signature
    ]
    for forged in forgeries:
        _redis(app).set(_key(game), forged)
        assert _looked_at(client, game) == seen
        assert not marker.exists(), "a cached pickle was run"
    assert _rejected(app) == len(forgeries)
    health = client.get("/v1/health").get_json()
    assert f"{len(forgeries)} forged or unreadable entries ignored" in health["cache"]["detail"]


def test_an_entry_copied_from_another_game_at_the_same_version_is_ignored(client: FlaskClient, app: Flask) -> None:
    # a deal whose face-up row shows three ferries is redealt (more events): the copy needs two games at one
    # version, so games are made until two are (nearly every deal has no redeal: the first two, as a rule)
    made: dict[int, dict[str, Any]] = {}
    for i in range(20):
        game = create(client, players=3, seed=f"copy-{i}")
        if game["version"] in made:
            first, second = made[game["version"]], game
            break
        made[game["version"]] = game
    else:
        pytest.fail(f"no two of 20 new games at one version: {sorted(made)}")
    first_seen, second_seen = _looked_at(client, first), _looked_at(client, second)
    assert first_seen["version"] == second_seen["version"] and first_seen["face_up"] != second_seen["face_up"]
    redis = _redis(app)
    redis.set(_key(second), redis.get(_key(first)))
    assert _looked_at(client, second) == second_seen
    assert _rejected(app) == 1
    # the copy was dropped and the genuine state written back in its place
    assert _looked_at(client, second) == second_seen and _rejected(app) == 1
    assert redis.get(_key(second)) != redis.get(_key(first))


def test_a_tampered_or_truncated_entry_is_ignored(client: FlaskClient, app: Flask) -> None:
    game = create(client, players=2, seed="tampered")
    seen = _looked_at(client, game)
    redis = _redis(app)
    genuine: bytes = redis.get(_key(game))
    at = genuine.index(b'"P0"') + 2  # a player's name inside the state
    tampered = [
        genuine[:at] + b"X" + genuine[at + 1 :],  # one byte of the state
        genuine[:-1] + bytes([genuine[-1] ^ 1]),  # the last byte
        genuine[:7] + bytes([genuine[7] ^ 1]) + genuine[8:],  # the version
        genuine[:10] + bytes([genuine[10] ^ 1]) + genuine[11:],  # the signature
        genuine[: len(genuine) // 2],  # truncated
        genuine[:20],  # shorter than a header
    ]
    for n, entry in enumerate(tampered, 1):
        redis.set(_key(game), entry)
        assert _looked_at(client, game) == seen
        assert _rejected(app) == n
    assert redis.get(_key(game)) == genuine  # rebuilt from the store and written back


def test_a_forged_entry_ahead_of_the_game_does_not_block_the_cache(client: FlaskClient, app: Flask) -> None:
    """Writes keep only newer versions: a forged entry claiming a far version
    would shut the game out of the cache if it were not dropped when rejected."""
    game = create(client, players=2, seed="ahead")
    seen = _looked_at(client, game)
    redis = _redis(app)
    mine = f"{seen['version']:08d}{FORMAT:02d}".encode()
    redis.set(_key(game), b"99999999" + b"%02d" % FORMAT + bytes(32) + b'["ttr-sf",[],[]]')
    assert _looked_at(client, game) == seen and _rejected(app) == 1
    assert redis.get(_key(game)).startswith(mine)
    # claiming another format (as another release would) it is not ours to judge, but no obstacle
    redis.set(_key(game), b"99999999" + b"99" + bytes(32) + b"[]")
    assert _looked_at(client, game) == seen and _rejected(app) == 1
    assert redis.get(_key(game)).startswith(mine)
