"""The servers of the cluster, each on its host (:mod:`bench.cluster.netns`):
a PostgreSQL primary and its streaming hot standby, Redis, gunicorn app
hosts and an nginx load balancer, all stock Debian binaries started here."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import psycopg

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


class Postgres:
    """A PostgreSQL server on ``host``: a new primary, or a standby of one."""

    def __init__(self, host: Host, workdir: Path, primary: Postgres | None = None) -> None:
        self.host = host
        self.bindir = pg_bindir()
        self.data = workdir / f"pg-{host.name}"
        self.log = workdir / f"{host.name}.log"
        self.url = f"postgresql://cc@{host.address}:{PG_PORT}/cablecar"
        self.proc: subprocess.Popen[bytes] | None = None
        workdir.chmod(0o755)
        self.data.mkdir(mode=0o700)
        if os.geteuid() == 0:
            shutil.chown(self.data, "postgres", "postgres")
        if primary is None:
            self._initdb()
        else:
            host.run([*_as_postgres(), str(self.bindir / "pg_basebackup"), "-h", primary.host.address,
                      "-p", str(PG_PORT), "-U", "cc", "-D", str(self.data), "-R", "-X", "stream", "-c", "fast",
                      "--no-sync"], timeout=300)

    def _initdb(self) -> None:
        self.host.run([*_as_postgres(), str(self.bindir / "initdb"), "-D", str(self.data), "-A", "trust",
                       "-U", "cc", "-E", "UTF8", "--no-sync"])
        with (self.data / "postgresql.conf").open("a") as conf:
            # fsync off: the machine is shared and the question here is
            # correctness under faults, not disk flushes (THROUGHPUT.md has those).
            conf.write("listen_addresses = '*'\nmax_connections = 200\nshared_buffers = 64MB\n"
                       "fsync = off\nfull_page_writes = off\nwal_level = replica\nmax_wal_senders = 5\n"
                       "hot_standby = on\nhot_standby_feedback = on\nunix_socket_directories = ''\n")
        with (self.data / "pg_hba.conf").open("a") as hba:
            hba.write("host all all 198.18.0.0/24 trust\nhost replication all 198.18.0.0/24 trust\n")

    def start(self) -> None:
        """Start the server (as the postgres user) and wait until it answers."""
        self.proc = self.host.start([*_as_postgres(), str(self.bindir / "postgres"), "-D", str(self.data),
                                     "-p", str(PG_PORT)], self.log)
        admin = self.url.rsplit("/", 1)[0] + "/postgres"
        wait_for(f"PostgreSQL on {self.host.name}", lambda: psycopg.connect(admin, connect_timeout=2).close() or True,
                 60)

    def create_database(self) -> None:
        with psycopg.connect(self.url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
            conn.execute("CREATE DATABASE cablecar")

    def sql(self, statement: str) -> list[tuple[object, ...]]:
        """Run one statement on this server's cablecar database."""
        with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
            cur = conn.execute(statement.encode())
            return cur.fetchall() if cur.description else []  # type: ignore[return-value]

    def stop(self) -> None:
        if self.proc is not None:
            self.host.stop(self.proc, signal.SIGINT)  # fast shutdown

    def kill(self) -> None:
        """The server's host dies: every process SIGKILLed, its cable unplugged."""
        if self.proc is not None:
            self.host.stop(self.proc, signal.SIGKILL)
        self.host.link(False)


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


class Balancer:
    """nginx on ``host`` spreading port 8000 over the app hosts in service."""

    def __init__(self, host: Host, workdir: Path, apps: list[AppHost]) -> None:
        self.host = host
        self.dir = workdir / "nginx"
        self.dir.mkdir()
        (self.dir / "logs").mkdir()
        self.conf = self.dir / "nginx.conf"
        self.apps = apps
        self.url = f"http://{host.address}:{LB_PORT}"
        self.proc: subprocess.Popen[bytes] | None = None

    def write(self, draining: set[str] = frozenset()) -> None:  # type: ignore[assignment]
        """The configuration, with the ``draining`` hosts out of the upstream."""
        servers = "\n".join(
            f"        server {a.host.address}:{APP_PORT} max_fails=1 fail_timeout=3s;"
            for a in self.apps if a.host.name not in draining
        )
        self.conf.write_text(NGINX_CONF.format(servers=servers, listen=f"{self.host.address}:{LB_PORT}",
                                               dir=self.dir))

    def start(self) -> None:
        self.write()
        self.proc = self.host.start(["nginx", "-p", str(self.dir), "-c", str(self.conf), "-g", "daemon off;"],
                                    self.dir / "nginx.out")
        wait_for("nginx", lambda: urllib.request.urlopen(self.url + "/v1/health", timeout=2).status == 200, 30)

    def reload(self, draining: set[str]) -> None:
        """New configuration; old workers finish their requests (``nginx -s reload``)."""
        self.write(draining)
        self.host.run(["nginx", "-p", str(self.dir), "-c", str(self.conf), "-s", "reload"])

    def stop(self) -> None:
        if self.proc is not None:
            self.host.stop(self.proc, signal.SIGQUIT)

    def errors(self) -> list[str]:
        """nginx's error log, without timestamps and request details."""
        log = self.dir / "logs" / "error.log"
        kinds = []
        for line in log.read_text(errors="replace").splitlines() if log.exists() else []:
            text = line.split("] ", 1)[-1]  # after the time and level
            text = re.sub(r"^\d+#\d+: (\*\d+ )?", "", text)  # process and connection numbers
            kinds.append(text.split(", client:", 1)[0].strip())
        return kinds


#: As docker/nginx.conf (the same proxy settings), with the app hosts' addresses.
NGINX_CONF = """
user root;
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/logs/error.log warn;
events {{ worker_connections 1024; }}
http {{
    access_log off;
    client_body_temp_path {dir}/body;
    proxy_temp_path {dir}/proxy;
    fastcgi_temp_path {dir}/fastcgi;
    uwsgi_temp_path {dir}/uwsgi;
    scgi_temp_path {dir}/scgi;
    upstream cablecar {{
{servers}
        keepalive 32;
        keepalive_timeout 4s;
    }}
    server {{
        listen {listen};
        client_max_body_size 64k;
        proxy_http_version 1.1;
        proxy_set_header Connection "";
        proxy_set_header Host $host;
        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
        proxy_connect_timeout 1s;
        proxy_next_upstream error timeout;
        proxy_next_upstream_tries 3;
        location / {{
            proxy_pass http://cablecar;
            proxy_read_timeout 15s;
        }}
        location ~ ^/v1/games/[^/]+/events/stream$ {{
            proxy_pass http://cablecar;
            proxy_read_timeout 360s;
        }}
    }}
}}
"""
