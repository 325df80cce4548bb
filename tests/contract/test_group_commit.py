"""Group commit (events/postgres/groupcommit.py): the appends of concurrent
callers in one process sent as one transaction, each with its own answer.

Batches are made deterministic by holding the one lead: a first statement
waits on a row lock this test holds, the statements sent meanwhile queue
behind it and go as the next batch when the lock is let go."""

from __future__ import annotations

import threading
import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any

import psycopg
import pytest
from psycopg.adapt import Dumper

from events.postgres import PostgresStore
from events.postgres.connection import PostgresConnections
from events.postgres.groupcommit import GroupCommit
from events.store import AppendResult, NewEvent, OutcomeUnknown, StaleVersion
from tests.contract.conftest import TEST_SIGNER

pytestmark = pytest.mark.postgres

XACT = "SELECT pg_current_xact_id()::text::bigint"


@pytest.fixture
def probe(postgres_url: str) -> Iterator[str]:
    """A table of the test's own, with one row to hold a lock on."""
    name = f"gc_probe_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f"CREATE TABLE {name} (v integer PRIMARY KEY, xact bigint)")
        conn.execute(f"INSERT INTO {name} VALUES (0, 0)")
    yield name
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f"DROP TABLE {name}")


@pytest.fixture
def connections(postgres_url: str) -> Iterator[PostgresConnections]:
    db = PostgresConnections(postgres_url, min_size=1, max_size=4)
    yield db
    db.close()


class Held:
    """Row 0 of the probe locked from a connection of the test's own."""

    def __init__(self, url: str, table: str) -> None:
        self.conn = psycopg.connect(url)
        self.conn.execute(f"SELECT v FROM {table} WHERE v = 0 FOR UPDATE")

    def release(self) -> None:
        self.conn.rollback()
        self.conn.close()


class Caller(threading.Thread):
    """One caller of ``fetch_one``: its row or its error."""

    def __init__(self, call: Callable[[], Any]) -> None:
        super().__init__(daemon=True)
        self.call = call
        self.result: Any = None
        self.error: BaseException | None = None
        self.start()

    def run(self) -> None:
        try:
            self.result = self.call()
        except BaseException as e:  # noqa: BLE001 - the test inspects it
            self.error = e

    def outcome(self) -> Any:
        self.join(timeout=30)
        assert not self.is_alive(), "a caller never got its answer"
        return self.result


def wait_until(check: Callable[[], bool], what: str) -> None:
    deadline = time.monotonic() + 10
    while not check():
        assert time.monotonic() < deadline, f"gave up waiting until {what}"
        time.sleep(0.005)


def wait_queued(group: GroupCommit, n: int) -> None:
    wait_until(lambda: len(group._queue) == n, f"{n} statements queue")


def queue_behind_lock(group: GroupCommit, url: str, table: str,
                      statements: list[tuple[str, tuple[Any, ...], str]]) -> tuple[Caller, list[Caller]]:
    """The lead held by a statement waiting on the probe's row lock, and
    ``statements`` (sql, params, game id) queued behind it in this order;
    then the lock let go: they go as one batch."""
    held = Held(url, table)
    try:
        first = Caller(lambda: group.fetch_one(f"UPDATE {table} SET xact = 1 WHERE v = 0 RETURNING v", (), "a"))
        wait_until(lambda: group._leaders == 1, "the first statement leads")
        time.sleep(0.05)  # it is in flight, waiting on the lock
        callers = []
        for sql, params, game in statements:
            callers.append(Caller(lambda sql=sql, params=params, game=game: group.fetch_one(sql, params, game)))
            wait_queued(group, len(callers))
    finally:
        held.release()
    return first, callers


def insert(table: str, v: int) -> tuple[str, tuple[Any, ...], str]:
    return (f"INSERT INTO {table} VALUES (%s, pg_current_xact_id()::text::bigint) RETURNING v, xact", (v,), f"g{v}")


def rows(url: str, table: str) -> dict[int, int]:
    with psycopg.connect(url) as conn:
        return dict(conn.execute(f"SELECT v, xact FROM {table} WHERE v > 0").fetchall())


def test_statements_sent_meanwhile_share_one_transaction(
    connections: PostgresConnections, postgres_url: str, probe: str
) -> None:
    group = GroupCommit(connections, in_flight=1)
    first, callers = queue_behind_lock(group, postgres_url, probe, [insert(probe, v) for v in (1, 2, 3)])
    assert first.outcome() == (0,)
    answers = [c.outcome() for c in callers]
    assert [v for v, _ in answers] == [1, 2, 3]
    assert len({xact for _, xact in answers}) == 1, "the three were not one transaction"
    assert rows(postgres_url, probe) == {v: xact for v, xact in answers}
    assert group._leaders == 0 and not group._queue


def test_a_failing_statement_leaves_its_batch_mates_each_written_once(
    connections: PostgresConnections, postgres_url: str, probe: str
) -> None:
    group = GroupCommit(connections, in_flight=1)
    failing = (f"INSERT INTO {probe} VALUES (%s, 1 / 0) RETURNING v, xact", (2,), "g2")
    first, callers = queue_behind_lock(group, postgres_url, probe, [insert(probe, 1), failing, insert(probe, 3)])
    first.outcome()
    one, two, three = callers
    assert one.outcome()[0] == 1 and three.outcome()[0] == 3
    two.outcome()
    assert two.error is not None and not isinstance(two.error, OutcomeUnknown)
    written = rows(postgres_url, probe)
    assert sorted(written) == [1, 3]
    assert written[1] != written[3], "after a failure each goes alone"


def test_a_broken_link_leaves_every_append_of_the_batch_unknown(
    connections: PostgresConnections, postgres_url: str, probe: str
) -> None:
    group = GroupCommit(connections, in_flight=1)
    slow = ("SELECT pg_sleep(5), 0", (), "g0")
    first, callers = queue_behind_lock(group, postgres_url, probe, [insert(probe, 1), slow, insert(probe, 2)])
    first.outcome()
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        wait_until(lambda: bool(admin.execute(
            "SELECT 1 FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(5)%'").fetchall()), "the batch runs")
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE query LIKE 'SELECT pg_sleep(5)%'")
    for caller in callers:
        caller.outcome()
        assert isinstance(caller.error, OutcomeUnknown), caller.error
    assert rows(postgres_url, probe) == {}  # in truth nothing: the transaction never committed
    assert group.fetch_one("SELECT 7", (), "g7") == (7,)  # and the next append goes


class Interrupt(BaseException):
    """What a timeout or a stopping worker raises inside a caller."""


class Interrupting:
    pass


class InterruptingDumper(Dumper):
    def dump(self, obj: Any) -> bytes:
        raise Interrupt("stop")


def test_an_interrupted_leader_strands_no_one(postgres_url: str, probe: str) -> None:
    psycopg.adapters.register_dumper(Interrupting, InterruptingDumper)  # a class of this test's only
    connections = PostgresConnections(postgres_url, min_size=1, max_size=4)
    try:
        group = GroupCommit(connections, in_flight=1)
        first, callers = queue_behind_lock(
            group, postgres_url, probe,
            [("SELECT %s::text, 1", (Interrupting(),), "g0"), insert(probe, 1), insert(probe, 2)],
        )
        first.outcome()
        for caller in callers:
            caller.outcome()
        assert isinstance(callers[0].error, Interrupt)  # the caller that led got the interruption
        assert all(isinstance(c.error, OutcomeUnknown) for c in callers[1:])
        assert rows(postgres_url, probe) == {}
        assert group._leaders == 0 and not group._queue
        assert group.fetch_one("SELECT 7", (), "g7") == (7,)
    finally:
        connections.close()


def test_batches_claim_rows_in_one_order(postgres_url: str, probe: str) -> None:
    """Two processes' batches over the same two rows, queued in opposite orders: sorted by game id they
    wait for each other instead of deadlocking (a deadlock would abort one, whose two would go alone)."""
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f"INSERT INTO {probe} VALUES (10, 0), (11, 0)")
    claim = f"UPDATE {probe} SET xact = xact + 1 WHERE v = %s RETURNING pg_current_xact_id()::text, pg_sleep(0.3)"
    pools = [PostgresConnections(postgres_url, min_size=1, max_size=2) for _ in range(2)]
    held = Held(postgres_url, probe)
    try:
        groups = [GroupCommit(pool, in_flight=1) for pool in pools]
        firsts, batches = [], []
        for group, order in zip(groups, ((10, 11), (11, 10)), strict=True):
            firsts.append(Caller(lambda group=group: group.fetch_one(
                f"SELECT v FROM {probe} WHERE v = 0 FOR SHARE", (), "a")))
            wait_until(lambda group=group: group._leaders == 1, "the first statement leads")
            time.sleep(0.05)
            callers = []
            for v in order:
                callers.append(Caller(lambda group=group, v=v: group.fetch_one(claim, (v,), f"row-{v}")))
                wait_queued(group, len(callers))
            batches.append(callers)
        held.release()
        for caller in firsts:
            caller.outcome()
        for callers in batches:
            xacts = {caller.outcome()[0] for caller in callers}
            assert len(xacts) == 1, "a batch was split: it had deadlocked"
    finally:
        for pool in pools:
            pool.close()


def test_off_sends_each_alone(connections: PostgresConnections, postgres_url: str, probe: str) -> None:
    group = GroupCommit(connections, in_flight=0)
    callers = [Caller(lambda v=v: group.fetch_one(*insert(probe, v))) for v in range(1, 7)]
    answers = [c.outcome() for c in callers]
    assert len({xact for _, xact in answers}) == 6


# -- through the store: the appends of the game API ---------------------------------------------


def event(n: int) -> NewEvent:
    return NewEvent("tick", {"n": n}, 1, 0)


def test_two_appends_to_one_game_in_one_batch_are_judged_as_two_transactions(
    postgres_url: str, probe: str
) -> None:
    store = PostgresStore(postgres_url, signer=TEST_SIGNER, group_commit=1)
    try:
        game = f"gc-{uuid.uuid4().hex[:12]}"
        store.create_game(game, "test-game", {}, [NewEvent("started", {})], "playing")
        group = store._group
        held = Held(postgres_url, probe)
        try:
            first = Caller(lambda: group.fetch_one(f"UPDATE {probe} SET xact = 1 WHERE v = 0 RETURNING v", (), "a"))
            wait_until(lambda: group._leaders == 1, "the first statement leads")
            time.sleep(0.05)
            won = Caller(lambda: store.append(game, 1, [event(1)], idempotency_key="k1", request_hash="h1"))
            wait_queued(group, 1)
            lost = Caller(lambda: store.append(game, 1, [event(2)], idempotency_key="k2", request_hash="h2"))
            wait_queued(group, 2)
            retried = Caller(lambda: store.append(game, 1, [event(1)], idempotency_key="k1", request_hash="h1"))
            wait_queued(group, 3)
        finally:
            held.release()
        first.outcome()
        result: AppendResult = won.outcome()
        assert not result.replayed and [e.seq for e in result.events] == [2]
        lost.outcome()
        assert isinstance(lost.error, StaleVersion) and lost.error.current == 2
        replay: AppendResult = retried.outcome()
        assert replay.replayed and [e.hash for e in replay.events] == [e.hash for e in result.events]
        stored = store.load(game)
        assert [e.seq for e in stored] == [1, 2]
        with psycopg.connect(postgres_url) as conn:  # the three went as one transaction: one xact id
            (positions,) = conn.execute("SELECT array_agg(position >> 16) FROM events WHERE game_id = %s AND seq = 2",
                                        (game,)).fetchone()
        assert len(positions) == 1
    finally:
        store.close()


def test_many_writers_lose_nothing_and_share_commits(postgres_url: str) -> None:
    """24 threads, each playing its own game, against one store of 1 batch in flight."""
    store = PostgresStore(postgres_url, signer=TEST_SIGNER, group_commit=1, max_size=4)
    games = [f"gc-many-{uuid.uuid4().hex[:10]}" for _ in range(24)]
    try:
        for game in games:
            store.create_game(game, "test-game", {}, [NewEvent("started", {})], "playing")
        start = threading.Barrier(len(games))

        def play(game: str) -> None:
            start.wait()
            version = 1
            for n in range(1, 11):
                events = [event(n)] if n % 3 else [event(n), event(-n)]
                store.append(game, version, events, idempotency_key=f"k{n}")
                version += len(events)

        for caller in [Caller(lambda g=g: play(g)) for g in games]:
            caller.outcome()
            assert caller.error is None, caller.error
        with psycopg.connect(postgres_url) as conn:
            appended, transactions = conn.execute(
                "SELECT count(DISTINCT (game_id, idempotency_key)), count(DISTINCT position >> 16) FROM events"
                " WHERE game_id = ANY(%s) AND seq > 1", (games,)).fetchone()
        assert appended == 240
        assert transactions < appended, "no two appends ever shared a commit"
        for game in games:
            stored = store.load(game)
            assert [e.seq for e in stored] == list(range(1, len(stored) + 1))
            assert len(stored) == 1 + 10 + 3
    finally:
        store.close()
