"""The embedded store used the way SQLite says it must be, by several
processes and threads on one file, and the counts they share.

Only SQLite: PostgreSQL serves its processes itself, and on it the shared
counts live in Redis (``service/api/ratelimit.py``)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

from events.factory import sqlite_stores
from events.records import StoreUnavailable

_HOLDER = textwrap.dedent("""
    import sys, threading
    from events.factory import sqlite_stores
    store = sqlite_stores(sys.argv[1])
    store.events.list_games(limit=1)              # the main thread's connection: holds SQLite's lock
    t = threading.Thread(target=lambda: store.events.list_games(limit=1))
    t.start(); t.join()                           # a second thread opens its own connection
    print("ready", flush=True)
    sys.stdin.readline()                          # hold the connection until told
    store.close()
""")


def test_a_thread_opening_its_connection_keeps_the_process_s_locks(tmp_path: Path) -> None:
    # Closing any descriptor of the database file drops every POSIX lock the process holds on it
    # (https://sqlite.org/howtocorrupt.html 2.2). If a new thread's connection did that, another
    # process closing its last connection would think itself alone and delete the -wal under the first.
    path = tmp_path / "one.sqlite3"
    sqlite_stores(path).close()
    holder = subprocess.Popen([sys.executable, "-c", _HOLDER, str(path)], cwd=Path(__file__).resolve().parents[2],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "ready"
        other = sqlite3.connect(path, isolation_level=None)
        other.execute("CREATE TABLE scratch (a)")  # a write: the -wal exists
        other.close()  # the last connection of *this* process: it must see the holder's
        assert Path(f"{path}-wal").exists(), "the other process's connection was taken for gone"
    finally:
        assert holder.stdin is not None
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(timeout=30)


def test_a_thread_s_connection_closes_when_the_thread_ends(tmp_path: Path) -> None:
    store = sqlite_stores(tmp_path / "t.sqlite3")
    try:
        assert store.database.open_connections == 1  # the opening thread's (the schema was applied with it)
        seen: list[int] = []

        def use() -> None:
            store.events.list_games(limit=1)
            seen.append(store.database.open_connections)

        for _ in range(20):
            t = threading.Thread(target=use)
            t.start()
            t.join()
        assert seen == [2] * 20
        assert store.database.open_connections == 1
    finally:
        store.close()
    assert store.database.open_connections == 0


def test_counters_are_shared_by_every_store_on_the_file(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite3"
    one, two = sqlite_stores(path), sqlite_stores(path)
    try:
        now = time.time()
        assert one.counts.add_count("create:a", 7, 1, now + 60, now) == 1
        assert two.counts.add_count("create:a", 7, 2, now + 60, now) == 3
        assert one.counts.add_count("create:a", 8, 1, now + 60, now) == 1  # another window
        assert two.counts.add_count("create:b", 7, 1, now + 60, now) == 1  # another key
    finally:
        one.close()
        two.close()


def test_places_are_capped_per_holder_across_stores_and_lapse(tmp_path: Path) -> None:
    path = tmp_path / "p.sqlite3"
    one, two = sqlite_stores(path), sqlite_stores(path)
    try:
        now = time.time()
        first = one.counts.take_place("streams", "10.0.0.1", 2, now + 60, now)
        second = two.counts.take_place("streams", "10.0.0.1", 2, now + 60, now)
        assert first and second and first != second
        assert one.counts.take_place("streams", "10.0.0.1", 2, now + 60, now) is None
        assert two.counts.take_place("streams", "10.0.0.2", 2, now + 60, now) is not None  # another holder
        assert one.counts.take_place("other", "10.0.0.1", 2, now + 60, now) is not None  # another group
        two.counts.free_place(first)
        third = one.counts.take_place("streams", "10.0.0.1", 2, now + 60, now)
        assert third is not None
        # a place not renewed lapses (a killed worker's); a renewed one does not
        one.counts.renew_place(third, now + 200)
        later = now + 100
        assert one.counts.take_place("streams", "10.0.0.1", 2, later + 60, later) is not None
        assert one.counts.take_place("streams", "10.0.0.1", 2, later + 60, later) is None
    finally:
        one.close()
        two.close()


def test_a_store_opened_before_a_fork_is_not_used_after_it(tmp_path: Path) -> None:
    store = sqlite_stores(tmp_path / "f.sqlite3")
    try:
        pid = os.fork()
        if pid == 0:  # the child: the inherited store refuses, a store of its own works
            code = 1
            try:
                try:
                    store.events.list_games(limit=1)
                except StoreUnavailable as e:
                    code = 0 if "fork" in str(e) else 2
                store.close()
                own = sqlite_stores(tmp_path / "f.sqlite3")
                own.events.list_games(limit=1)
                own.close()
            finally:
                os._exit(code)
        _, status = os.waitpid(pid, 0)
        assert os.waitstatus_to_exitcode(status) == 0
        store.events.list_games(limit=1)  # the parent's connections are intact
    finally:
        store.close()
