"""One database's capabilities, handed out by one factory.

``open_store(url)`` picks the backend (PostgreSQL for ``postgresql://...``,
an embedded SQLite file otherwise) and returns :class:`Stores`: a small
object whose attributes are the capabilities (the recorders of
:mod:`events.recorders`, each a few methods), all on one pool of
connections.  A caller is handed only the ones it uses, so its signature
says what it touches; only wiring (``service/bootstrap.py``) holds the
whole object.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

from events.integrity.signing import Signer
from events.migrations.apply import Notice, migrate_postgres, migrate_sqlite
from events.migrations.keying import ServerKeying
from events.postgres.timeouts import Timeouts
from events.recorders.capabilities import DEFAULT_SQLITE_NAME, Stores
from events.records import StoreUnavailable
from events.sqlite.connection import create_private

_POSTGRES = ("postgresql://", "postgres://")


def open_store(
    url: str | None,
    data_dir: str | Path | None = None,
    *,
    pool_size: int = 10,
    group_commit: int = 1,
    read_url: str | None = None,
    signer: Signer | None = None,
    keying: ServerKeying | None = None,
    timeouts: Timeouts | None = None,
) -> Stores:
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
    serves :attr:`Stores.reader` (with a pool of its own, of the same size).
    ``timeouts`` bound every wait on PostgreSQL (:mod:`events.postgres.timeouts`;
    its defaults when None).

    ``signer`` signs every event the store writes (:mod:`events.integrity.signing`).
    ``keying`` (what the server's secret makes) converts what an embedded store
    holds from before keyed token hashes, sealed webhook secrets and MAC'd
    deliveries, once (:mod:`events.migrations.keying`; PostgreSQL: ``cablecar migrate``).
    Raises ``ValueError`` for any other scheme and StoreUnavailable if a
    SQLite file cannot be opened."""
    if read_url and not (url and url.startswith(_POSTGRES) and read_url.startswith(_POSTGRES)):
        raise ValueError("a read replica (CABLECAR_READ_DATABASE_URL) needs PostgreSQL: set DATABASE_URL "
                         "to the primary and the read URL to a standby of it, both postgresql://...")
    if url and url.startswith(_POSTGRES):
        if pool_size < 1:
            raise ValueError(f"a connection pool holds at least one connection, not {pool_size}")
        if group_commit < 0:
            raise ValueError(f"group commit (CABLECAR_DB_GROUP_COMMIT) takes 0 (off) or more statements in flight, "
                             f"not {group_commit}")
        return postgres_stores(url, pool_size=pool_size, read_url=read_url or None, signer=signer,
                               timeouts=timeouts, group_commit=min(group_commit, pool_size))
    return sqlite_stores(sqlite_path(url, data_dir), signer=signer, keying=keying)


def sqlite_path(url: str | None, data_dir: str | Path | None) -> Path:
    """The SQLite file ``url`` names (``sqlite:///...``), or the default one in ``data_dir``."""
    if url and url.startswith("sqlite:///"):
        return Path(url[len("sqlite:///"):])
    if url:
        raise ValueError(f"unsupported event store URL {url!r} (use postgresql://... or sqlite:///path)")
    if data_dir is None:
        raise ValueError("no event store URL and no data folder for the embedded one")
    return Path(data_dir) / DEFAULT_SQLITE_NAME


def sqlite_stores(path: str | Path, *, signer: Signer | None = None, keying: ServerKeying | None = None,
                  **options: Any) -> Stores:
    """The embedded store's capabilities on the SQLite file at ``path`` (its
    folder created); ``options`` go to :class:`~events.sqlite.database.SqliteDatabase`
    (``poll_interval`` to the event log)."""
    from events.sqlite.stores import sqlite_capabilities

    Path(path).parent.mkdir(parents=True, exist_ok=True)
    return sqlite_capabilities(path, signer=signer, keying=keying, **options)


def postgres_stores(url: str, *, read_url: str | None = None, **options: Any) -> Stores:
    """The production store's capabilities on PostgreSQL at ``url`` (a hot
    standby at ``read_url`` serving the reader); ``options`` go to
    :class:`~events.postgres.database.PostgresDatabase`."""
    from events.postgres.stores import postgres_capabilities

    return postgres_capabilities(url, read_url=read_url, **options)


def migrate(url: str, app_role: str | None = None, keying: ServerKeying | None = None,
            notice: Notice | None = None) -> list[str]:
    """Bring the database at ``url`` up to date; return the names applied now.

    ``url`` is a ``postgresql://`` / ``postgres://`` URL or ``sqlite:///path``
    (as in SQLAlchemy and :func:`events.open_store`: ``sqlite:///rel/path`` is
    relative to the current folder, ``sqlite:////abs/path`` absolute).
    Idempotent (a second call returns ``[]``) and safe to run concurrently.
    Raises StoreUnavailable if the database cannot be reached and
    MigrationError if its recorded migrations do not match the shipped files.
    ``app_role`` (PostgreSQL only): the role the server runs as, granted
    what it needs (:mod:`events.migrations.roles`).  ``keying`` converts, once,
    what was stored before keyed token hashes, sealed webhook secrets and
    MAC'd deliveries (:mod:`events.migrations.keying`); without it, a database
    holding such rows is refused.  ``notice`` is told the rows found in the
    old form later (left unusable; default: the log)."""
    if url.startswith(("postgresql://", "postgres://")):
        return migrate_postgres(url, app_role=app_role, keying=keying, notice=notice)
    if app_role is not None:
        raise ValueError("--app-role is for PostgreSQL: the embedded SQLite store has no roles")
    if url.startswith("sqlite:///"):
        path = url[len("sqlite:///") :]
        try:
            create_private(path)
            conn = sqlite3.connect(path, timeout=30.0, isolation_level=None)
        except (sqlite3.Error, OSError) as e:
            raise StoreUnavailable(f"cannot open SQLite database {str(Path(path).absolute())!r}: {e}") from e
        try:
            return migrate_sqlite(conn, keying, notice)
        finally:
            conn.close()
    raise ValueError(f"unsupported database URL {url!r}")
