"""A hot standby of the test PostgreSQL server, fed by streaming replication,
for the contract tests of the reads a standby serves (``reader``).

``pg_basebackup -R`` copies the test server (as the ``postgres`` user when
run as root: PostgreSQL refuses to run as root) and writes the replication
settings; the copy starts on a free port of 127.0.0.1 as a hot standby.  The
test server is a small throwaway cluster, so this takes a few seconds, once
per session.  :func:`standby_tools` says why it cannot be done here (missing
binaries, no replication permission), for a clean skip.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _server_bindir(url: str) -> Path | None:
    """The binaries of the test server's major version, if installed."""
    import psycopg

    with psycopg.connect(url, autocommit=True, connect_timeout=5) as conn:
        row = conn.execute("SHOW server_version_num").fetchone()
    assert row is not None
    major = int(row[0]) // 10000
    for candidate in (Path(f"/usr/lib/postgresql/{major}/bin"), Path(f"/usr/pgsql-{major}/bin")):
        if (candidate / "pg_ctl").exists() and (candidate / "pg_basebackup").exists():
            return candidate
    return None


def standby_tools(url: str) -> tuple[Path, list[str]] | str:
    """``(bindir, command prefix)`` to make and run a standby, or why not."""
    bindir = _server_bindir(url)
    if bindir is None:
        return "no pg_basebackup/pg_ctl of the test server's PostgreSQL version"
    if os.geteuid() != 0:
        return bindir, []
    if shutil.which("runuser") is None:
        return "running as root without runuser (PostgreSQL refuses to run as root)"
    if subprocess.run(["id", "postgres"], capture_output=True).returncode != 0:
        return "running as root without a postgres user"
    return bindir, ["runuser", "-u", "postgres", "--"]


def _wait_ready(url: str, seconds: float) -> None:
    import psycopg

    deadline = time.monotonic() + seconds
    while True:
        try:
            with psycopg.connect(url, autocommit=True, connect_timeout=2) as conn:
                row = conn.execute("SELECT pg_is_in_recovery()").fetchone()
                if row is not None and row[0]:
                    return
                raise RuntimeError("the copy is not a standby (pg_basebackup -R wrote no standby.signal?)")
        except psycopg.OperationalError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.1)


@contextmanager
def hot_standby(primary_url: str, bindir: Path, as_postgres: list[str]) -> Iterator[str]:
    """Start a streaming hot standby of ``primary_url``'s server; yield the
    URL of the same database on it; stop and delete it afterwards."""
    parts = urlsplit(primary_url)
    port = free_port()
    folder = Path(tempfile.mkdtemp(prefix="cc-standby-"))
    folder.chmod(0o755)
    data = folder / "data"
    if as_postgres:
        shutil.chown(folder, "postgres", "postgres")
    log = folder / "standby.log"

    def run(*args: str) -> None:
        done = subprocess.run([*as_postgres, *args], capture_output=True, text=True, timeout=120)
        if done.returncode:
            raise RuntimeError(f"{args[0]} failed: {done.stderr.strip() or done.stdout.strip()}")

    user = parts.username or "postgres"
    try:
        run(
            str(bindir / "pg_basebackup"), "-h", parts.hostname or "127.0.0.1", "-p", str(parts.port or 5432),
            "-U", user, "-D", str(data), "-R", "-X", "stream", "-c", "fast", "--no-sync",
        )
        run(
            str(bindir / "pg_ctl"), "-D", str(data), "-l", str(log), "-w", "-t", "60", "start",
            "-o", f"-p {port} -k {folder} -c listen_addresses=127.0.0.1 -c hot_standby=on",
        )
        url = urlunsplit(parts._replace(netloc=f"{parts.netloc.rsplit('@', 1)[0]}@127.0.0.1:{port}"
                                        if "@" in parts.netloc else f"127.0.0.1:{port}"))
        _wait_ready(url, 30)
        yield url
    finally:
        if (data / "postmaster.pid").exists():
            subprocess.run(
                [*as_postgres, str(bindir / "pg_ctl"), "-D", str(data), "-m", "immediate", "-w", "stop"],
                capture_output=True, timeout=60,
            )
        shutil.rmtree(folder, ignore_errors=True)
