"""The restore drill of docs/scaling.md ("Backups"), run: a base backup and
WAL archiving, then a point-in-time restore onto a fresh data folder, checked
the service's way.

On this machine (as root: the servers run as ``postgres``), with the newest
installed PostgreSQL: a primary with ``fsync`` on and ``archive_command``
copying every finished WAL segment to an archive folder; the schema migrated;
games written through the event store (phase A); ``pg_basebackup`` (plain,
``-X none``: the WAL comes from the archive, as in production); more games
(phase B); the target time noted; more games (phase C, after the target);
the WAL switched and archived; the primary stopped for good.  Then the backup
is copied to a new folder with ``recovery.signal``, ``restore_command`` and
``recovery_target_time``, started, and waited for until it opens read-write.
Pass: every game of A and B is there whole with its hash chain intact
(``verify_chain``), no game of C is.  Prints the timings and writes
``bench/results/RESTORE-DRILL.md``.

    python bench/bench_restore_drill.py [--games 40] [--actions 20]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import psycopg  # noqa: E402

from bench.cluster.hosts import pg_bindir  # noqa: E402
from events.factory import migrate, postgres_stores  # noqa: E402
from events.integrity.signing import Signer  # noqa: E402
from events.recorders.event_log import EventStore  # noqa: E402
from events.records import AppendOptions, GameNotFound, NewEvent  # noqa: E402
from tests.contract.standby import free_port  # noqa: E402

REPORT = Path(__file__).resolve().parent / "results" / "RESTORE-DRILL.md"


def _as_postgres() -> list[str]:
    return ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"] if os.geteuid() == 0 else []


def _run(*argv: str) -> None:
    done = subprocess.run([*_as_postgres(), *argv], capture_output=True, text=True, timeout=300)
    if done.returncode:
        raise RuntimeError(f"{argv[0]} failed: {(done.stderr or done.stdout).strip()[-1500:]}")


def _start(data: Path, port: int, log: Path) -> None:
    _run(str(pg_bindir() / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t", "300", "start",
         "-o", f"-p {port} -k {data.parent} -c listen_addresses=127.0.0.1")


def _write_games(store: EventStore, count: int, actions: int, tag: str) -> list[str]:
    made = []
    for _ in range(count):
        game_id = f"{tag}-{uuid.uuid4().hex[:12]}"
        store.create_game(game_id, "drill", {}, [NewEvent("started", {"tag": tag})], "playing")
        for version in range(1, actions + 1):
            store.append(game_id, version, [NewEvent("moved", {"n": version}, 1, 0)],
                         AppendOptions(idempotency_key=f"k{version}"))
        made.append(game_id)
    return made


def _exists(store: EventStore, game_id: str) -> bool:
    try:
        return bool(store.load(game_id))
    except GameNotFound:
        return False


def drill(work: Path, games: int, actions: int) -> list[str]:
    """Run the drill in ``work``; the report's lines."""
    archive, data, base, restored = work / "archive", work / "primary", work / "base", work / "restored"
    for folder in (archive, work):
        folder.mkdir(exist_ok=True)
    if os.geteuid() == 0:
        shutil.chown(work, "postgres", "postgres")
        shutil.chown(archive, "postgres", "postgres")
    bindir = pg_bindir()
    _run(str(bindir / "initdb"), "-D", str(data), "-A", "trust", "-U", "cc", "-E", "UTF8")
    with (data / "postgresql.conf").open("a") as conf:
        conf.write(f"fsync = on\nsynchronous_commit = on\nwal_level = replica\narchive_mode = on\n"
                   f"archive_command = 'test ! -f {archive}/%f && cp %p {archive}/%f'\n"
                   "unix_socket_directories = ''\n")
    port = free_port()
    _start(data, port, work / "primary.log")
    admin = f"postgresql://cc@127.0.0.1:{port}/postgres"
    url = f"postgresql://cc@127.0.0.1:{port}/cablecar"
    with psycopg.connect(admin, autocommit=True) as conn:
        conn.execute("CREATE DATABASE cablecar")
    migrate(url)
    stores = postgres_stores(url, signer=Signer.generate())
    store = stores.events
    try:
        before = _write_games(store, games, actions, "a")
        t0 = time.monotonic()
        _run(str(bindir / "pg_basebackup"), "-h", "127.0.0.1", "-p", str(port), "-U", "cc", "-D", str(base),
             "-X", "none", "-c", "fast")
        backup_seconds = time.monotonic() - t0
        during = _write_games(store, games, actions, "b")
        with psycopg.connect(url, autocommit=True) as conn:
            row = conn.execute("SELECT now()::text").fetchone()
        assert row is not None
        target = str(row[0])
        time.sleep(1.0)
        after = _write_games(store, games, actions, "c")
        with psycopg.connect(url, autocommit=True) as conn:
            conn.execute("SELECT pg_switch_wal()")
            deadline = time.monotonic() + 60
            while time.monotonic() < deadline:
                row = conn.execute("SELECT last_archived_wal, pg_walfile_name(pg_current_wal_lsn()) "
                                   "FROM pg_stat_archiver").fetchone()
                if row is not None and row[0] is not None and row[0] >= row[1]:
                    break
                time.sleep(0.2)
    finally:
        stores.close()
    _run(str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop")  # the primary is gone
    archived = len(list(archive.iterdir()))

    t1 = time.monotonic()
    shutil.copytree(base, restored, symlinks=True)
    if os.geteuid() == 0:
        subprocess.run(["chown", "-R", "postgres:postgres", str(restored)], check=True)
    with (restored / "postgresql.auto.conf").open("a") as conf:
        conf.write(f"restore_command = 'cp {archive}/%f %p'\nrecovery_target_time = '{target}'\n"
                   "recovery_target_action = 'promote'\narchive_mode = off\n")
    (restored / "recovery.signal").touch()
    if os.geteuid() == 0:
        shutil.chown(restored / "recovery.signal", "postgres", "postgres")
    port2 = free_port()
    _start(restored, port2, work / "restored.log")
    url2 = f"postgresql://cc@127.0.0.1:{port2}/cablecar"
    deadline = time.monotonic() + 300
    while True:
        with psycopg.connect(url2, autocommit=True) as conn:
            row = conn.execute("SELECT pg_is_in_recovery()").fetchone()
        if row == (False,):
            break
        assert time.monotonic() < deadline, "the restored server never opened read-write"
        time.sleep(0.2)
    restore_seconds = time.monotonic() - t1

    checking = postgres_stores(url2)
    check = checking.events
    try:
        whole = sum(1 for g in before + during
                    if len(check.load(g)) == actions + 1 and check.verify_chain(g).ok)
        present_after = sum(1 for g in after if _exists(check, g))
    finally:
        checking.close()
    _run(str(bindir / "pg_ctl"), "-D", str(restored), "-m", "fast", "-w", "stop")
    verdict = "passed" if whole == len(before + during) and present_after == 0 else "FAILED"
    return [
        "# Restore drill: base backup, WAL archive, point-in-time restore",
        "",
        f"`python bench/bench_restore_drill.py --games {games} --actions {actions}` on the 2-core development "
        f"machine, PostgreSQL {bindir.parts[-2]}, `fsync=on`. Each game: a creation and {actions} appends "
        "through the event store (signed, hash-chained).",
        "",
        "| what | value |",
        "|---|---|",
        f"| games before the base backup / after it, before the target / after the target | "
        f"{len(before)} / {len(during)} / {len(after)} |",
        f"| base backup (`pg_basebackup -X none -c fast`) | {backup_seconds:.1f} s |",
        f"| WAL segments archived | {archived} |",
        f"| restore: copy, recovery to the target time, open read-write | {restore_seconds:.1f} s |",
        f"| games restored whole with their hash chains intact (of those before the target) | "
        f"{whole} / {len(before) + len(during)} |",
        f"| games written after the target found on the restored server | {present_after} (expected 0) |",
        f"| drill | **{verdict}** |",
        "",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--actions", type=int, default=20)
    parser.add_argument("--report", type=Path, default=REPORT)
    args = parser.parse_args()
    work = Path(tempfile.mkdtemp(prefix="cc-drill-"))
    work.chmod(0o755)
    try:
        lines = drill(work, args.games, args.actions)
    except BaseException:
        print(f"restore drill: failed; files kept in {work}", file=sys.stderr)
        raise
    text = "\n".join(lines)
    args.report.write_text(text)
    print(text)
    for data in (work / "primary", work / "restored"):
        if (data / "postmaster.pid").exists():
            subprocess.run([*_as_postgres(), str(pg_bindir() / "pg_ctl"), "-D", str(data), "-m", "immediate",
                            "stop"], capture_output=True, timeout=60)
    shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
