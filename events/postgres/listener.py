"""LISTEN/NOTIFY wake-ups for :meth:`PostgresStore.wait_for_events`.

Every change of a game's version is announced by a trigger on channel
``cablecar_events`` with payload ``"<version> <game_id>"`` (delivered when
the writing transaction commits).  One :class:`VersionListener` per store
owns ONE dedicated connection and ONE daemon thread that LISTENs and wakes
the threads waiting in this process through a ``threading.Condition``.

Versions are remembered only for games somebody is waiting on, so memory
stays bounded.  When the connection drops the listener bumps its
``generation`` (waking every waiter, who then re-check the database: a
notification may have been missed) and reconnects with backoff; waiters fall
back to polling meanwhile.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator
from contextlib import contextmanager

import psycopg

CHANNEL = "cablecar_events"

log = logging.getLogger(__name__)


def parse_notification(payload: str) -> tuple[str, int] | None:
    """``(game_id, version)`` from a ``"<version> <game_id>"`` payload, or None if malformed."""
    version_text, _, game_id = payload.partition(" ")
    if not game_id or not version_text.isdigit():
        return None
    return game_id, int(version_text)


class VersionListener:
    """Tracks announced game versions for the games threads are waiting on."""

    def __init__(self, url: str, connect_timeout: float = 5.0, idle_timeout: float = 0.5) -> None:
        """Prepare a listener on database ``url``; the thread starts on first use."""
        self._url = url
        self._connect_timeout = connect_timeout
        self._idle_timeout = idle_timeout
        self._cond = threading.Condition()
        self._watchers: dict[str, int] = {}
        self._latest: dict[str, int] = {}
        self._generation = 0
        self._listening = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()

    @property
    def listening(self) -> bool:
        """Whether the LISTEN connection is up right now."""
        return self._listening.is_set()

    def ensure_started(self, timeout: float) -> bool:
        """Start the thread if needed and wait up to ``timeout`` seconds for
        it to be listening; True if it is."""
        with self._start_lock:
            if self._stop.is_set():
                return False
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="cablecar-pg-listener", daemon=True)
                self._thread.start()
        return self._listening.wait(timeout)

    @contextmanager
    def watch(self, game_id: str) -> Iterator[None]:
        """Register interest in ``game_id`` for the duration of the block.

        Enter it *before* checking the database, so that a commit between the
        check and the wait is not missed."""
        with self._cond:
            self._watchers[game_id] = self._watchers.get(game_id, 0) + 1
        try:
            yield
        finally:
            with self._cond:
                remaining = self._watchers[game_id] - 1
                if remaining:
                    self._watchers[game_id] = remaining
                else:
                    del self._watchers[game_id]
                    self._latest.pop(game_id, None)

    def wait(self, game_id: str, after_seq: int, timeout: float) -> bool:
        """Block until a version above ``after_seq`` is announced for the
        watched ``game_id`` (True), or ``timeout`` passes / the connection was
        lost (False: re-check the database)."""
        with self._cond:
            generation = self._generation
            return (
                self._cond.wait_for(
                    lambda: self._latest.get(game_id, 0) > after_seq or self._generation != generation,
                    timeout,
                )
                and self._latest.get(game_id, 0) > after_seq
            )

    def close(self) -> None:
        """Stop the thread (within ``idle_timeout``) and close its connection."""
        self._stop.set()
        thread = self._thread
        if thread is not None:
            thread.join(timeout=self._idle_timeout + self._connect_timeout + 1.0)

    # -- the thread --------------------------------------------------------

    def _run(self) -> None:
        delay = 0.1
        while not self._stop.is_set():
            try:
                with psycopg.connect(
                    self._url, autocommit=True, connect_timeout=max(1, int(self._connect_timeout))
                ) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    self._listening.set()
                    delay = 0.1
                    while not self._stop.is_set():
                        for notify in conn.notifies(timeout=self._idle_timeout):
                            self._deliver(notify.payload)
            except psycopg.Error as e:
                log.warning("event listener connection failed: %s", e)
            finally:
                self._listening.clear()
                with self._cond:
                    self._generation += 1
                    self._cond.notify_all()
            if self._stop.wait(delay):
                break
            delay = min(delay * 2, 5.0)

    def _deliver(self, payload: str) -> None:
        parsed = parse_notification(payload)
        if parsed is None:
            return
        game_id, version = parsed
        with self._cond:
            if game_id in self._watchers and version > self._latest.get(game_id, 0):
                self._latest[game_id] = version
                self._cond.notify_all()
