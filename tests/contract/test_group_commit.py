"""Group commit (events/postgres/groupcommit.py): the appends of concurrent
callers in one process sent as one statement, each with its own answer.

Batches are made deterministic by holding the one lead: a first statement
waits on a row lock this test holds, the calls sent meanwhile queue behind
it and go as the next batch when the lock is let go.  The calls of the
first tests are of a probe function of the test's own (a row inserted, a
statement that fails, one that sleeps, a row claimed), combined the way the
store combines its appends; the last ones go through the store's append."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import threading
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from datetime import timedelta
from functools import partial
from pathlib import Path
from typing import Any

import psycopg
import pytest
from prometheus_client import REGISTRY
from psycopg.adapt import Dumper

from events.factory import postgres_stores
from events.postgres.connection import PostgresConnections
from events.postgres.groupcommit import Combine, GroupCommit
from events.records import (
    AppendOptions,
    AppendResult,
    NewEvent,
    OutcomeUnknown,
    OutsideDeadline,
    StaleVersion,
    StoreUnavailable,
)
from tests.contract.conftest import TEST_SIGNER

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def probe(postgres_url: str) -> Iterator[str]:
    """A table of the test's own, with rows to hold locks on, and its
    function ``<table>_put(v, mode)``: inserts ``v`` ('put'), or claims row
    ``v`` for 0.3 s ('claim'), or fails ('fail'), or fails as a server that
    takes no writes does ('read-only'), or sleeps 5 s ('sleep');
    answers ``v`` and its transaction's id."""
    name = f"gc_probe_{uuid.uuid4().hex[:10]}"
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f"CREATE TABLE {name} (v integer PRIMARY KEY, xact bigint)")
        conn.execute(f"INSERT INTO {name} VALUES (0, 0), (10, 0), (11, 0)")
        conn.execute(f"""
            CREATE FUNCTION {name}_put(p_v integer, p_mode text, OUT v integer, OUT xact bigint)
            LANGUAGE plpgsql AS $$
            BEGIN
                xact := pg_current_xact_id()::text::bigint;
                v := p_v;
                IF p_mode = 'fail' THEN
                    RAISE EXCEPTION 'refused' USING ERRCODE = 'check_violation';
                ELSIF p_mode = 'read-only' THEN  -- what a demoted primary answers any write
                    RAISE EXCEPTION 'read-only' USING ERRCODE = 'read_only_sql_transaction';
                ELSIF p_mode = 'sleep' THEN
                    PERFORM pg_sleep(5);
                ELSIF p_mode = 'claim' THEN
                    UPDATE {name} t SET xact = t.xact + 1 WHERE t.v = p_v;
                    PERFORM pg_sleep(0.3);
                ELSE
                    INSERT INTO {name} VALUES (p_v, xact);
                END IF;
            END $$""".encode())
    yield name
    with psycopg.connect(postgres_url, autocommit=True) as conn:
        conn.execute(f"DROP FUNCTION {name}_put".encode())
        conn.execute(f"DROP TABLE {name}".encode())


def combiner(table: str) -> Combine:
    """The probe's calls combined as the store combines its appends: unnest, a LATERAL call each, in order."""

    def combine(calls: list[tuple[str, Sequence[Any]]]) -> tuple[str, Sequence[Any]]:
        values, modes = zip(*(params for _, params in calls), strict=True)
        return (f"SELECT r.v, r.xact FROM unnest(%s::integer[], %s::text[]) WITH ORDINALITY AS p(v, mode, ord)"
                f" CROSS JOIN LATERAL {table}_put(p.v, p.mode) AS r ORDER BY p.ord", (list(values), list(modes)))

    return combine


def put(group: GroupCommit, table: str, v: int, mode: Any = "put") -> Any:
    return group.fetch_one(f"SELECT v, xact FROM {table}_put(%s, %s)", (v, mode), f"g{v:02d}")


@pytest.fixture
def connections(postgres_url: str) -> Iterator[PostgresConnections]:
    db = PostgresConnections(postgres_url, min_size=1, max_size=4)
    yield db
    db.close()


class Held:
    """Row 0 of the probe locked from a connection of the test's own."""

    def __init__(self, url: str, table: str) -> None:
        self.conn = psycopg.connect(url)
        self.conn.execute(f"SELECT v FROM {table} WHERE v = 0 FOR UPDATE".encode())

    def release(self) -> None:
        self.conn.rollback()
        self.conn.close()


class Caller(threading.Thread):
    """One caller: its answer or its error."""

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
    wait_until(lambda: len(group._queue) == n, f"{n} calls queue")


def hold_the_lead(group: GroupCommit, table: str) -> Caller:
    """A first statement that leads and waits on the probe's row 0 (lock it first)."""
    first = Caller(lambda: group.fetch_one(f"SELECT v FROM {table} WHERE v = 0 FOR SHARE", (), "a"))
    wait_until(lambda: group._leaders == 1, "the first statement leads")
    time.sleep(0.05)  # in flight, waiting on the lock
    return first


def queue_behind_lock(group: GroupCommit, url: str, table: str,
                      calls: list[tuple[int, Any]]) -> tuple[Caller, list[Caller]]:
    """The probe's ``calls`` (value, mode) queued in this order behind a
    statement that holds the lead; then the lock let go: they go as one batch."""
    held = Held(url, table)
    try:
        first = hold_the_lead(group, table)
        callers = []
        for v, mode in calls:
            callers.append(Caller(partial(put, group, table, v, mode)))
            wait_queued(group, len(callers))
    finally:
        held.release()
    return first, callers


def rows(url: str, table: str) -> dict[int, int]:
    with psycopg.connect(url) as conn:
        return dict(conn.execute(f"SELECT v, xact FROM {table} WHERE v BETWEEN 1 AND 9".encode()).fetchall())


def batches_sent() -> tuple[float, float]:
    """How many batches were sent, and how many appends they carried (the store's metric)."""
    count = REGISTRY.get_sample_value("cablecar_db_append_batch_size_count") or 0.0
    total = REGISTRY.get_sample_value("cablecar_db_append_batch_size_sum") or 0.0
    return count, total


def test_calls_sent_meanwhile_share_one_statement(
    connections: PostgresConnections, postgres_url: str, probe: str
) -> None:
    group = GroupCommit(connections, combiner(probe), in_flight=1)
    first, callers = queue_behind_lock(group, postgres_url, probe, [(3, "put"), (1, "put"), (2, "put")])
    assert first.outcome() == (0,)
    answers = [c.outcome() for c in callers]
    assert [v for v, _ in answers] == [3, 1, 2]  # each caller its own row
    assert len({xact for _, xact in answers}) == 1, "the three were not one transaction"
    assert rows(postgres_url, probe) == {v: xact for v, xact in answers}
    assert group._leaders == 0 and not group._queue


def test_a_failing_statement_leaves_its_batch_mates_each_written_once(
    connections: PostgresConnections, postgres_url: str, probe: str
) -> None:
    group = GroupCommit(connections, combiner(probe), in_flight=1)
    first, callers = queue_behind_lock(group, postgres_url, probe, [(1, "put"), (2, "fail"), (3, "put")])
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
    group = GroupCommit(connections, combiner(probe), in_flight=1)
    first, callers = queue_behind_lock(group, postgres_url, probe, [(1, "put"), (2, "sleep"), (3, "put")])
    first.outcome()
    batch = f"SELECT pid FROM pg_stat_activity WHERE query LIKE '%LATERAL {probe}_put%' AND pid <> pg_backend_pid()"
    with psycopg.connect(postgres_url, autocommit=True) as admin:
        wait_until(lambda: bool(admin.execute(batch.encode()).fetchall()), "the batch runs")
        admin.execute(f"SELECT pg_terminate_backend(pid) FROM ({batch}) b".encode())
    for caller in callers:
        caller.outcome()
        assert isinstance(caller.error, OutcomeUnknown), caller.error
    assert rows(postgres_url, probe) == {}  # in truth nothing: the transaction never committed
    assert put(group, probe, 7)[0] == 7  # and the next append goes


def test_a_server_that_takes_no_writes_fails_the_batch_once(
    connections: PostgresConnections, postgres_url: str, probe: str
) -> None:
    """A demoted primary is the connection's state, not one append's: the batch's callers all get
    StoreUnavailable (nothing was written) at once, and the connection is dropped; none is tried alone there."""
    group = GroupCommit(connections, combiner(probe), in_flight=1)
    before = REGISTRY.get_sample_value("cablecar_db_failures_total", {"kind": "read_only"}) or 0.0
    first, callers = queue_behind_lock(group, postgres_url, probe, [(1, "put"), (2, "read-only"), (3, "put")])
    first.outcome()
    for caller in callers:
        caller.outcome()
        assert isinstance(caller.error, StoreUnavailable) and not isinstance(caller.error, OutcomeUnknown)
    after = REGISTRY.get_sample_value("cablecar_db_failures_total", {"kind": "read_only"}) or 0.0
    assert after - before == 1, "the batch was tried again append by append"
    assert rows(postgres_url, probe) == {}
    assert put(group, probe, 7)[0] == 7  # a new connection takes the next


class Interrupt(BaseException):
    """What a timeout or a stopping worker raises inside a caller."""


class Interrupting:
    """A parameter whose sending raises Interrupt."""


class InterruptingDumper(Dumper):
    def dump(self, obj: Any) -> bytes:
        raise Interrupt("stop")


def test_an_interrupted_leader_strands_no_one(postgres_url: str, probe: str) -> None:
    psycopg.adapters.register_dumper(Interrupting, InterruptingDumper)  # a class of this test's only
    connections = PostgresConnections(postgres_url, min_size=1, max_size=4)
    try:
        group = GroupCommit(connections, combiner(probe), in_flight=1)
        first, callers = queue_behind_lock(group, postgres_url, probe,
                                           [(1, "put"), (2, Interrupting()), (3, "put")])
        first.outcome()
        for caller in callers:
            caller.outcome()
        assert isinstance(callers[0].error, Interrupt)  # the caller that led got the interruption
        assert all(isinstance(c.error, OutcomeUnknown) for c in callers[1:])
        assert rows(postgres_url, probe) == {}
        assert group._leaders == 0 and not group._queue
        assert put(group, probe, 7)[0] == 7
    finally:
        connections.close()


def test_batches_claim_rows_in_one_order(postgres_url: str, probe: str) -> None:
    """Two processes' batches over the same two rows, queued in opposite orders: sorted by game id they
    wait for each other instead of deadlocking (a deadlock would abort one, whose two would go alone)."""
    pools = [PostgresConnections(postgres_url, min_size=1, max_size=2) for _ in range(2)]
    held = Held(postgres_url, probe)
    try:
        groups = [GroupCommit(pool, combiner(probe), in_flight=1) for pool in pools]
        firsts, batches = [], []
        for group, order in zip(groups, ((10, 11), (11, 10)), strict=True):
            firsts.append(hold_the_lead(group, probe))
            callers = []
            for v in order:
                callers.append(Caller(partial(put, group, probe, v, "claim")))
                wait_queued(group, len(callers))
            batches.append(callers)
        held.release()
        for caller in firsts:
            caller.outcome()
        for callers in batches:
            xacts = {caller.outcome()[1] for caller in callers}
            assert len(xacts) == 1, "a batch was split: it had deadlocked"
    finally:
        for pool in pools:
            pool.close()


def test_off_sends_each_alone(connections: PostgresConnections, postgres_url: str, probe: str) -> None:
    group = GroupCommit(connections, combiner(probe), in_flight=0)
    callers = [Caller(partial(put, group, probe, v)) for v in range(1, 7)]
    answers = [c.outcome() for c in callers]
    assert len({xact for _, xact in answers}) == 6


# -- through the store: the appends of the game API ---------------------------------------------


def event(n: int) -> NewEvent:
    return NewEvent("tick", {"n": n}, 1, 0)


def test_two_appends_to_one_game_in_one_batch_are_judged_as_two_transactions(
    postgres_url: str, probe: str
) -> None:
    store = postgres_stores(postgres_url, signer=TEST_SIGNER, group_commit=1)
    try:
        game = f"gc-{uuid.uuid4().hex[:12]}"
        store.events.create_game(game, "test-game", {}, [NewEvent("started", {})], "playing")
        group = store.database.group
        held = Held(postgres_url, probe)
        try:
            before = batches_sent()
            first = hold_the_lead(group, probe)
            won = Caller(lambda: store.events.append(game, 1, [event(1)],
                                                     AppendOptions(idempotency_key="k1", request_hash="h1")))
            wait_queued(group, 1)
            lost = Caller(lambda: store.events.append(game, 1, [event(2)],
                                                      AppendOptions(idempotency_key="k2", request_hash="h2")))
            wait_queued(group, 2)
            retried = Caller(lambda: store.events.append(game, 1, [event(1)],
                                                         AppendOptions(idempotency_key="k1", request_hash="h1")))
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
        assert [e.seq for e in store.events.load(game)] == [1, 2]
        assert batches_sent() == (before[0] + 2, before[1] + 1 + 3)  # the first alone, then the three together
    finally:
        store.close()


def test_deadlines_are_judged_per_append_in_a_batch(postgres_url: str, probe: str) -> None:
    """The window of each append travels with it: one past its deadline is late, its batch-mate is not."""
    store = postgres_stores(postgres_url, signer=TEST_SIGNER, group_commit=1)
    try:
        games = [f"gc-{uuid.uuid4().hex[:12]}" for _ in range(2)]
        for game in games:
            store.events.create_game(game, "test-game", {}, [NewEvent("started", {})], "playing")
        now = store.deadlines.database_time()
        group = store.database.group
        held = Held(postgres_url, probe)
        try:
            first = hold_the_lead(group, probe)
            late = Caller(lambda: store.events.append(games[0], 1, [event(1)],
                                                      AppendOptions(not_after=now - timedelta(seconds=5))))
            wait_queued(group, 1)
            timely = Caller(lambda: store.events.append(games[1], 1, [event(1)],
                                                        AppendOptions(not_before=now - timedelta(seconds=5),
                                                                      not_after=now + timedelta(seconds=60))))
            wait_queued(group, 2)
        finally:
            held.release()
        first.outcome()
        late.outcome()
        assert isinstance(late.error, OutsideDeadline) and late.error.reason == "late"
        assert timely.outcome().events[0].seq == 2
        assert [e.seq for e in store.events.load(games[0])] == [1]
    finally:
        store.close()


def test_many_writers_lose_nothing_and_share_commits(postgres_url: str) -> None:
    """24 threads, each playing its own game, against one store of 1 batch in flight."""
    store = postgres_stores(postgres_url, signer=TEST_SIGNER, group_commit=1, max_size=4)
    games = [f"gc-many-{uuid.uuid4().hex[:10]}" for _ in range(24)]
    try:
        for game in games:
            store.events.create_game(game, "test-game", {}, [NewEvent("started", {})], "playing")
        start = threading.Barrier(len(games))

        def play(game: str) -> None:
            start.wait()
            version = 1
            for n in range(1, 11):
                events = [event(n)] if n % 3 else [event(n), event(-n)]
                store.events.append(game, version, events, AppendOptions(idempotency_key=f"k{n}"))
                version += len(events)

        for caller in [Caller(partial(play, game)) for game in games]:
            caller.outcome()
            assert caller.error is None, caller.error
        with psycopg.connect(postgres_url) as conn:
            counted = conn.execute(
                "SELECT count(DISTINCT (game_id, idempotency_key)), count(DISTINCT position >> 16) FROM events"
                " WHERE game_id = ANY(%s) AND seq > 1", (games,)).fetchone()
        assert counted is not None
        appended, transactions = counted
        assert appended == 240
        assert transactions < appended, "no two appends ever shared a commit"
        for game in games:
            stored = store.events.load(game)
            assert [e.seq for e in stored] == list(range(1, len(stored) + 1))
            assert len(stored) == 1 + 10 + 3
    finally:
        store.close()


def test_a_caller_interrupted_while_queued_is_never_sent(postgres_url: str, probe: str) -> None:
    """Under gevent (the production worker) a request's greenlet can be interrupted while its append waits
    in the queue (a timeout, a worker stopping): its append leaves the queue unsent, the one behind it goes."""
    script = textwrap.dedent(f"""
        from gevent import monkey; monkey.patch_all()
        import gevent, psycopg
        from events.postgres.connection import PostgresConnections
        from events.postgres.groupcommit import GroupCommit
        from tests.contract.test_group_commit import combiner, put
        url, table = {postgres_url!r}, {probe!r}
        group = GroupCommit(PostgresConnections(url, min_size=1, max_size=4), combiner(table), in_flight=1)
        held = psycopg.connect(url)
        held.execute(f"SELECT v FROM {{table}} WHERE v = 0 FOR UPDATE")
        first = gevent.spawn(group.fetch_one, f"SELECT v FROM {{table}} WHERE v = 0 FOR SHARE", (), "a")
        gevent.sleep(0.3)
        def impatient():
            with gevent.Timeout(0.3):
                return put(group, table, 1)
        quitter = gevent.spawn(impatient)
        gevent.sleep(0.1)
        stayer = gevent.spawn(put, group, table, 2)
        gevent.sleep(0.5)
        assert quitter.dead and isinstance(quitter.exception, gevent.Timeout), quitter.exception
        assert len(group._queue) == 1, group._queue
        held.rollback()
        held.close()
        assert first.get(timeout=10) == (0,)
        assert stayer.get(timeout=10)[0] == 2
        assert group._leaders == 0 and not group._queue
    """)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert sorted(rows(postgres_url, probe)) == [2]
