"""Group commit: the appends of concurrent requests in one process sent to
PostgreSQL as one statement, so one round trip and one transaction.

Why
    Under load an append's statement is cheap (~0.1 ms in a loop inside the
    database) and everything around it is not: a round trip that wakes a
    backend process, a transaction start and commit, a WAL flush.  Requests
    that arrive while an append is in flight are queued here; the next
    request to lead sends the queue as one statement that calls the append
    function once per append, in order (``APPEND_MANY`` of
    :mod:`events.postgres.statements`: ``unnest`` of the arguments, a
    ``LATERAL`` call each).  Nothing waits for company: a lone append is
    sent at once, as before, in its own statement.  (Pipelining the calls
    between ``BEGIN`` and ``COMMIT`` saved PostgreSQL as much but cost the
    worker more than it saved: psycopg's pipeline mode is heavy.)

What it may not change
    Each append keeps its own verdict.  The append functions answer every
    refusal ('stale', 'replayed', 'head', 'clock', ...) as a row, never an
    error, so one refusal does not touch its batch-mates; two appends to one
    game in one batch behave as two transactions would (each call's
    statements see what the calls before it wrote: the second gets 'stale',
    or 'replayed' for the same key).  Should the statement fail (an error,
    not a verdict), its transaction rolled back and nothing of the batch was
    written: every append of it is sent again alone, and each caller gets
    its own answer.  A link that breaks while a batch is in flight leaves
    every append of it :class:`OutcomeUnknown`, as it leaves one (the
    caller's idempotency key tells on retry); a server that takes no writes
    (a demoted primary) refuses the whole batch, ``StoreUnavailable``, and
    its connection is dropped, as for one.

Locks
    A batch claims the game rows of its appends in the order of their game
    ids, so two batches (in any processes) never wait for each other in a
    cycle; a single append claims one row.
"""

from __future__ import annotations

import threading
from collections import deque
from collections.abc import Callable, Sequence
from typing import Any

import psycopg

from events.postgres.connection import PostgresConnections
from events.postgres.db_metrics import DB_APPEND_BATCH
from events.records import OutcomeUnknown, StoreError

Row = tuple[Any, ...]


#: The one statement (and its parameters) of several appends, from each one's own ``(sql, params)`` in order.
Combine = Callable[[list[tuple[str, Sequence[Any]]]], tuple[str, Sequence[Any]]]


class _Append:
    """One caller's append (its statement as it would go alone) and the
    answer (a row or an error) it waits for."""

    __slots__ = ("sql", "params", "game_id", "row", "error", "done", "lead")

    def __init__(self, sql: str, params: Sequence[Any], game_id: str) -> None:
        self.sql, self.params, self.game_id = sql, params, game_id
        self.row: Row | None = None
        self.error: BaseException | None = None
        self.done = threading.Event()
        self.lead = False  # woken to send the queue, not with an answer


class GroupCommit:
    """Appends of concurrent callers sent as one statement (see the module docs).

    ``combine`` makes the one statement of several appends from their own
    statements (its answer: one row per append, in order); ``in_flight``:
    how many batches this process may have in flight at once (each holds
    one pooled connection; 0: every append is sent alone, at once);
    ``largest``: how many appends one batch may carry."""

    def __init__(self, db: PostgresConnections, combine: Combine, in_flight: int = 1, largest: int = 64) -> None:
        if in_flight < 0 or largest < 1:
            raise ValueError(f"group commit takes 0 or more batches in flight of 1 or more appends, not "
                             f"{in_flight} of {largest}")
        self._db = db
        self._combine = combine
        self._in_flight = in_flight
        self._largest = largest
        self._lock = threading.Lock()
        self._queue: deque[_Append] = deque()
        self._leaders = 0

    def fetch_one(self, sql: str, params: Sequence[Any], game_id: str) -> Row:
        """The one row ``sql`` with ``params`` (an append to ``game_id``)
        answers, sent alone or combined with the other appends waiting; the
        store's error when it failed."""
        mine = _Append(sql, params, game_id)
        if not self._in_flight:
            return self._answer(self._alone(mine))
        with self._lock:
            leading = self._leaders < self._in_flight
            if leading:
                self._leaders += 1
            else:
                self._queue.append(mine)
        try:
            if not leading:
                mine.done.wait()  # woken once: with an answer, or taken off the queue to lead
                leading = mine.lead
            if leading:
                self._lead(mine)
        except BaseException:  # interrupted (a timeout, the worker stopping): never strand the queue
            self._abandon(mine)
            raise
        return self._answer(mine)

    def _lead(self, mine: _Append) -> None:
        """Send ``mine`` and the appends waiting behind it (up to ``largest``)
        as one batch, then hand the lead to the next waiting caller (or give
        it up when none waits)."""
        with self._lock:
            batch = [mine, *(self._queue.popleft() for _ in range(min(self._largest - 1, len(self._queue))))]
            mine.lead = False
        try:
            self._send(batch)
        finally:
            with self._lock:
                successor = self._pass_lead()
            for item in batch:
                if item.row is None and item.error is None:  # the leader was interrupted mid-send
                    item.error = OutcomeUnknown("the batch carrying this append was interrupted while in flight")
                item.done.set()
            if successor is not None:
                successor.done.set()

    def _pass_lead(self) -> _Append | None:
        """Under the lock: the first waiting caller, taken off the queue to
        lead (None, and one leader fewer, when none waits)."""
        if not self._queue:
            self._leaders -= 1
            return None
        successor = self._queue.popleft()
        successor.lead = True
        return successor

    def _abandon(self, mine: _Append) -> None:
        """An interrupted caller's way out: its append is taken off the queue
        if it was not sent, and a lead handed to it and not taken is passed on."""
        successor = None
        with self._lock:
            if mine in self._queue:
                self._queue.remove(mine)
            elif mine.lead:
                mine.lead = False
                successor = self._pass_lead()
        if successor is not None:
            successor.done.set()

    @staticmethod
    def _answer(item: _Append) -> Row:
        if item.error is not None:
            raise item.error
        assert item.row is not None
        return item.row

    def _send(self, batch: list[_Append]) -> None:
        DB_APPEND_BATCH.observe(len(batch))
        if len(batch) == 1:
            self._alone(batch[0])
            return
        batch.sort(key=lambda item: item.game_id)  # rows claimed in one order everywhere: no deadlock cycle
        failed = False
        try:
            with self._db.connection(writing=True) as conn:
                sql, params = self._combine([(item.sql, item.params) for item in batch])
                try:
                    rows = conn.execute(sql, params).fetchall()
                except psycopg.Error as e:
                    if conn.broken or isinstance(e, psycopg.errors.ReadOnlySqlTransaction):
                        raise  # sent and no word back (OutcomeUnknown), or a server that takes no writes here
                    failed = True  # a statement failed and the transaction rolled back: nothing was written
                else:
                    for item, row in zip(batch, rows, strict=True):
                        item.row = row
        except StoreError as e:  # no connection (nothing sent), or the link broke (nothing or all committed)
            for item in batch:
                item.error = e
            return
        if failed:  # each append again alone, so that each caller gets its own answer
            for item in batch:
                self._alone(item)

    def _alone(self, item: _Append) -> _Append:
        try:
            with self._db.connection(writing=True) as conn:
                item.row = conn.execute(item.sql, item.params).fetchone()
        except Exception as e:
            item.error = e
        return item
