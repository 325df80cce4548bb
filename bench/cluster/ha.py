"""The high-availability pieces of the cluster, each a stock Debian binary:
etcd (the consensus store), Patroni managing a PostgreSQL primary and its
standbys (leader election, automatic failover, synchronous mode), and
HAProxy in front of the app hosts with active health checks on
``/v1/health``.  docs/scaling.md describes the same setup for production.

Patroni's settings here are the runbook's: ``ttl`` 10 s (a primary that
stops renewing its leader key is replaced after at most that), ``loop_wait``
1 s, ``synchronous_mode`` (one standby confirms every commit; if it is lost
Patroni names another one, so writes go on), ``use_pg_rewind`` (an old
primary rejoins as a standby), ``fsync`` on.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import signal
import subprocess
import urllib.request
from pathlib import Path

import psycopg

from bench.cluster.hosts import APP_PORT, PG_PORT, AppHost, pg_bindir, wait_for
from bench.cluster.netns import Host

ETCD_PORT = 2379
PATRONI_PORT = 8008
LB_PORT = 8000
SCOPE = "cablecar"


def _as_postgres() -> list[str]:
    return ["setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups"] if os.geteuid() == 0 else []


class Etcd:
    """One etcd member (production runs three: docs/scaling.md)."""

    def __init__(self, host: Host, workdir: Path) -> None:
        self.host = host
        self.data = workdir / "etcd"
        self.log = workdir / "etcd.log"
        self.url = f"http://{host.address}:{ETCD_PORT}"
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        peer = f"http://{self.host.address}:2380"
        self.proc = self.host.start([
            "etcd", "--name", "e1", "--data-dir", str(self.data), "--listen-client-urls", self.url,
            "--advertise-client-urls", self.url, "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
            "--initial-cluster", f"e1={peer}", "--initial-cluster-state", "new",
        ], self.log)
        wait_for("etcd", lambda: urllib.request.urlopen(self.url + "/health", timeout=2).status == 200, 30)


class PatroniNode:
    """Patroni and the PostgreSQL server it runs on ``host`` (see the module docs)."""

    def __init__(self, host: Host, workdir: Path, etcd: Etcd, synchronous: bool = True,
                 max_lag: int = 1048576) -> None:
        self.host = host
        self.name = host.name
        self.data = workdir / f"pg-{host.name}"
        self.log = workdir / f"{host.name}.log"
        self.conf = workdir / f"patroni-{host.name}.yml"
        self.url = f"postgresql://cc@{host.address}:{PG_PORT}/cablecar"
        self.api = f"http://{host.address}:{PATRONI_PORT}"
        self.proc: subprocess.Popen[bytes] | None = None
        workdir.chmod(0o755)
        config = {
            "scope": SCOPE, "name": host.name,
            "restapi": {"listen": f"{host.address}:{PATRONI_PORT}", "connect_address": f"{host.address}:{PATRONI_PORT}"},
            "etcd3": {"hosts": f"{etcd.host.address}:{ETCD_PORT}"},
            "bootstrap": {
                "dcs": {
                    "ttl": 10, "loop_wait": 1, "retry_timeout": 4, "maximum_lag_on_failover": max_lag,
                    "synchronous_mode": synchronous,
                    "postgresql": {"use_pg_rewind": True, "use_slots": True, "parameters": {
                        "wal_level": "replica", "hot_standby": "on", "hot_standby_feedback": "on",
                        "max_wal_senders": 10, "max_replication_slots": 10, "wal_log_hints": "on",
                        "fsync": "on", "synchronous_commit": "on", "full_page_writes": "on",
                        "max_connections": 200, "shared_buffers": "64MB", "wal_keep_size": "256MB",
                        "wal_sender_timeout": "5s", "wal_receiver_timeout": "5s",
                    }},
                },
                "initdb": [{"encoding": "UTF8"}, {"username": "cc"}],
                "pg_hba": ["host all all 198.18.0.0/24 trust", "host replication all 198.18.0.0/24 trust",
                           "local all all trust"],
            },
            "postgresql": {
                "listen": f"{host.address}:{PG_PORT}", "connect_address": f"{host.address}:{PG_PORT}",
                "data_dir": str(self.data), "bin_dir": str(pg_bindir()),
                "pgpass": str(workdir / f"sock-{host.name}" / "pgpass"),
                # a standby's base backup starts at once (the default spreads its checkpoint over minutes)
                "basebackup": [{"checkpoint": "fast"}],
                "authentication": {"superuser": {"username": "cc", "password": "cc"},
                                   "replication": {"username": "cc", "password": "cc"},
                                   "rewind": {"username": "cc", "password": "cc"}},
                "parameters": {"unix_socket_directories": str(workdir / f"sock-{host.name}")},
            },
            "tags": {"nofailover": False, "noloadbalance": False, "clonefrom": False, "nosync": False},
        }
        (workdir / f"sock-{host.name}").mkdir(exist_ok=True)
        self.data.mkdir(mode=0o700)
        self.conf.write_text(json.dumps(config))  # JSON is YAML
        if os.geteuid() == 0:
            for path in (self.conf, workdir / f"sock-{host.name}", self.data):
                shutil.chown(path, "postgres", "postgres")

    def start(self) -> None:
        home = str(self.data.parent / f"sock-{self.name}")
        self.proc = self.host.start([*_as_postgres(), "patroni", str(self.conf)], self.log,
                                    env={**os.environ, "PATRONI_LOG_LEVEL": "WARNING", "HOME": home})

    def role(self) -> str:
        """What Patroni says this node is (``primary``, ``replica``, ...), or ``down``."""
        try:
            with urllib.request.urlopen(self.api + "/patroni", timeout=2) as resp:
                return str(json.load(resp).get("role", "?"))
        except OSError:
            return "down"

    def running(self) -> bool:
        try:
            with psycopg.connect(self.url.rsplit("/", 1)[0] + "/postgres", connect_timeout=2) as conn:
                return conn.execute("SELECT 1").fetchone() == (1,)
        except psycopg.Error:
            return False

    def sql(self, statement: str) -> list[tuple[object, ...]]:
        with psycopg.connect(self.url, autocommit=True, connect_timeout=5) as conn:
            cur = conn.execute(statement.encode())
            return cur.fetchall() if cur.description else []

    def kill(self) -> None:
        """The host dies: Patroni and PostgreSQL SIGKILLed, its cable unplugged."""
        if self.proc is not None:
            self.host.stop(self.proc, signal.SIGKILL)
        self._kill_postgres()
        self.host.link(False)

    def _kill_postgres(self) -> None:
        # PostgreSQL runs in Patroni's session, but is its own process group leader's child: kill by pid file
        pid_file = self.data / "postmaster.pid"
        try:
            pid = int(pid_file.read_text().split()[0])
        except (OSError, ValueError, IndexError):
            return
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)

    def back(self) -> None:
        """The host returns: cable in, Patroni started (it rejoins as a standby, rewound if need be)."""
        self.host.link(True)
        self.start()


def cluster_state(nodes: list[PatroniNode]) -> dict[str, object]:
    """Patroni's view of the cluster (``GET /cluster`` of the first node that answers)."""
    for node in nodes:
        try:
            with urllib.request.urlopen(node.api + "/cluster", timeout=2) as resp:
                return dict(json.load(resp))
        except OSError:
            continue
    return {}


def leader(nodes: list[PatroniNode]) -> PatroniNode | None:
    members = cluster_state(nodes).get("members", [])
    for m in members if isinstance(members, list) else []:
        if m.get("role") in ("leader", "primary") and m.get("state") == "running":
            return next((n for n in nodes if n.name == m.get("name")), None)
    return None


def sync_standby(nodes: list[PatroniNode]) -> PatroniNode | None:
    members = cluster_state(nodes).get("members", [])
    for m in members if isinstance(members, list) else []:
        if m.get("role") == "sync_standby":
            return next((n for n in nodes if n.name == m.get("name")), None)
    return None


def multi_host_url(nodes: list[PatroniNode]) -> str:
    """A libpq URL naming every node: the service adds target_session_attrs (read-write / prefer-standby)."""
    hosts = ",".join(f"{n.host.address}:{PG_PORT}" for n in nodes)
    return f"postgresql://cc@{hosts}/cablecar"


class HAProxy:
    """HAProxy on ``host``: port 8000 over the app hosts, each checked on
    ``/v1/health`` every second (out after 2 failures, a 503 included; back
    after 2 successes); a request whose connection fails goes to another.
    While every host fails its check (the primary is being replaced: none
    reaches it), requests still go to them all (unchecked backup twins), so
    clients get the service's own ``503 unavailable`` with ``Retry-After``
    and the first write the new primary takes, not HAProxy's bare 503 until
    two checks have passed."""

    def __init__(self, host: Host, workdir: Path, apps: list[AppHost]) -> None:
        self.host = host
        self.dir = workdir / "haproxy"
        self.dir.mkdir()
        self.conf = self.dir / "haproxy.cfg"
        self.log = self.dir / "haproxy.out"
        self.apps = apps
        self.url = f"http://{host.address}:{LB_PORT}"
        self.proc: subprocess.Popen[bytes] | None = None
        servers = "\n".join(f"    server {a.host.name} {a.host.address}:{APP_PORT}" for a in apps)
        # unchecked twins, used only while every checked one is down (option allbackups)
        backups = "\n".join(f"    server {a.host.name}-last {a.host.address}:{APP_PORT} backup no-check"
                            for a in apps)
        tracked = "\n".join(f"    server {a.host.name} {a.host.address}:{APP_PORT} track apps/{a.host.name}"
                            for a in apps)
        self.conf.write_text(HAPROXY_CONF.format(listen=f"{host.address}:{LB_PORT}", servers=servers,
                                                 backups=backups, tracked=tracked, dir=self.dir))

    def start(self) -> None:
        self.proc = self.host.start(["haproxy", "-W", "-db", "-f", str(self.conf)], self.log)
        wait_for("haproxy", lambda: urllib.request.urlopen(self.url + "/v1/health", timeout=2).status == 200, 30)

    def kill(self) -> None:
        if self.proc is not None:
            self.host.stop(self.proc, signal.SIGKILL)

    def stop(self) -> None:
        if self.proc is not None:
            self.host.stop(self.proc, signal.SIGUSR1)  # soft stop: finish what is in flight

    def events(self) -> list[str]:
        """What HAProxy said of its servers (up, down), from its output."""
        if not self.log.exists():
            return []
        return [line.split("]: ", 1)[-1].strip() for line in self.log.read_text(errors="replace").splitlines()
                if "is DOWN" in line or "is UP" in line]


#: As docker/haproxy.cfg, with the app hosts' addresses.
HAPROXY_CONF = """
global
    maxconn 4000
    pidfile {dir}/haproxy.pid
    log stdout format raw local0 notice
defaults
    mode http
    log global
    option dontlognull
    timeout connect 1s
    timeout client 60s
    timeout server 15s
    timeout http-keep-alive 4s
    timeout check 2s
    retries 3
    option redispatch 1
    retry-on conn-failure empty-response
frontend public
    bind {listen}
    acl stream path_reg ^/v1/games/[^/]+/events/stream$
    use_backend streams if stream
    default_backend apps
backend apps
    balance roundrobin
    option httpchk GET /v1/health
    http-check expect status 200
    option allbackups
    default-server inter 1s fall 2 rise 2 check
{servers}
{backups}
backend streams
    balance roundrobin
    timeout server 360s
    option allbackups
{tracked}
{backups}
"""
