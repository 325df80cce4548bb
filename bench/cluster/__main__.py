"""``python -m bench.cluster`` (``bash bench/run.sh --only cluster``): the
multi-host run (see docs/scaling.md).

On this one machine, hosts are network namespaces on a private switch
(:mod:`bench.cluster.netns`): a PostgreSQL primary (``db1``) and its
streaming hot standby (``db2``), Redis, ``--app-hosts`` gunicorn hosts
reading through the standby (``CABLECAR_READ_DATABASE_URL``), an nginx load
balancer (``lb``) and a client host that drives the run.  Writers play games
through the balancer and spectators follow them as event streams while, one
after another: an app host dies (processes killed, cable unplugged), Redis
restarts empty, the standby stops replaying (replica lag) and an app host is
drained for a deploy.  Then every acknowledged action is looked up in the
primary's log, every game audited through the balancer and every stream
compared with the log; ``bench/results/CLUSTER.md`` gets the table.

Bounded: each phase has a deadline and the whole run a hard one; the
namespaces and every process in them are removed on the way out, failure or
not.  Needs root (namespaces), PostgreSQL, Redis and nginx (installed with
apt-get when missing).
"""

from __future__ import annotations

import argparse
import os
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from bench.cluster.clients import Spectator, Writer
from bench.cluster.hosts import LB_PORT, ROOT, AppHost, Balancer, Postgres, Redis, wait_for
from bench.cluster.netns import Network, netns_works
from bench.cluster.report import Fault, Run, render
from bench.cluster.verify import Verdict, audit_all, check_games, check_streams

REPORT = ROOT / "bench" / "results" / "CLUSTER.md"


def _args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="bash bench/run.sh --only cluster", description=__doc__.split("\n\n")[0])
    p.add_argument("--app-hosts", type=int, default=3, help="gunicorn hosts behind the balancer (at least 2)")
    p.add_argument("--writers", type=int, default=8, help="writer clients playing games")
    p.add_argument("--spectators", type=int, default=12, help="games followed as event streams")
    p.add_argument("--fault-gap", type=float, default=12.0, help="seconds between two faults")
    p.add_argument("--lag-seconds", type=float, default=8.0, help="how long the standby's replay stays paused")
    p.add_argument("--no-failover", action="store_true",
                   help="skip the last fault (the primary lost, the standby promoted, the app hosts repointed)")
    p.add_argument("--report", type=Path, default=REPORT)
    a = p.parse_args(argv)
    if a.app_hosts < 2:
        p.error("--app-hosts must be at least 2 (one dies, one is drained)")
    return a


def _ensure(binary: str, package: str) -> None:
    if shutil.which(binary) is None:
        print(f"cluster: installing {package} with apt-get", file=sys.stderr)
        subprocess.run(["apt-get", "install", "-y", package], check=True, capture_output=True,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"}, timeout=600)


def _replica_scans(standby: Postgres) -> int:
    """Table scans the standby has served (its own statistics: reads, since it takes no writes)."""
    rows = standby.sql("SELECT coalesce(sum(seq_scan + coalesce(idx_scan, 0)), 0) FROM pg_stat_user_tables"
                       " WHERE relname IN ('events', 'games')")
    return int(rows[0][0])  # type: ignore[call-overload]


def _lag_caught_up(primary: Postgres, standby: Postgres) -> bool:
    target = int(primary.sql("SELECT (pg_current_wal_insert_lsn() - '0/0'::pg_lsn)::bigint")[0][0])  # type: ignore[call-overload]
    done = int(standby.sql("SELECT (pg_last_wal_replay_lsn() - '0/0'::pg_lsn)::bigint")[0][0])  # type: ignore[call-overload]
    return done >= target


def run(a: argparse.Namespace, work: Path) -> Run:
    tag = f"{os.getpid() % 10000:04d}"
    net = Network(tag)
    try:
        return _run(a, work, net)
    finally:
        net.close()


def _run(a: argparse.Namespace, work: Path, net: Network) -> Run:
    t_setup = time.monotonic()
    client = net.add("client", 3)
    db1, db2, cache_host, lb_host = net.add("db1", 11), net.add("db2", 12), net.add("redis", 13), net.add("lb", 2)
    app_hosts = [net.add(f"app{i + 1}", 21 + i) for i in range(a.app_hosts)]
    net.enter(client)  # from here on this process talks over the switch

    primary = Postgres(db1, work)
    primary.start()
    primary.create_database()
    subprocess.run([sys.executable, "-m", "cablecar.cli", "migrate", "--database-url", primary.url], check=True,
                   cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, timeout=120)
    standby = Postgres(db2, work, primary=primary)
    standby.start()
    # Synchronous replication: a commit (an acknowledged action) is on the
    # standby's disk before the client hears of it, so a failover loses none.
    # Set once the standby runs (before, every commit would wait for it).
    primary.sql("ALTER SYSTEM SET synchronous_standby_names = '*'")
    primary.sql("SELECT pg_reload_conf()")
    redis = Redis(cache_host, work)
    redis.start()
    # every app host signs with the same key, from its configuration (docs/production.md)
    signing_key = work / "signing-key.json"
    subprocess.run([sys.executable, "-m", "cablecar.cli", "keys", "generate", "--key-file", str(signing_key)], check=True,
                   cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, timeout=60)
    env = {
        "CABLECAR_SIGNING_KEY_FILE": str(signing_key),
        "DATABASE_URL": primary.url, "CABLECAR_READ_DATABASE_URL": standby.url, "REDIS_URL": redis.url,
        "CABLECAR_SECRET_KEY": secrets.token_hex(32), "CABLECAR_WORKERS": "1", "CABLECAR_DB_POOL_SIZE": "8",
        "CABLECAR_TRUSTED_PROXIES": "1", "CABLECAR_CREATE_RATE_LIMIT": "off",
        "CABLECAR_ORGANISER_CREATE_RATE_LIMIT": "off", "CABLECAR_STREAM_RATE_LIMIT": "off",
        "CABLECAR_AUDIT_RATE_LIMIT": "off",
        "CABLECAR_SSE_MAX_STREAMS_PER_ADDRESS": "500", "CABLECAR_SSE_HEARTBEAT_SECONDS": "2",
        "CABLECAR_ACCESS_LOG": "/dev/null",
    }
    apps = [AppHost(h, work, env) for h in app_hosts]
    for app in apps:
        app.start()
    for app in apps:
        app.wait_ready()
    lb = Balancer(lb_host, work, apps)
    lb.start()
    setup_seconds = time.monotonic() - t_setup
    scans_before = _replica_scans(standby)

    stop, give_up, watch_stop = threading.Event(), threading.Event(), threading.Event()
    writers = [Writer(lb.url, f"w{i}", stop, give_up) for i in range(a.writers)]
    threads = [threading.Thread(target=w.run, name=w.name, daemon=True) for w in writers]
    spectators: list[Spectator] = []
    followed: set[str] = set()
    t0 = time.monotonic()
    for t in threads:
        t.start()

    def follow_new_games() -> None:
        for w in writers:
            for play in list(w.games):
                if len(spectators) < a.spectators and play.game_id not in followed:
                    followed.add(play.game_id)
                    s = Spectator(lb_host.address, LB_PORT, play.game_id, watch_stop)
                    spectators.append(s)
                    threading.Thread(target=s.run, daemon=True).start()

    def wait(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            follow_new_games()
            time.sleep(0.2)

    faults: list[Fault] = []
    gap = a.fault_gap
    wait(gap)

    # 1. an app host dies: processes killed, cable unplugged; replaced later
    victim = apps[1]
    f = Fault("app host killed", f"{victim.host.name}: gunicorn SIGKILLed, link down", time.monotonic())
    victim.kill()
    victim.host.link(False)
    faults.append(f)
    wait(gap / 2)
    victim.host.link(True)
    victim.start()
    victim.wait_ready()
    f.note = f"{victim.host.name} back after {time.monotonic() - f.at:.1f} s"
    wait(gap / 2)

    # 2. Redis restarts (empty: it is a cache)
    f = Fault("Redis restarted", "SIGTERM, started again empty", time.monotonic())
    redis.stop()
    redis.start()
    faults.append(f)
    wait(gap)

    # 3. replica lag: the standby stops replaying
    f = Fault("standby paused", f"pg_wal_replay_pause() for {a.lag_seconds:g} s", time.monotonic())
    standby.sql("SELECT pg_wal_replay_pause()")
    faults.append(f)
    scans = _replica_scans(standby)
    wait(a.lag_seconds)
    scans = _replica_scans(standby) - scans
    standby.sql("SELECT pg_wal_replay_resume()")
    resumed = time.monotonic()
    wait_for("the standby to catch up", lambda: _lag_caught_up(primary, standby), 60)
    f.note = (f"the paused standby still served {scans} reads (pages it held); "
              f"it replayed the backlog {time.monotonic() - resumed:.2f} s after resuming")
    wait(max(0.0, gap - a.lag_seconds))

    # 4. drain an app host for a deploy: out of the balancer, graceful stop, new start, back in
    drained = apps[-1]
    f = Fault("host drained for a deploy", f"{drained.host.name}: out of nginx, SIGTERM, restarted, back",
              time.monotonic())
    faults.append(f)
    lb.reload({drained.host.name})
    wait(1.0)
    stopping = time.monotonic()
    drained.stop()
    stopped = time.monotonic()
    drained.start()
    drained.wait_ready()
    lb.reload(set())
    f.note = (f"{drained.host.name} out of service for {time.monotonic() - f.at:.1f} s (graceful stop "
              f"{stopped - stopping:.1f} s, boot {time.monotonic() - stopped:.1f} s)")
    wait(gap)
    scans_after = _replica_scans(standby)

    # 5. the primary is lost: promote the standby, point DATABASE_URL at it (docs/scaling.md)
    truth = primary
    if not a.no_failover:
        f = Fault("primary lost, standby promoted",
                  "db1 SIGKILLed and unplugged; pg_promote() on db2; app hosts restarted one by one on it",
                  time.monotonic())
        faults.append(f)
        primary.kill()
        standby.sql("SELECT pg_promote(wait => true, wait_seconds => 60)")
        promoted = time.monotonic() - f.at
        failover_env = {k: v for k, v in env.items() if k != "CABLECAR_READ_DATABASE_URL"}
        failover_env["DATABASE_URL"] = standby.url
        for app in apps:
            lb.reload({app.host.name})
            app.stop()
            app.env = failover_env
            app.start()
            app.wait_ready()
            lb.reload(set())
        f.note = (f"db2 promoted {promoted:.1f} s after the loss; every app host on it after "
                  f"{time.monotonic() - f.at:.1f} s (no standby left: reads on the new primary)")
        truth = standby
        wait(gap)

    stop.set()
    load_seconds = time.monotonic() - t0
    for t in threads:
        t.join(timeout=30)
    give_up.set()
    for t in threads:
        t.join(timeout=10)

    # spectators: until each has its game's whole log (or a deadline)
    from events.postgres import PostgresStore

    store = PostgresStore(truth.url)
    try:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            behind = [s for s in spectators if (s.events[-1][0] if s.events else 0) < store.version(s.game_id)]
            if not behind:
                break
            time.sleep(0.3)
        watch_stop.set()
        verdict = Verdict()
        plays = [p for w in writers for p in w.games]
        logs = check_games(store, plays, verdict)
        audit_all(lb.url, [p.game_id for p in plays], verdict)
        check_streams(spectators, logs, verdict)
    finally:
        store.close()

    lb_errors = lb.errors()
    return Run(
        lb_errors=lb_errors, app_hosts=len(apps), writers=a.writers, setup_seconds=setup_seconds, load_seconds=load_seconds,
        replica_reads=scans_after - scans_before, writers_list=writers, faults=faults, verdict=verdict,
        t0=t0,
    )


def main(argv: list[str]) -> int:
    a = _args(argv)
    why = netns_works()
    if why is not None:
        print(f"cluster: cannot build hosts here: {why}", file=sys.stderr)
        return 2
    for binary, package in (("nginx", "nginx-light"), ("redis-server", "redis-server"), ("setpriv", "util-linux")):
        _ensure(binary, package)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(3))  # the finally blocks clean up
    work = Path(tempfile.mkdtemp(prefix="ccl-"))
    work.chmod(0o755)
    started = time.monotonic()
    try:
        result = run(a, work)
    except BaseException:
        print(f"cluster: failed; logs kept in {work}", file=sys.stderr)
        raise
    result.total_seconds = time.monotonic() - started
    text = render(result, os.environ.get("CABLECAR_BENCH_COMMAND", "bash bench/run.sh --only cluster"))
    a.report.write_text(text)
    print(text)
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
