"""The embedded SQLite store under gevent workers: every call in gevent's
native thread pool.

``cablecar serve`` runs gevent workers on SQLite as production does on
PostgreSQL, so that an event stream holds a greenlet, not a thread.  SQLite's
calls cannot yield: one run in the worker's event loop (a write waiting for
another process's lock, up to the busy timeout) would stop every request and
stream of the worker.  :class:`PooledStore` runs each call of the store in
one of the hub's native threads (``gevent.get_hub().threadpool``, at most ten),
where a blocking call blocks that thread alone; the connections stay one per
thread (:mod:`events.sqlite.connection`), i.e. a handful per worker whatever
the number of requests and streams.

``wait_for_events`` is the one call not sent whole: it polls, sleeping
cooperatively between two reads of the game's version, so that a pump per
watched game never holds a pool thread while it waits.
"""

from __future__ import annotations

import inspect
import sys
import time
from typing import Any, TypeVar

T = TypeVar("T")


def gevent_patched() -> bool:
    """Whether this process's threads are gevent's (a gevent worker patched them)."""
    if "gevent.monkey" not in sys.modules:
        return False
    from gevent import monkey

    return bool(monkey.is_module_patched("threading"))


class PooledStore:
    """``store`` (a SQLite store), its every method run in gevent's native
    thread pool (see the module docs).  Looks like the store's class to
    ``isinstance``, so that whoever checks what the store can do still sees it."""

    def __init__(self, store: Any, poll_interval: float = 0.02) -> None:
        import gevent

        self._store = store
        self._pool = gevent.get_hub().threadpool
        self._poll_interval = poll_interval

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # noqa: D105
        return type(self._store)

    def __getattr__(self, name: str) -> Any:
        value = getattr(self._store, name)
        if not inspect.ismethod(value):
            return value  # constants and properties: read here, they run no SQL
        pool = self._pool

        def pooled(*args: Any, **kwargs: Any) -> Any:
            return _returned(pool.apply(_outcome, (value, args, kwargs)))

        return pooled

    def wait_for_events(self, game_id: str, after_seq: int, timeout: float) -> bool:
        """Poll the game's version (each read in the pool) until it passes
        ``after_seq`` (True) or ``timeout`` runs out (False), sleeping in the
        event loop in between."""
        deadline = time.monotonic() + max(0.0, timeout)
        version = self._store.version
        while True:
            if _returned(self._pool.apply(_outcome, (version, (game_id,), {}))) > after_seq:
                return True
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                return False
            time.sleep(min(self._poll_interval, remaining))


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


def pooled(store: T) -> T:
    """``store`` wrapped in a :class:`PooledStore` when this process runs on
    gevent and the store is the embedded SQLite one; else ``store`` itself."""
    from events.sqlite.store import SqliteStore

    if type(store) is not PooledStore and isinstance(store, SqliteStore) and gevent_patched():
        return PooledStore(store)  # type: ignore[return-value]
    return store
