"""The production stack the harness runs against: PostgreSQL, Redis, gunicorn.

PostgreSQL and Redis are *private* throwaway servers started with
``scripts/test-services.sh up`` under their own state directory (so that
restarting them in the fault scenarios never disturbs anybody else's test
servers); each run gets a fresh database, migrated by ``cablecar migrate``.
gunicorn runs with ``service.serving.gunicorn_conf`` exactly as in production, serving
either the service (through the counting wrapper in
``bench.load.instrumented_wsgi``) or the baseline app.
"""

from __future__ import annotations

import os
import secrets
import shlex
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[2]
SERVICES_SCRIPT = ROOT / "scripts" / "test-services.sh"
#: the command line's module in the measured source: ``cablecar.cli`` since the CLI became a layer of its
#: own, ``service.cli`` in commits before (CABLECAR_BENCH_FROM may name one; bench/ is copied into it)
CLI_MODULE = "cablecar.cli" if (ROOT / "cablecar" / "cli.py").exists() else "service.cli"


class StackError(RuntimeError):
    """A server of the stack could not be started, stopped or reached."""


def signing_key_file(path: Path) -> str:
    """A signing key file at ``path`` for the servers of a run (made once; written here, not by the
    service's code, so that a run of an older commit works too)."""
    import base64
    import json

    if not path.exists():
        seed = base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            json.dump({"algorithm": "ed25519", "private_key": seed}, out)
    return str(path)


def free_port() -> int:
    """A TCP port that was free a moment ago on 127.0.0.1."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _read_state(path: Path) -> dict[str, str]:
    state: dict[str, str] = {}
    for line in path.read_text().splitlines():
        name, sep, value = line.partition("=")
        if sep:
            state[name.strip()] = value.strip()
    return state


@dataclass(frozen=True)
class Services:
    """The private PostgreSQL and Redis servers (see the module docs)."""

    state_dir: Path
    base_database_url: str
    redis_url: str
    pg_dir: Path
    pg_bin: Path
    redis_port: int
    redis_dir: Path

    @classmethod
    def up(cls, state_dir: Path) -> Services:
        """Start (or reuse) both servers with ``scripts/test-services.sh up``."""
        env = {**os.environ, "CABLECAR_TEST_SERVICES_DIR": str(state_dir)}
        out = run_logged(["bash", str(SERVICES_SCRIPT), "up"], state_dir / "harness-services.out", env, 400)
        exports = dict(
            line.removeprefix("export ").split("=", 1) for line in out.splitlines() if line.startswith("export ")
        )
        state = _read_state(state_dir / "state.env")
        return cls(
            state_dir=state_dir,
            base_database_url=exports["CABLECAR_TEST_DATABASE_URL"],
            redis_url=exports["CABLECAR_TEST_REDIS_URL"],
            pg_dir=Path(state["PG_DIR"]),
            pg_bin=Path(state["PG_BIN"]),
            redis_port=int(state["REDIS_PORT"]),
            redis_dir=Path(state["REDIS_DIR"]),
        )

    def down(self) -> None:
        """Stop both servers and delete their data."""
        env = {**os.environ, "CABLECAR_TEST_SERVICES_DIR": str(self.state_dir)}
        run_logged(["bash", str(SERVICES_SCRIPT), "down"], self.state_dir / "harness-services.out", env, 120)

    # -- databases ---------------------------------------------------------------

    def fresh_database(self) -> str:
        """Create an empty database on the server, migrate it, return its URL."""
        import psycopg

        name = f"cablecar_bench_{secrets.token_hex(4)}"
        with psycopg.connect(self.base_database_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        url = self.base_database_url.rsplit("/", 1)[0] + "/" + name
        run_logged(
            [sys.executable, "-m", CLI_MODULE, "migrate", "--database-url", url],
            self.state_dir / "harness-migrate.out", None, 120,
        )
        return url

    def app_role_url(self, url: str, role: str = "cablecar_bench_app") -> str:
        """The URL of the database at ``url`` as the server's own role, as
        production runs it (``cablecar migrate --app-role``: no INSERT,
        UPDATE, DELETE or TRUNCATE on the event log; made here if missing)."""
        import psycopg

        with psycopg.connect(self.base_database_url, autocommit=True) as conn:
            if conn.execute("SELECT 1 FROM pg_roles WHERE rolname = %s", (role,)).fetchone() is None:
                conn.execute(f'CREATE ROLE "{role}" LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE')
        run_logged(
            [sys.executable, "-m", CLI_MODULE, "migrate", "--database-url", url, "--app-role", role],
            self.state_dir / "harness-migrate.out", None, 120,
        )
        parts = urlsplit(url)
        return urlunsplit(parts._replace(netloc=f"{role}@{parts.netloc.rsplit('@', 1)[-1]}"))

    def drop_database(self, url: str) -> None:
        """Drop a database made by :meth:`fresh_database`."""
        import psycopg

        name = url.rsplit("/", 1)[1]
        with psycopg.connect(self.base_database_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    # -- faults ----------------------------------------------------------------

    def _as_postgres(self, argv: list[str]) -> list[str]:
        return ["runuser", "-u", "postgres", "--", *argv] if os.geteuid() == 0 else argv

    def restart_postgres(self) -> float:
        """``pg_ctl restart -m fast`` as the postgres user; seconds it took."""
        argv = self._as_postgres([
            str(self.pg_bin / "pg_ctl"), "-D", str(self.pg_dir / "data"), "-l", str(self.pg_dir / "postgres.log"),
            "-m", "fast", "-w", "-t", "60", "restart",
        ])
        started = time.monotonic()
        run_logged(argv, self.state_dir / "harness-pg-restart.out", None, 120)
        return time.monotonic() - started

    def stop_redis(self) -> None:
        """Shut Redis down (``SHUTDOWN NOSAVE``)."""
        subprocess.run(
            ["redis-cli", "-h", "127.0.0.1", "-p", str(self.redis_port), "shutdown", "nosave"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=30, check=False,
        )
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and self.redis_alive():
            time.sleep(0.05)

    def start_redis(self) -> None:
        """Start Redis again on the same port (``test-services.sh up``)."""
        Services.up(self.state_dir)

    def redis_pid(self) -> int:
        """The Redis server's pid."""
        return int((self.redis_dir / "redis.pid").read_text().strip())

    def postgres_pid(self) -> int:
        """The PostgreSQL server's pid (first line of ``postmaster.pid``)."""
        return int((self.pg_dir / "data" / "postmaster.pid").read_text().splitlines()[0])

    def redis_alive(self) -> bool:
        """Whether Redis answers PING."""
        out = subprocess.run(
            ["redis-cli", "-h", "127.0.0.1", "-p", str(self.redis_port), "ping"],
            stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=10, check=False,
        )
        return out.stdout.strip() == "PONG"


def run_logged(argv: list[str], log: Path, env: dict[str, str] | None, timeout: float) -> str:
    """Run a command with its output in ``log`` (never a pipe: servers it
    starts may keep inherited descriptors open); return that output."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with log.open("w") as out:
        proc = subprocess.run(
            argv, cwd=ROOT, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
            timeout=timeout, check=False,
        )
    text = log.read_text()
    if proc.returncode != 0:
        raise StackError(f"{shlex.join(argv)} failed ({proc.returncode}):\n{text[-3000:]}")
    return text


@dataclass(frozen=True)
class ServerSpec:
    """What to serve and how: WSGI target, workers, threads, environment."""

    target: str
    workers: int
    threads: int
    env: tuple[tuple[str, str], ...] = ()


class Gunicorn:
    """A gunicorn master started with ``-c python:service.serving.gunicorn_conf``."""

    def __init__(self, spec: ServerSpec, log: Path, root: Path = ROOT) -> None:
        self.spec = spec
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = log
        env = {
            **os.environ,
            **dict(spec.env),
            "PYTHONPATH": str(root),
            "CABLECAR_ACCESS_LOG": os.environ.get("CABLECAR_ACCESS_LOG", "-"),
        }
        self.command = [
            sys.executable, "-m", "gunicorn", "-c", "python:service.serving.gunicorn_conf",
            "--bind", f"127.0.0.1:{self.port}", "--workers", str(spec.workers), "--threads", str(spec.threads),
            spec.target,
        ]
        log.parent.mkdir(parents=True, exist_ok=True)
        with log.open("ab") as out:
            self.proc = subprocess.Popen(
                self.command, cwd=root, env=env, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT
            )

    def wait_ready(self, path: str, timeout: float = 60.0) -> None:
        """Wait until ``path`` answers 200 and every worker is up."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise StackError(f"gunicorn exited ({self.proc.returncode}):\n{self.log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(self.url + path, timeout=2) as resp:
                    if resp.status == 200 and len(self.worker_pids()) >= self.spec.workers:
                        return
            except (urllib.error.URLError, OSError):
                pass
            time.sleep(0.2)
        raise StackError(f"gunicorn on {self.url} not ready within {timeout:g}s:\n{self.log.read_text()[-3000:]}")

    def worker_pids(self) -> list[int]:
        """Process ids of the master's current workers."""
        children = Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children")
        try:
            return [int(p) for p in children.read_text().split()]
        except OSError:
            return []

    def kill_worker(self) -> int:
        """SIGKILL one worker (the master starts a new one); its pid."""
        pids = self.worker_pids()
        if not pids:
            raise StackError("gunicorn has no worker to kill")
        victim = pids[0]
        os.kill(victim, signal.SIGKILL)
        return victim

    def stop(self) -> None:
        """Graceful stop (SIGTERM), SIGKILL after 20 s."""
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(timeout=10)
