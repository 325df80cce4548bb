"""Inside one append: every statement the append functions run, timed by
PostgreSQL itself (``pg_stat_statements`` with ``track = all``, so statements
inside PL/pgSQL count too), and their plans (``auto_explain`` with nested
statements and ``ANALYZE``).

It starts a private PostgreSQL (``scripts/test-services.sh`` under
``--services-dir``), preloads ``pg_stat_statements`` (a restart), creates and
migrates a fresh database, and appends the events of real scripted ttr-sf
games through the event store (``events.factory.postgres_stores``) exactly
as the service does (an Idempotency-Key, the request hash, the status, the
seat-token guard), one client.  It prints, per append: calls and mean ms of
every statement, the server time of the append functions
(``track_functions``), and the plans of the last single-event and batch
appends.  Run it from two checkouts (or before and after a migration) to see
what a change saved:

    python bench/bench_append_profile.py --appends 2000
"""

from __future__ import annotations

import argparse
import re
import secrets
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg  # noqa: E402

from bench.load.scripts import make_script  # noqa: E402
from bench.load.stack import Services  # noqa: E402
from events.factory import postgres_stores  # noqa: E402
from events.integrity.signing import Signer  # noqa: E402
from events.records import AppendOptions, MetadataGuard  # noqa: E402

#: the guard the service puts on an action (a seat's token hash in the game row)
TOKEN_HASH = "a" * 64


def _workload(url: str, appends: int) -> tuple[int, int]:
    """Append the actions of scripted games until ``appends`` appends are made;
    (appends, events) written."""
    stores = postgres_stores(url, max_size=1, signer=Signer.generate())
    store = stores.events
    made = events = 0
    n = 0
    try:
        while made < appends:
            script = make_script(f"profile-{n}")
            game_id = f"g{n}-{secrets.token_hex(3)}"
            metadata = {"seat_token_hashes": [TOKEN_HASH] * len(script.players)}
            store.create_game(game_id, script.game_type, metadata, [e.as_new() for e in script.setup], "setup")
            version = len(script.setup)
            for i, action in enumerate(script.actions):
                batch = [e.as_new() for e in action.events]
                store.append(game_id, version, batch, AppendOptions(
                    idempotency_key=f"k{i}", request_hash="h" * 64, status=action.status,
                    guard=MetadataGuard(("seat_token_hashes", action.seat), TOKEN_HASH)))
                version += len(batch)
                made += 1
                events += len(batch)
                if made >= appends:
                    break
            n += 1
    finally:
        stores.close()
    return made, events


def _short(query: str, width: int = 150) -> str:
    flat = re.sub(r"\s+", " ", query).strip()
    return flat if len(flat) <= width else flat[: width - 1] + "…"


def _plans(log: Path, since: int) -> list[str]:
    """The auto_explain plans written to the server log after byte ``since``."""
    text = log.read_bytes()[since:].decode(errors="replace")
    blocks = re.split(r"\n(?=\S.*?LOG:)", text)
    return [b for b in blocks if "duration:" in b and "Query Text:" in b]


def main() -> None:
    """Measure and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--appends", type=int, default=2000, help="appends to time")
    parser.add_argument("--services-dir", default="/tmp/cablecar-sqlprofile-services")
    parser.add_argument("--keep-services", action="store_true", help="leave the private servers running")
    args = parser.parse_args()
    state_dir = Path(args.services_dir)
    state_dir.mkdir(parents=True, exist_ok=True)
    services = Services.up(state_dir)
    try:
        with psycopg.connect(services.base_database_url, autocommit=True) as admin:
            admin.execute("ALTER SYSTEM SET shared_preload_libraries = 'pg_stat_statements'")
        services.restart_postgres()
        url = services.fresh_database()
        name = url.rsplit("/", 1)[1]
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("CREATE EXTENSION IF NOT EXISTS pg_stat_statements")
            for setting in ("pg_stat_statements.track = 'all'", "track_functions = 'all'"):
                conn.execute(f'ALTER DATABASE "{name}" SET {setting}'.encode())
        _workload(url, 50)  # warm up: plans cached, functions compiled
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("SELECT pg_stat_statements_reset()")
            conn.execute("SELECT pg_stat_reset()")
        appends, events = _workload(url, args.appends)
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("SELECT pg_stat_force_next_flush()")
            statements = conn.execute(
                "SELECT s.toplevel, s.calls, s.total_exec_time, s.rows, s.query FROM pg_stat_statements s"
                " JOIN pg_database d ON d.oid = s.dbid WHERE d.datname = current_database()"
                " AND s.query NOT ILIKE '%pg_stat%' ORDER BY s.toplevel DESC, s.total_exec_time DESC"
            ).fetchall()
            tables = conn.execute(
                "SELECT relname, n_tup_ins, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables"
                " WHERE relname IN ('games', 'events', 'idempotency_keys') ORDER BY relname"
            ).fetchall()
            functions = conn.execute(
                "SELECT funcname, calls, total_time, self_time FROM pg_stat_user_functions WHERE calls > 0"
                " ORDER BY total_time DESC"
            ).fetchall()
        print(f"# Inside the append ({appends:,} appends of real ttr-sf actions, {events:,} events, "
              f"{events / appends:.2f} events per append)\n")
        print("## Statements (pg_stat_statements, track = all)\n")
        print("| level | calls per append | ms per call | ms per append | statement |")
        print("|---|---|---|---|---|")
        for toplevel, calls, total, _rows, query in statements:
            print(f"| {'top' if toplevel else 'nested'} | {calls / appends:.2f} | {total / calls:.4f} |"
                  f" {total / appends:.4f} | `{_short(query)}` |")
        print("\n## Functions (track_functions = all)\n")
        print("| function | calls per append | total ms per call | self ms per call |")
        print("|---|---|---|---|")
        for fname, calls, total, self_time in functions:
            print(f"| {fname} | {calls / appends:.2f} | {total / calls:.4f} | {self_time / calls:.4f} |")
        print("\n## Tables (pg_stat_user_tables; a HOT update writes no index entry)\n")
        print("| table | rows inserted | rows updated | of which HOT |")
        print("|---|---|---|---|")
        for relname, ins, upd, hot in tables:
            print(f"| {relname} | {ins:,} | {upd:,} | {hot:,} ({hot / upd:.0%}) |" if upd else
                  f"| {relname} | {ins:,} | 0 | |")
        # plans: auto_explain for this database's new sessions, then a few appends
        log = services.pg_dir / "postgres.log"
        since = log.stat().st_size if log.exists() else 0
        with psycopg.connect(url, autocommit=True) as conn:
            for setting in ("session_preload_libraries = 'auto_explain'", "auto_explain.log_min_duration = 0",
                            "auto_explain.log_nested_statements = on", "auto_explain.log_analyze = on",
                            "auto_explain.log_buffers = on", "auto_explain.log_triggers = on"):
                conn.execute(f'ALTER DATABASE "{name}" SET {setting}'.encode())
        _workload(url, 3)
        plans = _plans(log, since)
        print("\n## Plans of the last appends (auto_explain, nested statements, ANALYZE)\n")
        print("```")
        for block in plans[-14:]:
            print(re.sub(r"^.*?LOG:\s*", "", block.strip(), count=1))
        print("```")
        services.drop_database(url)
    finally:
        with psycopg.connect(services.base_database_url, autocommit=True) as admin:
            admin.execute("ALTER SYSTEM RESET shared_preload_libraries")
        if not args.keep_services:
            services.down()


if __name__ == "__main__":
    main()
