"""The hashes a seat's token rotations replaced, on both SQL backends (issue 48).

A seat's token hash changes only with the ``seat_token_rotated`` event that
records it, in the same write, and that write keeps the hash it replaces in
``seat_token_rotations`` (one row per game, seat and epoch: the rotation
event's seq, which is also the epoch of the new hash).  The database cannot
check the event's signature, so a login alone can still plant a hash with an
event of its own; with the hash before kept:

* the server takes a rotated hash only when its event verifies, and falls
  back to the one before otherwise (``service.usecases.seat_tokens``:
  :meth:`~events.recorders.event_log.EventStore.seat_hash_before`);
* ``cablecar quarantine``, moving a tail aside, puts back each seat's hash
  from before the first rotation it moves (:func:`restore_seat_hashes`, in
  the quarantine's transaction).

PostgreSQL writes the row in ``cablecar_rotate_seat_token_timed`` (migration
0095: the app role only reads the table); SQLite in its append
(:func:`record_rotation`).  An epoch used again (its first rotation was moved
aside) keeps the hash replaced the second time.
"""

from __future__ import annotations

from events.sql.database import Cursor
from events.sql.dialect import Dialect
from events.sql.rows import metadata_json

#: what a keyed hash begins with (``service.adapters.tokens``; plain ones never rotate)
KEYED_PREFIX = "k1:"

_RECORD = ("INSERT INTO seat_token_rotations (game_id, seat, epoch, previous_hash) VALUES (?, ?, ?, ?)"
           " ON CONFLICT (game_id, seat, epoch) DO UPDATE SET previous_hash = excluded.previous_hash")
_BEFORE = "SELECT previous_hash FROM seat_token_rotations WHERE game_id = ? AND seat = ? AND epoch = ?"


def record_rotation(cur: Cursor, dialect: Dialect, game_id: str, seat: int, epoch: int, previous: str) -> None:
    """Keep ``previous``, the hash the rotation of ``seat`` at ``epoch`` replaces (inside its append)."""
    cur.execute(dialect.sql(_RECORD), (game_id, seat, epoch, previous))


def hash_before(cur: Cursor, dialect: Dialect, game_id: str, seat: int, epoch: int) -> str | None:
    """The hash the rotation of ``seat`` at ``epoch`` replaced (None: no such rotation kept)."""
    row = cur.execute(dialect.sql(_BEFORE), (game_id, seat, epoch)).fetchone()
    return None if row is None else str(row[0])


def epoch_of(stored: object) -> int | None:
    """The epoch of a keyed hash (``k1:<epoch>:<hex>``), None for anything else."""
    if not isinstance(stored, str) or not stored.startswith(KEYED_PREFIX):
        return None
    epoch = stored[len(KEYED_PREFIX):].partition(":")[0]
    return int(epoch) if epoch.isdigit() else None


def restore_seat_hashes(cur: Cursor, dialect: Dialect, game_id: str, from_seq: int) -> list[int]:
    """Inside a quarantine's transaction (events ``from_seq`` on moved
    aside): give each seat whose hash a moved rotation set the hash it had
    before the first of them; the seats changed.  A seat whose hash before was
    not kept (rotated before migration 0095) keeps its hash."""
    row = cur.execute(dialect.sql("SELECT metadata FROM games WHERE game_id = ?"), (game_id,)).fetchone()
    metadata = dict(dialect.json_value(row[0]))
    hashes = metadata.get("seat_token_hashes")
    if not isinstance(hashes, list):
        return []
    restored = []
    for seat, stored in enumerate(hashes):
        current = stored
        while (epoch := epoch_of(current)) is not None and epoch >= from_seq:
            current = hash_before(cur, dialect, game_id, seat, epoch)
        if current is not None and current != stored:
            hashes[seat] = current
            restored.append(seat)
    if restored:
        cast = "::jsonb" if dialect.native_types else ""
        cur.execute(dialect.sql(f"UPDATE games SET metadata = ?{cast} WHERE game_id = ?"),
                    (metadata_json(metadata), game_id))
    return restored
