"""Reads through a hot standby that lags (replay paused with
``pg_wal_replay_pause()``) or cannot be reached: never short, never stale,
never out of order, and served by the standby whenever what it holds
answers the read (see :mod:`events.postgres.standby`)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from urllib.parse import urlsplit, urlunsplit

import psycopg
import pytest

from events import Stores
from events.factory import postgres_stores
from events.postgres.standby import REPLAYED_POSITION, StandbyReader
from events.postgres.timeouts import Timeouts
from events.records import NewEvent
from tests.contract.conftest import TEST_SIGNER
from tests.contract.standby import free_port

pytestmark = pytest.mark.postgres

NewId = Callable[[], str]


def ev(n: int) -> NewEvent:
    return NewEvent("tick", {"n": n}, 1, 0)


@pytest.fixture
def primary(postgres_url: str) -> Iterator[Stores]:
    store = postgres_stores(postgres_url, signer=TEST_SIGNER)
    yield store
    store.close()


@pytest.fixture
def paused(standby_url: str) -> Iterator[Callable[[bool], None]]:
    """``paused(True)`` stops the standby's replay, ``paused(False)`` resumes
    it; it is resumed after the test whatever happened."""

    def pause(on: bool) -> None:
        with psycopg.connect(standby_url, autocommit=True) as conn:
            conn.execute("SELECT pg_wal_replay_pause()" if on else "SELECT pg_wal_replay_resume()")

    yield pause
    pause(False)


def replayed(url: str, primary: Stores, seconds: float = 60.0) -> None:
    """Wait until the standby has replayed everything the primary wrote so far, read on the standby itself: a
    reader whose first read found it lagging would fall back and, with a cooldown, never try it again."""
    target = primary.database.wal_position()
    deadline = time.monotonic() + seconds
    with psycopg.connect(url, autocommit=True) as conn:
        while True:
            row = conn.execute(REPLAYED_POSITION).fetchone()
            if row is not None and row[0] is not None and int(row[0]) >= target:
                return
            assert time.monotonic() < deadline, "the standby never replayed the primary's writes"
            time.sleep(0.02)


def reader_on(url: str, primary: Stores, cooldown: float = 0.0, max_wait: float = 0.3) -> StandbyReader:
    replayed(url, primary)
    return StandbyReader(url, primary.events, primary.database.wal_position,  # type: ignore[attr-defined]
                         max_wait=max_wait, cooldown=cooldown, timeouts=Timeouts(connect=2.0))


def caught_up(reader: StandbyReader, game_id: str) -> None:
    """Wait until the standby itself serves the game's whole log (on a busy
    machine it may lag more than the reader waits); then count from zero."""
    for _ in range(500):
        reader.load(game_id)
        if reader.stats.served:
            break
        time.sleep(0.02)
    assert reader.stats.served, "the standby never caught up"
    reader.stats.served = reader.stats.fell_back = reader.stats.waited = 0


def test_a_lagging_standby_never_answers_short(
    primary: Stores, standby_url: str, paused: Callable[[bool], None], new_id: NewId
) -> None:
    gid = new_id()
    primary.events.create_game(gid, "test-game", {}, [ev(0), ev(1), ev(2)], "playing")
    reader = reader_on(standby_url, primary)
    try:
        caught_up(reader, gid)
        paused(True)
        primary.events.append(gid, 3, [ev(3), ev(4)])
        # history the standby holds is a full page: served there, without waiting
        assert [e.seq for e in reader.load(gid, 0, limit=3)] == [1, 2, 3]
        assert reader.stats.served == 1 and reader.stats.fell_back == 0
        # the tail it has not replayed: waited for, then the primary answers
        assert [e.seq for e in reader.load(gid, after=3)] == [4, 5]
        assert reader.stats.waited == 1 and reader.stats.fell_back == 1
        # still behind: the primary answers at once, without a second wait
        assert reader.list_games(game_type="test-game", limit=1).games[0].game_id == gid
        assert reader.stats.fell_back == 2 and reader.stats.waited == 1
        paused(False)
        for _ in range(200):  # the standby serves again once it is found caught up
            assert [e.seq for e in reader.load(gid, after=3)] == [4, 5]
            if reader.stats.served == 2:
                break
            time.sleep(0.02)
        assert reader.stats.served == 2
    finally:
        reader.close()


def test_a_stream_started_on_the_primary_continues_on_the_standby_in_order(
    primary: Stores, standby_url: str, paused: Callable[[bool], None], new_id: NewId
) -> None:
    games = [new_id() for _ in range(3)]
    for gid in games:
        primary.events.create_game(gid, "test-game", {}, [ev(0)], "playing")
    reader = reader_on(standby_url, primary)
    try:
        caught_up(reader, games[-1])
        paused(True)
        for version, gid in enumerate(games * 2, start=1):
            primary.events.append(gid, 1 + (version > len(games)), [ev(version)])
        mine = [e for e in primary.events.read_all(0, 10_000) if e.game_id in games]
        # the reader got the first half from the primary, then asks the lagging standby
        half = mine[len(mine) // 2 - 1].position
        rest = [e for e in reader.read_all(half, 10_000) if e.game_id in games]
        assert rest == mine[len(mine) // 2 :]
        paused(False)
        assert [e for e in reader.read_all(half, 10_000) if e.game_id in games] == rest
    finally:
        reader.close()


def test_after_a_fall_back_the_primary_answers_until_the_cooldown_ends(
    primary: Stores, standby_url: str, paused: Callable[[bool], None], new_id: NewId
) -> None:
    gid = new_id()
    primary.events.create_game(gid, "test-game", {}, [ev(0)], "playing")
    # a first read that found the standby lagging (a busy machine) would start the 60 s cooldown at once:
    # the reader waits longer for it here, so the first read is the standby's
    reader = reader_on(standby_url, primary, cooldown=60.0, max_wait=3.0)
    try:
        caught_up(reader, gid)
        paused(True)
        primary.events.append(gid, 1, [ev(1)])
        assert len(reader.load(gid)) == 2 and reader.stats.fell_back == 1
        paused(False)
        primary.events.append(gid, 2, [ev(2)])
        assert len(reader.load(gid)) == 3
        assert reader.stats.served == 0 and reader.stats.waited == 1  # one wait, then straight to the primary
    finally:
        reader.close()


def test_a_standby_that_cannot_be_reached_leaves_the_reads_to_the_primary(
    primary: Stores, postgres_url: str, new_id: NewId
) -> None:
    gid = new_id()
    primary.events.create_game(gid, "test-game", {}, [ev(0), ev(1)], "playing")
    nowhere = postgres_url.replace(postgres_url.split("@")[-1].split("/")[0], f"127.0.0.1:{free_port()}")
    reader = StandbyReader(nowhere, primary.events, primary.database.wal_position,  # type: ignore[attr-defined]
                           timeouts=Timeouts(connect=1.0))
    try:
        assert [e.seq for e in reader.load(gid)] == [1, 2]
        assert reader.stats.fell_back == 1 and reader.stats.served == 0
    finally:
        reader.close()


def two_hosts(first: str, second: str) -> str:
    """A libpq multi-host URL: ``first``'s host, then ``second``'s, same user and database."""
    a, b = urlsplit(first), urlsplit(second)
    user = f"{a.username}@" if a.username else ""
    return urlunsplit(a._replace(netloc=f"{user}{a.hostname}:{a.port},{b.hostname}:{b.port}"))


def test_multi_host_urls_find_the_primary_and_the_standby_by_themselves(
    postgres_url: str, standby_url: str, new_id: NewId
) -> None:
    # As after a failover: each URL names every server, the one the pool wants not first. Writes must go to
    # the one that takes them (target_session_attrs=read-write), reads to a standby (prefer-standby).
    store = postgres_stores(two_hosts(standby_url, postgres_url), read_url=two_hosts(postgres_url, standby_url),
                          signer=TEST_SIGNER)
    try:
        game_id = new_id()
        store.events.create_game(game_id, "test-game", {}, [ev(0)], "playing")
        store.events.append(game_id, 1, [ev(1)])
        reader = store.reader
        assert isinstance(reader, StandbyReader)
        for connections, standby in ((store.database.connections, False), (reader._standby.connections, True)):
            with connections.connection() as conn:
                assert conn.execute("SELECT pg_is_in_recovery()").fetchone() == (standby,)
        replayed(standby_url, store)
        assert [e.seq for e in reader.load(game_id)] == [1, 2]
    finally:
        store.close()
