"""The plain servers of the cluster, each on its host (:mod:`bench.cluster.netns`):
Redis and the gunicorn app hosts (the database servers and the balancer are
in :mod:`bench.cluster.ha`)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

from bench.cluster.netns import Host

ROOT = Path(__file__).resolve().parents[2]
PG_PORT = 5432
APP_PORT = 8000
LB_PORT = 8000


def pg_bindir() -> Path:
    """The newest installed PostgreSQL's binaries."""
    found = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=lambda p: int(p.parts[-3]))
    if not found:
        raise RuntimeError("no PostgreSQL server binaries (apt-get install postgresql)")
    return found[-1].parent


def _as_postgres() -> list[str]:
    return ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"] if os.geteuid() == 0 else []


def wait_for(what: str, ready: object, timeout: float) -> None:
    """Poll ``ready()`` until it is true; RuntimeError naming ``what`` after ``timeout`` s."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            if ready():  # type: ignore[operator]
                return
        except Exception:  # noqa: BLE001 - not up yet, whatever the reason
            pass
        time.sleep(0.2)
    raise RuntimeError(f"{what} not ready within {timeout:g}s")


class Redis:
    """A Redis server on ``host`` (no persistence: it is a cache)."""

    def __init__(self, host: Host, workdir: Path) -> None:
        self.host = host
        self.log = workdir / "redis.log"
        self.url = f"redis://{host.address}:6379/0"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.proc = self.host.start(["redis-server", "--bind", self.host.address, "--port", "6379", "--save", "",
                                     "--appendonly", "no", "--protected-mode", "no"], self.log)
        import redis

        wait_for("Redis", lambda: redis.Redis.from_url(self.url, socket_timeout=1).ping(), 30)

    def stop(self) -> None:
        if self.proc is not None:
            self.host.stop(self.proc)


class AppHost:
    """gunicorn serving the service on ``host`` with ``service.serving.gunicorn_conf``."""

    def __init__(self, host: Host, workdir: Path, env: dict[str, str]) -> None:
        self.host = host
        self.log = workdir / f"{host.name}.log"
        self.env = env
        self.url = f"http://{host.address}:{APP_PORT}"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0

    def start(self) -> None:
        env = {**os.environ, **self.env, "PYTHONPATH": str(ROOT), "CABLECAR_BIND": f"0.0.0.0:{APP_PORT}"}
        self.proc = self.host.start([sys.executable, "-m", "gunicorn", "-c", "python:service.serving.gunicorn_conf",
                                     "service.serving.wsgi:app"], self.log, env=env, cwd=ROOT)
        self.starts += 1

    def wait_ready(self, timeout: float = 90) -> None:
        def ready() -> bool:
            assert self.proc is not None
            if self.proc.poll() is not None:
                raise RuntimeError(f"gunicorn on {self.host.name} exited:\n{self.log.read_text()[-2000:]}")
            with urllib.request.urlopen(self.url + "/v1/health", timeout=2) as resp:
                return bool(resp.status == 200)

        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                if ready():
                    return
            except (urllib.error.URLError, OSError):
                time.sleep(0.2)
        raise RuntimeError(f"gunicorn on {self.host.name} not ready within {timeout:g}s")

    def kill(self) -> None:
        """The host dies: every process SIGKILLed."""
        if self.proc is not None:
            self.host.stop(self.proc, signal.SIGKILL)

    def stop(self) -> None:
        """Graceful stop (gunicorn finishes in-flight requests, ends streams)."""
        if self.proc is not None:
            self.host.stop(self.proc, signal.SIGTERM, wait=30)
