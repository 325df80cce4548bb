"""What the server's own PostgreSQL role (the *app role*) may do, granted by
``cablecar migrate --app-role NAME`` (run as the role that owns the schema).

The app role reads every table, but writes the event log (``events``), the
game catalogue (``games``) and the idempotency keys only through the
``SECURITY DEFINER`` functions of migrations 0011/0012, which run as the
owner: it holds no INSERT, UPDATE, DELETE or TRUNCATE on them (nor on
``quarantined_events``, which only ``cablecar quarantine`` run as the owner
writes: migration 0045; nor on the transparency log's tables, which only
``cablecar_log_publish`` writes: migration 0085; nor on ``seat_token_rotations``,
the hashes the rotations replaced, which only the owner's rotation function
writes: migration 0095), owns nothing,
and may create nothing in the schema, so no setting, trigger or grant it can
reach lets a row in.  The other tables get the few privileges the server's
statements use (``events/sql/*.py``, ``events/postgres/*.py``); a table not
named here gets SELECT only, so the server's writes to a new table fail
loudly (permission denied) until the table is added to :data:`WRITES`.

Every grant is made again on each run, after revoking everything first: the
result is the same whatever the role held before.
"""

from __future__ import annotations

from typing import Any

from events.records import IntegrityError

#: table -> the privileges the server needs beyond SELECT
WRITES: dict[str, tuple[str, ...]] = {
    "events": (),
    "games": (),
    "idempotency_keys": (),
    "schema_migrations": (),
    "game_watches": ("DELETE",),  # rows are added by cablecar_watch_game; listeners sweep their own
    "organisers": ("INSERT",),
    "batches": ("INSERT",),
    "webhooks": ("INSERT", "UPDATE"),
    "webhook_deliveries": ("INSERT", "UPDATE"),
    "webhook_attempts": ("INSERT",),
    "dispatch_cursors": ("UPDATE",),
    "deadlines": ("INSERT", "UPDATE"),
    "leases": ("INSERT", "UPDATE"),
    "bot_turns": ("INSERT", "UPDATE"),
    "log_leaves": (),  # the transparency log: written only by cablecar_log_publish (migration 0085)
    "log_nodes": (),
    "log_checkpoints": (),
    "log_state": (),
    "log_foreign_rows": (),
    "stream_tickets": ("INSERT", "DELETE"),  # single-use: taken with DELETE ... RETURNING (migration 0060)
    "quarantined_events": (),  # read by /audit; moved into only by the owner (cablecar quarantine)
    "seat_token_rotations": (),  # written only by cablecar_rotate_seat_token_timed (migration 0095)
}

#: the tables only the owner writes (through its functions; quarantined_events by `cablecar quarantine`)
PROTECTED = ("events", "games", "idempotency_keys", "quarantined_events", "log_leaves", "log_nodes",
             "log_checkpoints", "log_state", "log_foreign_rows", "seat_token_rotations")


class RoleError(IntegrityError):
    """The app role cannot be granted safely (a superuser, the owner itself, a
    member of the owner, a role that may create objects in the schema)."""


def _one(conn: Any, sql: str, params: tuple[Any, ...] = ()) -> Any:
    row = conn.execute(sql, params).fetchone()
    return None if row is None else row[0]


def check_app_role(conn: Any, role: str) -> None:
    """Refuse a role that could write around the owner's functions."""
    owner = _one(conn, "SELECT current_user")
    found = conn.execute("SELECT rolsuper, rolbypassrls FROM pg_roles WHERE rolname = %s", (role,)).fetchone()
    if found is None:
        raise RoleError(f"role {role!r} does not exist: create it first (CREATE ROLE {role} LOGIN PASSWORD '...')")
    if role == owner:
        raise RoleError(f"the app role must not be the owner {owner!r} that runs the migrations")
    if found[0]:
        raise RoleError(f"role {role!r} is a superuser: a superuser can write anything; use an ordinary role")
    if _one(conn, "SELECT pg_has_role(%s, current_user, 'MEMBER')", (role,)):
        raise RoleError(f"role {role!r} is a member of the owner {owner!r}: it would hold the owner's rights")
    if _one(conn, "SELECT has_schema_privilege(%s, 'public', 'CREATE')", (role,)):
        # PostgreSQL before 15 lets every role create in public: take that back if we may
        if _one(conn, "SELECT nspowner = (SELECT oid FROM pg_roles WHERE rolname = current_user)"
                      " FROM pg_namespace WHERE nspname = 'public'"):
            conn.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
        if _one(conn, "SELECT has_schema_privilege(%s, 'public', 'CREATE')", (role,)):
            raise RoleError(
                f"role {role!r} may create objects in schema public (PostgreSQL before 15 grants that to "
                "everyone): as a superuser, run REVOKE CREATE ON SCHEMA public FROM PUBLIC"
            )


def grant_app_role(conn: Any, role: str) -> list[str]:
    """Grant ``role`` what the server needs (see the module docs); return the
    names of tables it may only read though not named in :data:`WRITES`."""
    from psycopg import sql

    check_app_role(conn, role)
    who = sql.Identifier(role)
    tables = [r[0] for r in conn.execute(
        "SELECT c.relname FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
        " WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p', 'v') ORDER BY c.relname"
    ).fetchall()]
    functions = [r[0] for r in conn.execute(
        "SELECT p.oid::regprocedure::text FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace"
        " WHERE n.nspname = 'public' AND p.prosecdef ORDER BY 1"
    ).fetchall()]
    with conn.transaction():
        conn.execute(sql.SQL("REVOKE ALL ON ALL TABLES IN SCHEMA public FROM {}").format(who))
        conn.execute(sql.SQL("REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM {}").format(who))
        conn.execute(sql.SQL("REVOKE ALL ON ALL FUNCTIONS IN SCHEMA public FROM {}").format(who))
        conn.execute(sql.SQL("GRANT USAGE ON SCHEMA public TO {}").format(who))
        for table in tables:
            privileges = ("SELECT", *WRITES.get(table, ()))
            conn.execute(sql.SQL("GRANT {} ON TABLE {} TO {}").format(
                sql.SQL(", ").join(sql.SQL(p) for p in privileges), sql.Identifier(table), who))
        for function in functions:  # regprocedure text is a qualified, quoted signature
            conn.execute(sql.SQL("GRANT EXECUTE ON FUNCTION {} TO {}").format(sql.SQL(function), who))
    return [t for t in tables if t not in WRITES]
