"""The transparency log's publisher on both backends (issue 35): one
checkpoint per interval while events arrive, none when nothing changed, one
publisher at a time, and never two different trees of one size."""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from events import Stores
from events.integrity import merkle
from events.integrity.signing import Signer
from events.recorders.transparency_log import LogConflict, LogLeaf, PublishedCheckpoint
from events.records import NewEvent
from service.usecases.checkpoints import LogPublisher, LogPublishing

ORIGIN = "games.example.org/log"


@pytest.fixture(params=["sqlite", "postgres"])
def stores(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Stores, Stores]]:
    """Two stores on one database, as two processes (or hosts) hold them."""
    signer = Signer.generate()
    if request.param == "sqlite":
        from events.factory import sqlite_stores

        pair = (sqlite_stores(tmp_path / "log.sqlite3", signer=signer), sqlite_stores(tmp_path / "log.sqlite3",
                                                                                  signer=signer))
        yield pair
        for s in pair:
            s.close()
    else:
        from events.factory import postgres_stores
        from tests.contract.conftest import create_database, drop_database, postgres_admin_url

        admin = postgres_admin_url()
        url = create_database(admin, "cc_tlogpub")
        pair = (postgres_stores(url, signer=signer), postgres_stores(url, signer=signer))
        try:
            yield pair
        finally:
            for s in pair:
                s.close()
            drop_database(admin, url)


def _game(store: Stores, name: str, events: int = 3) -> None:
    """A game of ``events`` events, once the global log shows them (on PostgreSQL it is read up to the
    oldest transaction running on the server, which another test's may hold back for a moment)."""
    new = [NewEvent("noted", {"i": i}) for i in range(events)]
    store.events.create_game(name, "ttr-sf", {"players": ["a", "b"], "leaf_salt": "ab" * 32}, new, "active")
    deadline = time.monotonic() + 10
    while len(store.events.read_all(0, 1000)) < store.database.rows("SELECT count(*) FROM events")[0][0]:  # type: ignore[attr-defined]
        assert time.monotonic() < deadline
        time.sleep(0.02)


def _roots_match_the_log(store: Stores) -> None:
    """Every published checkpoint's root is the MTH of the log's first tree_size events' leaves."""
    leaves, after = [], 0
    while batch := store.events.read_all(after, 1000):
        leaves += [merkle.leaf_hash(bytes.fromhex(e.hash) + bytes.fromhex("ab" * 32)) for e in batch]
        after = batch[-1].position
    sizes = [int(r[0]) for r in store.database.rows("SELECT tree_size FROM log_checkpoints ORDER BY tree_size")]
    assert sizes
    for size in sizes:
        cp = store.log.checkpoint(size)
        assert cp is not None and cp.root_hash == merkle.root(leaves[:size]), size


def test_one_checkpoint_per_round_while_events_arrive_none_when_nothing_changed(
        stores: tuple[Stores, Stores]) -> None:
    store, _ = stores
    publishing = LogPublishing(LogPublisher(store.log, Signer.generate(), ORIGIN, store.deadlines), store.deadlines, 0.05)
    assert publishing.run_once() is None and store.log.checkpoint() is None  # an empty log: nothing to sign
    _game(store, "g1")
    first = publishing.run_once()
    assert first is not None and first.tree_size == 3 and publishing.holding
    assert publishing.run_once() is None  # nothing new: no new checkpoint
    assert store.log.checkpoint() == first
    _game(store, "g2", 2)
    second = publishing.run_once()
    assert second is not None and second.tree_size == 5
    _roots_match_the_log(store)

    # in its thread: events keep arriving, a checkpoint follows each interval
    publishing.start()
    try:
        for i in range(3):
            _game(store, f"t{i}")
            deadline = time.monotonic() + 10
            while store.log.checkpoint().tree_size < 5 + 3 * (i + 1):  # type: ignore[union-attr]
                assert time.monotonic() < deadline
                time.sleep(0.02)
        latest = store.log.checkpoint()
        time.sleep(0.3)  # several intervals with nothing new
        assert store.log.checkpoint() == latest
    finally:
        publishing.stop()
    _roots_match_the_log(store)


def test_two_publishers_never_publish_two_trees_of_one_size(stores: tuple[Stores, Stores]) -> None:
    one, two = stores
    publishers = [LogPublisher(s.log, Signer.generate(), ORIGIN, s.deadlines, max_leaves=4) for s in stores]
    stop = threading.Event()
    errors: list[Exception] = []

    def publish(p: LogPublisher) -> None:
        while not stop.is_set():
            try:
                p.publish()
            except Exception as e:  # pragma: no cover - reported below
                errors.append(e)

    threads = [threading.Thread(target=publish, args=(p,)) for p in publishers]
    for t in threads:
        t.start()
    try:
        for i in range(12):
            _game(one if i % 2 else two, f"g{i}", 1 + i % 3)
        deadline = time.monotonic() + 20
        while (one.log.checkpoint() or PublishedCheckpoint(0, b"", "", "", 0, "")).tree_size < 24:
            assert time.monotonic() < deadline
            time.sleep(0.02)
    finally:
        stop.set()
        for t in threads:
            t.join()
    assert not errors
    _roots_match_the_log(one)

    # a publisher no longer at the head writes nothing
    head = one.log.checkpoint()
    assert head is not None
    with pytest.raises(LogConflict):
        two.log.publish_checkpoint(head.tree_size - 1, [LogLeaf(head.tree_size, "g0", 9, head.last_position + 1)], [],
                               PublishedCheckpoint(head.tree_size + 1, bytes(32), "x\n", "k", head.last_position + 1,
                                                   head.created_at))
    assert one.log.checkpoint() == head and one.log.game_leaf("g0", 9) is None


def test_one_lease_holder_at_a_time(stores: tuple[Stores, Stores]) -> None:
    runs = [LogPublishing(LogPublisher(s.log, Signer.generate(), ORIGIN, s.deadlines), s.deadlines, 1.0) for s in stores]
    _game(stores[0], "g")
    assert runs[0].run_once() is not None and runs[0].holding
    assert runs[1].run_once() is None and not runs[1].holding
    with pytest.raises(ValueError):
        LogPublishing(runs[0].publisher, stores[0].deadlines, 11)
    with pytest.raises(ValueError):
        LogPublisher(stores[0].log, Signer.generate(), "has space", stores[0].deadlines)


def _plant(store: Stores, sql: str, params: tuple[object, ...]) -> None:
    """A row written around the publisher (issue 48: what one INSERT with the app role's login did before
    the log's tables were written only through the owner's function; the owner can still)."""
    database = store.database
    with database.transaction() as cur:  # type: ignore[attr-defined]
        cur.execute(database.dialect.sql(sql), params)  # type: ignore[attr-defined]


def test_rows_no_publication_wrote_never_stall_the_publisher_and_are_reported(
        stores: tuple[Stores, Stores], caplog: pytest.LogCaptureFixture) -> None:
    from prometheus_client import REGISTRY

    store, _ = stores
    publisher = LogPublisher(store.log, Signer.generate(), ORIGIN, store.deadlines)
    _game(store, "g1")
    first = publisher.publish()
    assert first is not None and first.tree_size == 3
    when = store.database.dialect.time_param(store.deadlines.database_time())  # type: ignore[attr-defined]
    # where the next publication writes: its first leaf, that leaf's node, a node it completes later (level 2,
    # leaves 4..7), and checkpoints of sizes it has not reached (a junk note, and one at the very next size)
    _plant(store, "INSERT INTO log_leaves (leaf_index, game_id, seq, position) VALUES (?, ?, ?, ?)",
           (3, "g1", 99, first.last_position + 10**12))
    _plant(store, "INSERT INTO log_nodes (level, node_index, hash) VALUES (?, ?, ?)", (0, 3, b"\x07" * 32))
    _plant(store, "INSERT INTO log_nodes (level, node_index, hash) VALUES (?, ?, ?)", (2, 1, b"\x08" * 32))
    for size, note in ((1003, "junk"), (4, "x\n4\nAAAA\n\n\u2014 x AAAA\n")):
        _plant(store, "INSERT INTO log_checkpoints (tree_size, root_hash, note, key_id, last_position, created_at)"
               " VALUES (?, ?, ?, ?, ?, ?)", (size, b"\x09" * 32, note, "k", first.last_position + 1, when))

    def reported(table: str) -> float:
        return REGISTRY.get_sample_value("cablecar_log_foreign_rows_total", {"table": table}) or 0.0

    before = {t: reported(t) for t in ("log_leaves", "log_nodes", "log_checkpoints")}
    _game(store, "g2", 4)
    with caplog.at_level(logging.WARNING, logger="cablecar.transparency"):
        second = publisher.publish()
    assert second is not None and second.tree_size == 7  # the events' tree, not the planted rows'
    assert store.log.checkpoint() == second
    assert any("no publication wrote" in r.getMessage() for r in caplog.records), caplog.text
    assert {t: reported(t) - before[t] for t in before} == {"log_leaves": 1, "log_nodes": 2, "log_checkpoints": 2}
    # nothing planted was lost: every row is kept where the operator can look at it
    moved = store.database.rows("SELECT table_name FROM log_foreign_rows ORDER BY table_name")  # type: ignore[attr-defined]
    assert sorted(r[0] for r in moved) == ["log_checkpoints", "log_checkpoints", "log_leaves", "log_nodes",
                                           "log_nodes"]
    _game(store, "g3", 1)
    third = publisher.publish()
    assert third is not None and third.tree_size == 8  # the level-2 node of leaves 4..7, and the root's
    _roots_match_the_log(store)
    assert store.log.game_leaf("g1", 99) is None and store.log.game_leaf("g2", 4) is not None
