"""The embedded SQLite store under gevent workers: a call that may wait for
SQLite's lock in gevent's native thread pool; the plain reads, and the hot
writes when the lock is free, in the calling greenlet.

``cablecar serve`` runs gevent workers on SQLite as production does on
PostgreSQL, so that an event stream holds a greenlet, not a thread.  SQLite's
calls cannot yield: one run in the worker's event loop (a write waiting for
another process's lock, up to the busy timeout) would stop every request and
stream of the worker.  :func:`pooled` runs each call of the store's capabilities in
one of the hub's native threads (``gevent.get_hub().threadpool``, at most ten),
where a blocking call blocks that thread alone; the connections stay one per
thread (:mod:`events.sqlite.connection`), i.e. a handful per worker whatever
the number of requests and streams.

The plain reads (:data:`READS`) are not sent: in WAL mode a reader never
waits for a writer (nor for another reader), so a read runs in the worker's
own thread at the cost of its statement, without two thread switches.  They
use that thread's one connection (:mod:`events.sqlite.connection`: per OS
thread, not per greenlet), under its greenlet-owned lock; a read never yields
to gevent half-way (sqlite3's calls do not, and the reads hold no cursor or
transaction open past their return: each returns lists or records), so
another greenlet always finds the connection free (were it not, that greenlet
would wait for the lock, never share the connection mid-statement).  Only
:data:`READS` run here; any other call, including one added later, goes to
the pool.

The hot writes (:data:`TRY_HERE`: an action's append and bot turn) are first tried here
too, without waiting: when no other connection holds SQLite's write lock
(the common case) the append runs at once in the worker's own thread, which
spares a hand-off to a pool thread and back (about a tenth of an action's CPU
time); when the lock is taken, the store raises ``WouldWait`` before doing
anything and the call goes to the pool, where it may wait.  Only calls whose
first write transaction is their first write qualify (repeating them after
``WouldWait`` repeats nothing).  The worker thread's connection leaves
copying the WAL into the file (tens of milliseconds of I/O) to the pool's
connections and other processes, unless the WAL grows very large
(``RARE_CHECKPOINT_PAGES``).

``wait_for_events`` is not sent either: it polls, a read of the game's
version in the calling greenlet, sleeping cooperatively in between, so that a
pump per watched game never holds a pool thread while it waits, nor hands a
read to one fifty times a second.
"""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Callable
from typing import Any

from events import Stores
from events.recorders.event_log import EventStore
from events.sqlite.connection import WouldWait
from events.sqlite.database import SqliteDatabase

#: the store's calls that only read (SELECTs, alone or in one deferred
#: transaction) or run no SQL: run in the calling greenlet (see the module docs)
READS = frozenset({
    "load", "get_game", "version", "list_games", "read_all", "verify_chain", "lookup_idempotency",
    "get_organiser", "get_batch", "list_batches", "get_webhook", "list_webhooks", "organiser_wide_webhooks",
    "quarantined", "log_events", "node_hashes", "checkpoint", "checkpoints_after", "game_leaf",
    "dispatch_state", "checkpoint_dispatch_state", "database_time", "estimated_time",
    "live_bot_runners", "due_games", "list_deliveries",
})

#: writes tried in the calling greenlet first, sent to the pool only when they
#: would wait for SQLite's write lock (see the module docs): one IMMEDIATE
#: transaction, begun before anything is written
TRY_HERE = frozenset({"append", "set_bot_turn", "set_deadline"})  # an action: its events, its bot turn or deadline
# (not the writes that come in bursts, such as hundreds of streams renewing or giving back their places at
# once: run here one after another they would hold the event loop; in the pool they only queue)


def gevent_patched() -> bool:
    """Whether this process's threads are gevent's (a gevent worker patched them)."""
    if "gevent.monkey" not in sys.modules:
        return False
    from gevent import monkey

    return bool(monkey.is_module_patched("threading"))


#: the capabilities of :class:`events.Stores` whose calls go through the pool (``counts`` is SQLite's own)
CAPABILITIES = ("events", "tournaments", "deliveries", "deadlines", "bot_turns", "quarantine", "log", "tickets",
                "counts")


def _pooled_recorder(recorder: Any, database: SqliteDatabase, pool: Any, poll_interval: float) -> Any:
    """``recorder`` behind an object of its interface (the abstract methods of
    its bases) whose methods run where the module docs say: a real instance of
    the interface, so that whoever checks what a capability can do still sees it."""
    interfaces = [base for base in type(recorder).__mro__ if getattr(base, "__abstractmethods__", None) is not None
                  and base.__module__.startswith("events.recorders.")]
    names = sorted({name for base in interfaces for name in base.__abstractmethods__})  # type: ignore[attr-defined]
    methods: dict[str, Any] = {}
    for name in names:
        method = getattr(recorder, name)
        if name in READS:
            call = method
        elif name in TRY_HERE:
            call = _here_unless_waiting(database, pool, method)
        else:
            call = _in_pool(pool, method)
        methods[name] = staticmethod(call)
    if isinstance(recorder, EventStore):
        methods["wait_for_events"] = staticmethod(_polled_wait(recorder.version, poll_interval))
    interface = max(interfaces, key=lambda base: len(base.__mro__))  # the one that has all the others
    cls = type(f"Pooled{type(recorder).__name__}", (interface,), methods)
    return cls()


def _polled_wait(version: Callable[[str], int], poll_interval: float) -> Callable[[str, int, float], bool]:
    def wait_for_events(game_id: str, after_seq: int, timeout: float) -> bool:
        """Poll the game's version (a plain read, here) until it passes
        ``after_seq`` (True) or ``timeout`` runs out (False), sleeping in the
        event loop in between."""
        deadline = time.monotonic() + max(0.0, timeout)
        while True:
            if version(game_id) > after_seq:
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            time.sleep(min(poll_interval, remaining))

    return wait_for_events


def _in_pool(pool: Any, method: Callable[..., Any]) -> Callable[..., Any]:
    def pooled(*args: Any, **kwargs: Any) -> Any:
        return _returned(pool.apply(_outcome, (method, args, kwargs)))

    return pooled


def _here_unless_waiting(database: SqliteDatabase, pool: Any, method: Callable[..., Any]) -> Callable[..., Any]:
    in_pool = _in_pool(pool, method)

    def here(*args: Any, **kwargs: Any) -> Any:
        try:
            with database.without_waiting():
                return method(*args, **kwargs)
        except WouldWait:  # nothing was written: again where waiting blocks one thread only
            return in_pool(*args, **kwargs)

    return here


def _outcome(call: Any, args: Any, kwargs: Any) -> tuple[bool, Any]:
    """What ``call`` returned (True, value) or raised (False, error), in a
    pool thread: an error raised there would also be printed by gevent's hub,
    where GameNotFound is an everyday answer."""
    try:
        return True, call(*args, **kwargs)
    except BaseException as e:  # re-raised in the caller, by _returned
        return False, e


def _returned(outcome: tuple[bool, Any]) -> Any:
    ok, value = outcome
    if not ok:
        raise value
    return value


def pooled(stores: Stores, poll_interval: float = 0.02) -> Stores:
    """``stores`` with each capability's calls run as the module docs say when
    this process runs on gevent and the store is the embedded SQLite one; else
    ``stores`` itself."""
    database = stores.database
    if not isinstance(database, SqliteDatabase) or not gevent_patched():
        return stores
    import gevent

    return in_pool(stores, database, gevent.get_hub().threadpool, poll_interval)


def in_pool(stores: Stores, database: SqliteDatabase, pool: Any, poll_interval: float = 0.02) -> Stores:
    """``stores``' capabilities, their calls run in ``pool`` (``apply(func, args)``)
    or here as the module docs say."""
    changed = {name: _pooled_recorder(getattr(stores, name), database, pool, poll_interval)
               for name in CAPABILITIES if getattr(stores, name) is not None}
    changed["reader"] = changed["events"] if stores.reader is stores.events else stores.reader
    return dataclasses.replace(stores, **changed)
