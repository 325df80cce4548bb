"""Versioned schema migrations.

The schema lives in plain SQL files, ``events/migrations/<dialect>/NNNN_name.sql``,
applied in name order.  Each applied file is recorded in ``schema_migrations``
(name, SHA-256 of its text, time applied); a recorded file whose text has
changed since is refused (:class:`MigrationError`): an applied migration is
never edited, the change goes in a new file.

PostgreSQL: :func:`migrate` holds a session-level advisory lock while it
works, so concurrent invocations (several service instances starting at once)
apply each file exactly once; each file runs in its own transaction together
with its ``schema_migrations`` row.  SQLite: :func:`migrate_sqlite` runs under
``BEGIN IMMEDIATE`` (the database write lock) for the same effect.

Baselines
    A file named ``NNNN_baseline.sql`` stands for every ordinary migration
    whose name sorts before it, in a form a fresh database can take where
    those files cannot (``0010_baseline.sql`` is 0001-0009 without what only
    a superuser may do; see its header).  A FRESH database (nothing recorded
    in ``schema_migrations``) gets the newest baseline, recorded under its own
    name, then the ordinary files sorting after it.  A database that has
    recorded anything never runs a baseline: it gets the ordinary files it
    has not recorded, and the files before a baseline it recorded count as
    applied.  A baseline must leave exactly the schema its files leave (up
    to what the next ordinary migration makes equal), so every database ends
    up the same.  :func:`pending` is that plan.

Conversions done once
    A migration that makes rows need what only the server's secret makes
    (keyed token hashes, sealed webhook secrets, MAC'd deliveries) converts
    the rows stored before it in its own transaction (:data:`ONCE`), and
    never again: what is found later in the old form is left unusable and
    named (:func:`leftovers`, said through ``notice``).

Roles
    ``migrate_postgres(url, app_role=NAME)`` then grants the role ``NAME``
    exactly what the server needs (:mod:`events.migrations.roles`); the server
    itself never migrates PostgreSQL, it only checks that nothing is pending
    (:func:`check_postgres_schema`).
"""

from __future__ import annotations

import hashlib
import logging
import sqlite3
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any

from events.encoding.timestamps import format_timestamp, system_clock
from events.migrations.keying import NoServerSecret, ServerKeying
from events.migrations.tokenkeys import key_plain_hashes, plain_hash_rows
from events.migrations.webhookkeys import seal_webhooks, unsealed_rows
from events.records import IntegrityError, StoreUnavailable

#: What is done once, with the server's secret, in the transaction of the
#: migration that introduced it (:mod:`events.migrations.keying`): per
#: dialect, the migration's name and the conversion of the rows stored before
#: (``(cursor, dialect, keying) -> rows changed``).
ONCE: dict[str, dict[str, Callable[[Any, str, ServerKeying | None], int]]] = {
    "postgres": {"0040_who_may_act.sql": key_plain_hashes, "0095_tokens_and_webhooks_custody.sql": seal_webhooks},
    "sqlite": {"0020_keyed_token_hashes.sql": key_plain_hashes, "0070_tokens_and_webhooks_custody.sql": seal_webhooks},
}

#: Says what a migration left unusable (rows in the old form, written by a login without the server's secret).
Notice = Callable[[str], None]

log = logging.getLogger("cablecar.migrate")

#: Advisory lock key (any constant bigint) serialising PostgreSQL migrations.
MIGRATION_LOCK_KEY = 0x0CAB1E_CA4_0001

_CREATE_TABLE = (
    "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " name text PRIMARY KEY, checksum text NOT NULL, applied_at text NOT NULL)"
)


class MigrationError(IntegrityError):
    """The database's recorded migrations do not match the files shipped."""


@dataclass(frozen=True)
class Migration:
    """One schema file: its name (``0001_init.sql``), SQL text and checksum."""

    name: str
    sql: str

    @property
    def checksum(self) -> str:
        """SHA-256 hex of the file's text."""
        return hashlib.sha256(self.sql.encode("utf-8")).hexdigest()


def load_migrations(dialect: str) -> list[Migration]:
    """The migrations shipped for ``dialect`` (``postgres`` or ``sqlite``), in order."""
    if dialect not in ("postgres", "sqlite"):
        raise ValueError(f"unknown dialect {dialect!r}")
    folder = resources.files("events").joinpath("migrations", dialect)
    files = sorted((entry for entry in folder.iterdir() if entry.name.endswith(".sql")), key=lambda e: e.name)
    return [Migration(entry.name, entry.read_text(encoding="utf-8")) for entry in files]


def is_baseline(name: str) -> bool:
    """Whether a migration file is a baseline (see the module docs)."""
    return name.endswith("_baseline.sql")


def pending(recorded: dict[str, str], shipped: list[Migration]) -> list[Migration]:
    """The shipped migrations still to apply, in order (baselines as in the
    module docs); raises MigrationError on drift."""
    by_name = {m.name: m for m in shipped}
    for name, checksum in recorded.items():
        migration = by_name.get(name)
        if migration is None:
            raise MigrationError(f"the database has migration {name!r}, which this code does not ship")
        if migration.checksum != checksum:
            raise MigrationError(f"migration {name!r} was changed after it was applied")
    baselines = [m.name for m in shipped if is_baseline(m.name)]
    if not recorded and baselines:
        start = baselines[-1]
        return [by_name[start], *(m for m in shipped if m.name > start and not is_baseline(m.name))]
    covered = max((name for name in recorded if is_baseline(name)), default="")
    return [m for m in shipped if m.name not in recorded and not is_baseline(m.name) and m.name > covered]



def _now_text() -> str:
    return format_timestamp(system_clock())


def migrate_postgres(
    url: str, connect_timeout: float = 5.0, app_role: str | None = None, keying: ServerKeying | None = None,
    notice: Notice | None = None,
) -> list[str]:
    """Apply the pending PostgreSQL migrations (each with its conversion
    done once, :data:`ONCE`, by ``keying``), then grant ``app_role`` (if
    given) what the server needs (see :func:`migrate`); what is left
    unusable is said through ``notice`` (default: this module's log)."""
    import psycopg

    from events.migrations.roles import grant_app_role

    shipped = load_migrations("postgres")
    try:
        conn = psycopg.connect(url, autocommit=True, connect_timeout=max(1, int(connect_timeout)))
    except psycopg.Error as e:
        raise StoreUnavailable(f"cannot connect to PostgreSQL: {e}") from e
    applied: list[str] = []
    try:
        with conn:
            conn.execute("SELECT pg_advisory_lock(%s)", (MIGRATION_LOCK_KEY,))
            try:
                conn.execute(_CREATE_TABLE)
                rows = conn.execute("SELECT name, checksum FROM schema_migrations").fetchall()
                for migration in pending(dict(rows), shipped):
                    with conn.transaction():
                        conn.execute(migration.sql.encode("utf-8"))
                        _convert_once(conn, "postgres", migration.name, keying)
                        conn.execute(
                            "INSERT INTO schema_migrations (name, checksum, applied_at) VALUES (%s, %s, %s)",
                            (migration.name, migration.checksum, _now_text()),
                        )
                    applied.append(migration.name)
                _tell(leftovers(conn, "postgres"), notice)
                if app_role is not None:
                    grant_app_role(conn, app_role)
            finally:
                conn.execute("SELECT pg_advisory_unlock(%s)", (MIGRATION_LOCK_KEY,))
    except NoServerSecret as e:
        raise MigrationError(str(e)) from e
    except psycopg.OperationalError as e:
        raise StoreUnavailable(f"PostgreSQL failed during migration: {e}") from e
    except psycopg.Error as e:
        raise MigrationError(f"migration failed: {e}") from e
    return applied


def _convert_once(cur: Any, dialect: str, name: str, keying: ServerKeying | None) -> None:
    """The conversion ``name`` introduced (:data:`ONCE`), in its transaction."""
    convert = ONCE[dialect].get(name)
    if convert is not None:
        convert(cur, dialect, keying)


def leftovers(cur: Any, dialect: str) -> list[str]:
    """The rows in a form a conversion of :data:`ONCE` would have changed,
    found after it was done: written since by a login without the server's
    secret, they are never converted; each is unusable as it is."""
    tokens = [f"{row}: its token hash is not keyed, so it authenticates nobody" for row in plain_hash_rows(cur, dialect)]
    return tokens + [f"{row}: its secret is not sealed, so nothing is sent to it" for row in unsealed_rows(cur, dialect)]


def _tell(found: list[str], notice: Notice | None) -> None:
    if not found:
        return
    text = (f"{len(found)} row(s) hold what only the server's secret makes in a form it never wrote (put there "
            "by a database login, not by the server): left as they are, never converted: " + "; ".join(found))
    (notice or log.warning)(text)


class SchemaNotMigrated(StoreUnavailable):
    """The PostgreSQL schema is missing or older than this code: the server
    does not migrate it, ``cablecar migrate`` (run as the owner) does."""


#: what to run, in every message saying the schema is not ready
MIGRATE_COMMAND = "cablecar migrate --database-url OWNER_URL --app-role APP_ROLE"


def check_postgres_schema(conn: Any) -> None:
    """Raise :class:`SchemaNotMigrated` unless every shipped migration is
    recorded on ``conn`` (psycopg, autocommit); MigrationError on drift.
    Reads only (the app role may SELECT schema_migrations)."""
    import psycopg

    try:
        rows = conn.execute("SELECT name, checksum FROM schema_migrations").fetchall()
    except psycopg.errors.UndefinedTable:
        raise SchemaNotMigrated(f"the database has no cablecar schema yet: run `{MIGRATE_COMMAND}`") from None
    except psycopg.errors.InsufficientPrivilege:
        raise SchemaNotMigrated(
            f"this role may not read the schema's version: run `{MIGRATE_COMMAND}` with this role as APP_ROLE"
        ) from None
    todo = pending(dict(rows), load_migrations("postgres"))
    if todo:
        names = ", ".join(m.name for m in todo)
        raise SchemaNotMigrated(f"the database schema is not up to date ({names} pending): run `{MIGRATE_COMMAND}`")


def split_sqlite_script(script: str) -> list[str]:
    """Split a SQLite script into statements (a statement ends with ``;`` at
    the end of a line; trigger bodies are kept whole by ``complete_statement``)."""
    statements: list[str] = []
    buffer = ""
    for line in script.splitlines(keepends=True):
        buffer += line
        if buffer.rstrip().endswith(";") and sqlite3.complete_statement(buffer):
            statement = buffer.strip()
            if statement.strip(";").strip() and not _only_comments(statement):
                statements.append(statement)
            buffer = ""
    if buffer.strip() and not _only_comments(buffer):
        raise MigrationError(f"incomplete SQL statement at the end of the script: {buffer.strip()[:60]!r}")
    return statements


def _only_comments(text: str) -> bool:
    return all(not line.strip() or line.strip().startswith("--") for line in text.splitlines())


def migrate_sqlite(conn: sqlite3.Connection, keying: ServerKeying | None = None,
                   notice: Notice | None = None) -> list[str]:
    """Apply the pending SQLite migrations on ``conn`` (autocommit mode), each
    with its conversion done once (:data:`ONCE`; MigrationError if there are
    rows to convert and ``keying`` is None); what is left unusable is said
    through ``notice`` (default: this module's log), looked for when a
    migration was applied (the store opens at every start: no scan then).

    Everything happens in one ``BEGIN IMMEDIATE`` transaction, so concurrent
    openers (threads or processes) apply each file exactly once."""
    shipped = load_migrations("sqlite")
    applied: list[str] = []
    cursor: Any = conn.cursor()
    try:
        cursor.execute("BEGIN IMMEDIATE")
        try:
            cursor.execute(_CREATE_TABLE)
            recorded = dict(cursor.execute("SELECT name, checksum FROM schema_migrations").fetchall())
            for migration in pending(recorded, shipped):
                for statement in split_sqlite_script(migration.sql):
                    try:
                        cursor.execute(statement)
                    except sqlite3.Error as e:
                        raise MigrationError(f"migration {migration.name} failed: {e}") from e
                try:
                    _convert_once(cursor, "sqlite", migration.name, keying)
                except NoServerSecret as e:
                    raise MigrationError(str(e)) from e
                cursor.execute(
                    "INSERT INTO schema_migrations (name, checksum, applied_at) VALUES (?, ?, ?)",
                    (migration.name, migration.checksum, _now_text()),
                )
                applied.append(migration.name)
            found = leftovers(cursor, "sqlite") if applied else []
            cursor.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                cursor.execute("ROLLBACK")
            raise
    except sqlite3.OperationalError as e:
        raise StoreUnavailable(f"SQLite failed during migration: {e}") from e
    except sqlite3.Error as e:
        raise MigrationError(f"migration failed: {e}") from e
    _tell(found, notice)
    return applied
