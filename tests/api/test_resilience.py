"""Health, an unreachable store (503, nothing written), a dead Redis (degraded
but correct), rate limiting (429 with Retry-After), and the cache itself."""

from __future__ import annotations

import dataclasses
import json
import socket
import uuid
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest

import events
from domain.clocks import NO_TIME_CONTROL, Clocks
from domain.core import GameConfig, replay
from domain.registry import GAMES
from events import Stores
from events.records import StoreUnavailable
from service.adapters.cache import InProcessCache, LayeredCache, RedisCache
from service.adapters.lru import LRU
from service.adapters.statecodec import Snapshot
from service.api.app import create_app
from service.config import Settings
from service.usecases.loaded import Loaded
from service.usecases.queries import LEGAL_MEMO_MIN, GameQueries
from tests.api.conftest import act, create, finish_setup, view

#: what a store holds beside its life: its capabilities and its database
PARTS = ("events", "tournaments", "deliveries", "deadlines", "bot_turns", "quarantine", "log", "tickets", "counts",
         "database")


class _Flaky:
    """Wraps a real capability (or database); when ``store.down`` every call raises StoreUnavailable."""

    def __init__(self, inner: Any, store: FlakyStore) -> None:
        self.inner = inner
        self.store = store

    def __getattr__(self, name: str) -> Any:
        attr = getattr(self.inner, name)
        if not callable(attr):
            return attr

        def call(*args: Any, **kwargs: Any) -> Any:
            if self.store.down and name != "close":
                raise StoreUnavailable("connection refused (test)")
            return attr(*args, **kwargs)

        return call


class FlakyStore:
    """Wraps a real store (``stores``: the one to hand to the service); when ``down`` every call raises
    StoreUnavailable."""

    def __init__(self, inner: Stores) -> None:
        self.inner = inner
        self.down = False
        flaky = {name: _Flaky(getattr(inner, name), self) for name in PARTS if getattr(inner, name) is not None}
        reader = flaky["events"] if inner.reader is inner.events else _Flaky(inner.reader, self)
        self.stores = dataclasses.replace(inner, reader=reader, **flaky)


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_store_down_gives_503_and_writes_nothing(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    store = FlakyStore(events.open_store(None, tmp_path))
    app = create_app(Settings(data_dir=str(tmp_path)), stores=store.stores)
    client = app.test_client()
    game = create(client)
    v = finish_setup(client, game)
    store.down = True
    health = client.get("/v1/health")
    assert health.status_code == 503 and health.get_json()["status"] == "unavailable"
    # why is logged, not told to the public (a real error names the database's address)
    assert "connection refused (test)" not in health.get_data(as_text=True)
    assert "connection refused (test)" in caplog.text
    resp = act(client, game, v["active_seats"][0], {"type": "draw_card", "source": "deck"})
    assert resp.status_code == 503 and resp.get_json()["code"] == "unavailable"
    assert resp.headers["Retry-After"]
    assert client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "a"}, {"name": "b"}]}
                       ).status_code == 503
    store.down = False
    assert view(client, game)["version"] == v["version"]
    assert client.get("/v1/health").status_code == 200


def test_dead_redis_degrades_but_answers_correctly(tmp_path: Path) -> None:
    url = f"redis://127.0.0.1:{_closed_port()}/0"
    app = create_app(Settings(data_dir=str(tmp_path), redis_url=url))
    client = app.test_client()
    health = client.get("/v1/health").get_json()
    assert health["status"] == "degraded" and health["cache"]["backend"] == "redis"
    assert health["cache"]["ok"] is False
    assert "127.0.0.1" not in json.dumps(health)
    game = create(client)
    v = finish_setup(client, game)
    resp = act(client, game, v["active_seats"][0], {"type": "draw_card", "source": "deck"})
    assert resp.status_code == 201
    assert view(client, game)["version"] == resp.get_json()["version"]


def test_rate_limit(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=str(tmp_path), rate_limit=3, rate_limit_window=60))
    client = app.test_client()
    codes = [client.get("/v1/games-types").status_code for _ in range(4)]
    assert codes == [200, 200, 200, 429]
    resp = client.get("/v1/games-types")
    assert resp.get_json()["code"] == "rate_limited" and int(resp.headers["Retry-After"]) >= 1
    assert client.get("/v1/health").status_code == 200  # health is never limited


def test_in_process_cache_keeps_newest_and_evicts() -> None:
    cache = InProcessCache(max_entries=2)
    cache.put("a", 2, "two")
    cache.put("a", 1, "one")
    assert cache.get("a") == (2, "two")
    cache.put("b", 1, "b1")
    cache.put("c", 1, "c1")
    assert cache.get("a") is None and cache.get("c") == (1, "c1")


class CountingCache(InProcessCache):
    """A shared layer that counts the reads it answers."""

    def __init__(self) -> None:
        super().__init__()
        self.reads = 0

    def get(self, game_id: str, want: int | None = None) -> tuple[int, object] | None:
        self.reads += 1
        return super().get(game_id, want)


def test_layered_cache_answers_from_the_process_when_it_holds_the_wanted_version() -> None:
    shared = CountingCache()
    one, two = LayeredCache(shared, InProcessCache(4)), LayeredCache(shared, InProcessCache(4))
    one.put("g", 1, "s1")
    assert two.get_local("g") is None
    assert two.get("g", 1) == (1, "s1") and shared.reads == 1
    assert two.get("g", 1) == (1, "s1") and shared.reads == 1  # now held locally: no shared read
    one.put("g", 2, "s2")
    assert two.get("g", 2) == (2, "s2") and shared.reads == 2  # the wanted version is newer: shared read
    assert two.get_local("g") == (2, "s2")
    assert two.get("g") == (2, "s2") and shared.reads == 3  # no wanted version: always asks for the newest
    one.local.put("h", 5, "mine")
    assert one.get("h", 6) == (5, "mine")  # nothing newer shared: the local snapshot
    assert one.stats is shared.stats and one.health().ok


def test_layered_cache_shares_a_snapshot_every_few_versions() -> None:
    shared = InProcessCache()
    one, two = LayeredCache(shared, InProcessCache(4), share_every=4), LayeredCache(shared, InProcessCache(4))
    one.put("g", 1, "s1")  # not held before: shared
    assert shared.get("g") == (1, "s1")
    for v in (2, 3):
        one.put("g", v, f"s{v}")  # same block of 4: local only
    assert shared.get("g") == (1, "s1") and one.get_local("g") == (3, "s3")
    one.put("g", 5, "s5")  # into the next block: shared
    assert shared.get("g") == (5, "s5")
    assert two.get("g", 6) == (5, "s5")  # another worker gets the snapshot (and replays the tail)
    two.put("g", 6, "s6")  # share_every=1: every version
    assert shared.get("g") == (6, "s6")


def test_a_weighted_lru_keeps_its_values_within_its_bound() -> None:
    memo: LRU[tuple[str, int, int], list[str]] = LRU(10, len)
    memo.put(("g", 2, 0), list("abcd"))
    memo.put(("g", 3, 0), list("efghi"))
    assert memo.get(("g", 2, 0)) == list("abcd")  # 9 held; g2 now the most recent
    memo.put(("g", 4, 1), list("jklm"))  # 13 > 10: the oldest (g3) goes
    assert memo.get(("g", 3, 0)) is None
    assert memo.get(("g", 2, 0)) == list("abcd") and memo.get(("g", 4, 1)) == list("jklm")
    memo.put(("h", 1, 0), list("x" * 11))  # longer than the bound: not kept
    assert memo.get(("h", 1, 0)) is None
    memo.put(("g", 2, 0), list("z"), replace=lambda old: False)  # the kept entry stays
    assert memo.get(("g", 2, 0)) == list("abcd")


def test_the_legal_action_memo_keeps_only_long_lists() -> None:
    computed: list[int] = []

    def legal_actions(state: int, seat: int) -> list[str]:
        computed.append(state)
        return ["a"] * state

    definition = SimpleNamespace(sendable=legal_actions)
    queries = GameQueries(event_log=None, cache=None)  # type: ignore[arg-type]  # the memo needs neither
    record = SimpleNamespace(game_id="g")
    clocks = Clocks(NO_TIME_CONTROL, (), 0.0)  # a game that is not waiting for a scheduled start
    short = Loaded(record, definition, 2, 1, clocks)  # type: ignore[arg-type]
    long = Loaded(record, definition, LEGAL_MEMO_MIN, 2, clocks)  # type: ignore[arg-type]
    for loaded in (short, short, long, long):
        assert len(queries.legal_actions(loaded, 0)) == loaded.state
    assert computed == [2, 2, LEGAL_MEMO_MIN]  # the short list computed each time, the long one kept


def _snapshot(game: Any, players: tuple[str, ...], seed: str) -> Snapshot:
    """What the cache keeps of a new game: its state and its clocks."""
    state = replay(game, game.setup(GameConfig(players=players, seed=seed)))
    return Snapshot(state, Clocks.start(NO_TIME_CONTROL, len(players), game.moment(state, 0.0)))


@pytest.mark.redis
def test_redis_cache_signed_entries(tmp_path: Path) -> None:
    import os

    url = os.environ.get("CABLECAR_TEST_REDIS_URL")
    if not url:
        if os.environ.get("CI") == "true":
            pytest.fail("CABLECAR_TEST_REDIS_URL must be set in CI")
        pytest.skip("no test Redis")
    # the cache holds states of registered games only (data, never pickles)
    ttr = GAMES["ttr-sf"]
    two = _snapshot(ttr, ("a", "b"), "two")
    three = _snapshot(ttr, ("a", "b", "c"), "three")
    cache = RedisCache(url, b"k1")
    key = f"test-{uuid.uuid4().hex}"  # the test Redis may be shared by other checkouts
    cache.put(key, 3, three)
    cache.put(key, 2, two)  # older: ignored
    assert cache.get(key) == (3, three)
    other = RedisCache(url, b"another key")
    assert other.get(key) is None  # a foreign or tampered entry is never used
    assert cache.health().ok
    # a game found damaged is forgotten by every layer: the next read rebuilds it from the store
    layered = LayeredCache(cache, InProcessCache())
    layered.put(key, 4, three)
    layered.forget(key)
    assert layered.get(key) is None and cache.get(key) is None and layered.get_local(key) is None
