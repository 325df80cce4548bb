"""Event storage: append-only, hash-chained game events.

``open_store(url)`` picks the backend: PostgreSQL for production
(``postgresql://...``), an embedded SQLite file otherwise, and returns a
:class:`~events.database.Database`: the event log and game catalogue
(:mod:`events.records`, with the errors), tournaments (:mod:`events.recorders.tournaments`)
and the webhook delivery log (:mod:`events.recorders.deliveries`).  Hashing is in
:mod:`events.integrity.envelope`; domain <-> stored conversion (with upcasting) in
:mod:`events.encoding.codec`.
"""

from __future__ import annotations

from pathlib import Path

from events.database import Database
from events.integrity.signing import Signer
from events.migrations.tokenkeys import Rekey
from events.postgres.timeouts import Timeouts
from events.recorders.event_log import EventReader, EventStore

DEFAULT_SQLITE_NAME = "cablecar.sqlite3"


def open_store(
    url: str | None,
    data_dir: str | Path | None = None,
    *,
    pool_size: int = 10,
    group_commit: int = 1,
    read_url: str | None = None,
    signer: Signer | None = None,
    rekey: Rekey | None = None,
    timeouts: Timeouts | None = None,
) -> Database:
    """Open the event store named by ``url``.

    * ``postgresql://...`` or ``postgres://...``: PostgreSQL (schema migrated
      on first use), with at most ``pool_size`` pooled connections and at
      most ``group_commit`` statements of batched appends in flight at once
      (:mod:`events.postgres.groupcommit`; 0: every append alone; more than
      ``pool_size`` counts as ``pool_size``);
    * ``sqlite:///path/to/file``: that SQLite file (its folder is created);
      as in SQLAlchemy, ``sqlite:///rel/path`` is relative to the current
      folder and ``sqlite:////abs/path`` (four slashes) absolute;
    * ``None`` (or empty): the SQLite file ``<data_dir>/cablecar.sqlite3``
      (the folder is the caller's to choose: no default here, since one
      relative to the current directory would silently split a store).

    ``read_url`` (PostgreSQL only) names a hot standby of ``url`` that
    serves the database's :attr:`~events.database.Database.reader` (with a
    pool of its own, of the same size).  ``timeouts`` bound every wait on
    PostgreSQL (:mod:`events.postgres.timeouts`; its defaults when None).

    ``signer`` signs every event the store writes (:mod:`events.integrity.signing`).
    ``rekey`` keys the token hashes an embedded store holds from before they
    were keyed (:mod:`events.migrations.tokenkeys`; PostgreSQL: ``cablecar migrate``).
    Raises ``ValueError`` for any other scheme and StoreUnavailable if a
    SQLite file cannot be opened."""
    postgres = ("postgresql://", "postgres://")
    if read_url and not (url and url.startswith(postgres) and read_url.startswith(postgres)):
        raise ValueError("a read replica (CABLECAR_READ_DATABASE_URL) needs PostgreSQL: set DATABASE_URL "
                         "to the primary and the read URL to a standby of it, both postgresql://...")
    if url and url.startswith(postgres):
        from events.postgres import PostgresStore

        if pool_size < 1:
            raise ValueError(f"a connection pool holds at least one connection, not {pool_size}")
        if group_commit < 0:
            raise ValueError(f"group commit (CABLECAR_DB_GROUP_COMMIT) takes 0 (off) or more statements in flight, "
                             f"not {group_commit}")
        return PostgresStore(url, max_size=pool_size, read_url=read_url or None, signer=signer,
                             timeouts=timeouts, group_commit=min(group_commit, pool_size))
    if url and url.startswith("sqlite:///"):
        path = Path(url[len("sqlite:///") :])
    elif not url:
        if data_dir is None:
            raise ValueError("no event store URL and no data folder for the embedded one")
        path = Path(data_dir) / DEFAULT_SQLITE_NAME
    else:
        raise ValueError(f"unsupported event store URL {url!r} (use postgresql://... or sqlite:///path)")
    from events.sqlite import SqliteStore

    path.parent.mkdir(parents=True, exist_ok=True)
    return SqliteStore(path, signer=signer, rekey=rekey)


__all__ = ["DEFAULT_SQLITE_NAME", "Database", "EventReader", "EventStore", "open_store"]
