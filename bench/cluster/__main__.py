"""``python -m bench.cluster`` (``bash bench/run.sh --only cluster``): the
multi-host run (see docs/scaling.md).

On this one machine, hosts are network namespaces on a private switch
(:mod:`bench.cluster.netns`): etcd, three PostgreSQL servers run by Patroni
(a primary and two standbys, synchronous mode, ``fsync`` on: the failover is
Patroni's, nothing is repointed by hand, :mod:`bench.cluster.ha`), Redis,
``--app-hosts`` gunicorn hosts finding the primary themselves (libpq
multi-host URLs) and reading through a standby, one of them with its clock
15 s ahead (libfaketime), HAProxy checking their ``/v1/health`` every second,
and a client host that drives the run.  Writers play games through the
balancer and spectators follow live games as event streams (a game that ends
is replaced) while, one after another: an app host is cut off from the
databases for 40 s, the synchronous standby is lost for 30 s, Redis is
SIGKILLed, the balancer is SIGKILLed and started again, and the primary is
SIGKILLed and unplugged (Patroni promotes a standby; the old primary rejoins
later), then switched back to with ``patronictl switchover``.  Every app host's ``/metrics`` is scraped each second.  Then every
acknowledged action is looked up by its key in the (new) primary's log and
compared by content (its events' hashes), every game audited through the
balancer and every stream compared with the log; ``bench/results/CLUSTER.md``
gets the table.

``--mutation`` runs the check that the checks can fail: asynchronous
replication, the standbys frozen (``SIGSTOP``) for a few seconds of writing,
then the primary killed and a lagging standby promoted (Patroni's
``maximum_lag_on_failover`` lifted): acknowledged actions are lost, and the
report must say so.

Bounded: each phase has a deadline and the whole run a hard one; the
namespaces and every process in them are removed on the way out, failure or
not.  Needs root (namespaces), PostgreSQL, Patroni, etcd, HAProxy, Redis and
libfaketime (installed with apt-get when missing).
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
from collections.abc import Callable
from pathlib import Path

from bench.cluster.clients import Spectator, Writer
from bench.cluster.faults import Faults, cut_off
from bench.cluster.ha import LB_PORT, Etcd, HAProxy, PatroniNode, leader, multi_host_url, sync_standby
from bench.cluster.hosts import ROOT, AppHost, Redis, wait_for
from bench.cluster.netns import Network, netns_works
from bench.cluster.report import Run, render
from bench.cluster.scrape import SERVED, Scraper
from bench.cluster.verify import Verdict, audit_all, check_games, check_streams

REPORT = ROOT / "bench" / "results" / "CLUSTER.md"
METRICS_PORT = 9108
#: the app host whose clock is off, and by how much (seconds)
SKEWED, SKEW = -1, 15.0


def _args(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="bash bench/run.sh --only cluster", description=__doc__.split("\n\n")[0])
    p.add_argument("--app-hosts", type=int, default=3, help="gunicorn hosts behind the balancer (at least 2)")
    p.add_argument("--writers", type=int, default=8, help="writer clients playing games")
    p.add_argument("--spectators", type=int, default=8, help="live games followed as event streams at any time")
    p.add_argument("--fault-gap", type=float, default=12.0, help="seconds between two faults")
    p.add_argument("--partition-seconds", type=float, default=40.0, help="how long an app host is cut off")
    p.add_argument("--standby-seconds", type=float, default=30.0, help="how long the synchronous standby is lost")
    p.add_argument("--mutation", action="store_true",
                   help="asynchronous replication and a lagging standby promoted: the checks must find a loss")
    p.add_argument("--report", type=Path, default=None,
                   help="where to write the report (default: bench/results/CLUSTER.md, or CLUSTER-MUTATION.md)")
    a = p.parse_args(argv)
    if a.app_hosts < 2:
        p.error("--app-hosts must be at least 2 (one is cut off)")
    if a.report is None:
        a.report = REPORT.with_name("CLUSTER-MUTATION.md") if a.mutation else REPORT
    return a


def _ensure(binary: str, package: str) -> None:
    if shutil.which(binary) is None and not Path(binary).exists():
        print(f"cluster: installing {package} with apt-get", file=sys.stderr)
        subprocess.run(["apt-get", "install", "-y", package], check=True, capture_output=True,
                       env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"}, timeout=600)


def run(a: argparse.Namespace, work: Path) -> Run:
    tag = f"{os.getpid() % 10000:04d}"
    net = Network(tag)
    try:
        return _run(a, work, net)
    finally:
        net.close()


def _members(nodes: list[PatroniNode], roles: tuple[str, ...]) -> int:
    from bench.cluster.ha import cluster_state

    members = cluster_state(nodes).get("members", [])
    listed: list[dict[str, object]] = members if isinstance(members, list) else []
    return sum(1 for m in listed if m.get("role") in roles and m.get("state") in ("running", "streaming"))


def _run(a: argparse.Namespace, work: Path, net: Network) -> Run:
    import psycopg

    from bench.load.skewed_clock import faketime_env

    t_setup = time.monotonic()
    client = net.add("client", 3)
    lb_host, etcd_host = net.add("lb", 2), net.add("etcd", 10)
    db_hosts = [net.add(f"db{i + 1}", 11 + i) for i in range(3)]
    cache_host = net.add("redis", 14)
    app_hosts = [net.add(f"app{i + 1}", 21 + i) for i in range(a.app_hosts)]
    net.enter(client)  # from here on this process talks over the switch

    etcd = Etcd(etcd_host, work)
    etcd.start()
    nodes = [PatroniNode(h, work, etcd, synchronous=not a.mutation, max_lag=1 << 40 if a.mutation else 1 << 20)
             for h in db_hosts]
    nodes[0].start()
    wait_for("a Patroni leader", lambda: leader(nodes) is not None, 120)
    first = leader(nodes)
    assert first is not None
    with psycopg.connect(first.url.rsplit("/", 1)[0] + "/postgres", autocommit=True) as conn:
        conn.execute("CREATE DATABASE cablecar")
        conn.execute("CHECKPOINT")  # at once, not spread: the standbys' base backups wait for one
    subprocess.run([sys.executable, "-m", "cablecar.cli", "migrate", "--database-url", first.url], check=True,
                   cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, timeout=120)
    for node in nodes[1:]:
        node.start()
    wait_for("two standbys", lambda: _members(nodes, ("replica", "sync_standby")) == 2
             and (a.mutation or sync_standby(nodes) is not None), 240)
    redis = Redis(cache_host, work)
    redis.start()
    # every app host signs with the same key, from its configuration (docs/production.md)
    signing_key = work / "signing-key.json"
    subprocess.run([sys.executable, "-m", "cablecar.cli", "keys", "generate", "--key-file", str(signing_key)],
                   check=True, cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, capture_output=True, timeout=60)
    base = {
        "CABLECAR_SIGNING_KEY_FILE": str(signing_key), "DATABASE_URL": multi_host_url(nodes), "REDIS_URL": redis.url,
        "CABLECAR_SECRET_KEY": secrets.token_hex(32), "CABLECAR_WORKERS": "1", "CABLECAR_DB_POOL_SIZE": "8",
        "CABLECAR_TRUSTED_PROXIES": "1", "CABLECAR_CREATE_RATE_LIMIT": "off",
        "CABLECAR_ORGANISER_CREATE_RATE_LIMIT": "off", "CABLECAR_STREAM_RATE_LIMIT": "off",
        "CABLECAR_AUDIT_RATE_LIMIT": "off",
        "CABLECAR_SSE_MAX_STREAMS_PER_ADDRESS": "500", "CABLECAR_SSE_HEARTBEAT_SECONDS": "2",
        "CABLECAR_ACCESS_LOG": "/dev/null",
    }
    apps = []
    for i, h in enumerate(app_hosts):
        # each host's reader names the servers in another order: a standby first, not always the same one
        turned = nodes[1 + i % 2:] + nodes[:1 + i % 2]
        env = {**base, "CABLECAR_READ_DATABASE_URL": multi_host_url(turned),
               "CABLECAR_METRICS_ADDRESS": f"{h.address}:{METRICS_PORT}"}
        if h is app_hosts[SKEWED]:
            env.update(dict(faketime_env(SKEW)))
        apps.append(AppHost(h, work, env))
    for app in apps:
        app.start()
    for app in apps:
        app.wait_ready()
    lb = HAProxy(lb_host, work, apps)
    lb.start()
    scraper = Scraper({app.host.name: f"{app.host.address}:{METRICS_PORT}" for app in apps})
    threading.Thread(target=scraper.run, name="scraper", daemon=True).start()
    setup_seconds = time.monotonic() - t_setup

    stop, give_up, watch_stop = threading.Event(), threading.Event(), threading.Event()
    writers = [Writer(lb.url, f"w{i}", stop, give_up) for i in range(a.writers)]
    threads = [threading.Thread(target=w.run, name=w.name, daemon=True) for w in writers]
    spectators: list[Spectator] = []
    followed: set[str] = set()
    t0 = time.monotonic()
    for t in threads:
        t.start()

    def follow_live_games() -> None:
        """Keep ``a.spectators`` streams on games still being played: one whose game ended is replaced."""
        live = sum(1 for s in spectators if not s.ended)
        for w in writers:
            for play in list(w.games):
                if live >= a.spectators:
                    return
                if not play.finished and play.game_id not in followed:
                    followed.add(play.game_id)
                    s = Spectator(lb_host.address, LB_PORT, play.game_id, watch_stop)
                    spectators.append(s)
                    threading.Thread(target=s.run, daemon=True).start()
                    live += 1

    def wait(seconds: float) -> None:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            follow_live_games()
            time.sleep(0.2)

    faults = Faults(writers)
    gap = a.fault_gap
    db_addresses = [n.host.address for n in nodes]
    wait(gap)
    if a.mutation:
        _mutation(faults, nodes, wait, gap)
    else:
        _faults(a, faults, nodes, apps, redis, lb, db_addresses, wait)

    stop.set()
    load_seconds = time.monotonic() - t0
    for t in threads:
        t.join(timeout=30)
    give_up.set()
    for t in threads:
        t.join(timeout=10)
    time.sleep(2)
    scraper.stop.set()
    served = scraper.total(*SERVED, at=time.monotonic()) - scraper.total(*SERVED, at=t0)
    nexts = [f.at for f in faults.done[1:]] + [time.monotonic()]
    for fault, following in zip(faults.done, nexts, strict=True):
        fault.signals = scraper.moved(fault.at, min((fault.end or fault.at) + 15, following))

    # spectators: until each has its game's whole log (or a deadline)
    from events.factory import postgres_stores
    from events.postgres.database import PostgresDatabase

    now = leader(nodes)
    assert now is not None, "no primary at the end"
    stores = postgres_stores(now.url)  # wherever Patroni put it
    store = stores.events
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
        assert isinstance(stores.database, PostgresDatabase)
        fsync = str(stores.database.rows("SHOW fsync")[0][0])
    finally:
        stores.close()
    final = leader(nodes)
    return Run(
        lb_errors=lb.events(), app_hosts=len(apps), writers=a.writers, setup_seconds=setup_seconds,
        load_seconds=load_seconds, replica_reads=int(served), writers_list=writers, faults=faults.done,
        verdict=verdict, t0=t0,
        extra={"failover engine": "Patroni 3 with etcd (Debian packages), "
                                  + ("asynchronous replication (mutation run)" if a.mutation else
                                     "synchronous mode (one of two standbys confirms each commit)"),
               "fsync": fsync, "primary at the end": final.name if final else "none",
               "clock": f"{app_hosts[SKEWED].name} {SKEW:+g} s (libfaketime) through the run"},
    )


def _faults(a: argparse.Namespace, faults: Faults, nodes: list[PatroniNode], apps: list[AppHost], redis: Redis,
            lb: HAProxy, db_addresses: list[str], wait: Callable[[float], None]) -> None:
    gap = a.fault_gap
    # 1. an app host cut off from every database server (a partition): the balancer takes it out on its
    #    503 health, the others carry the writes; back when the link heals
    victim = apps[0]
    f = faults.begin("app host cut off from the databases",
                     f"{victim.host.name}: its packets to db1-db3 dropped for {a.partition_seconds:g} s")
    cut_off(victim.host, db_addresses, True)
    wait(a.partition_seconds)
    cut_off(victim.host, db_addresses, False)
    faults.end(f)
    f.note = f"{faults.outage(f.at, f.end or f.at):.1f} s longest without an acknowledged action"
    wait(gap)

    # 2. the synchronous standby lost for a while: Patroni names the other one
    lost = sync_standby(nodes)
    assert lost is not None, "no synchronous standby"
    f = faults.begin("synchronous standby lost", f"{lost.name}: Patroni and PostgreSQL SIGKILLed, unplugged, "
                     f"{a.standby_seconds:g} s")
    lost.kill()
    wait(a.standby_seconds / 2)
    named = sync_standby(nodes)
    wait(a.standby_seconds / 2)
    lost.back()
    faults.end(f)
    f.note = (f"{faults.outage(f.at, f.end or f.at):.1f} s longest without an acknowledged action; synchronous "
              f"standby meanwhile: {named.name if named else 'none'}")
    wait(gap)

    # 3. Redis SIGKILLed, back empty 3 s later
    f = faults.begin("Redis SIGKILLed", "SIGKILL, started again empty after 3 s")
    if redis.proc is not None:
        redis.host.stop(redis.proc, signal.SIGKILL)
    wait(3)
    redis.start()
    faults.end(f)
    wait(gap)

    # 4. the balancer SIGKILLed and started again
    f = faults.begin("load balancer restarted", "HAProxy SIGKILLed and started again")
    lb.kill()
    lb.start()
    faults.end(f)
    wait(gap)

    # 5. the primary's host dies: Patroni promotes a standby by itself; the old primary comes back later
    old = leader(nodes)
    assert old is not None
    f = faults.begin("primary SIGKILLed", f"{old.name}: Patroni and PostgreSQL SIGKILLed, unplugged; "
                     "automatic failover; back after 30 s")
    old.kill()
    wait_for("a new leader", lambda: (n := leader(nodes)) is not None and n is not old, 90)
    promoted = time.monotonic() - f.at
    new = leader(nodes)
    wait(max(0.0, 30 - promoted))
    old.back()
    wait(gap)
    f.end = time.monotonic()
    outage = faults.outage(f.at, f.at + 60)
    f.acks = len(faults.acks(f.at, f.end))
    rejoined = old.role()
    f.note = (f"{new.name if new else '?'} promoted by Patroni {promoted:.1f} s after the kill; write outage "
              f"{outage:.1f} s; {old.name} back as {rejoined}")
    f.outage = outage

    # 6. a planned switchover (maintenance, a minor upgrade): patronictl, no kill; in synchronous mode the
    #    candidate is the synchronous standby (the one that holds every commit)
    wait_for(f"{old.name} streaming again", lambda: old.role() == "replica", 90)
    current, candidate = leader(nodes), sync_standby(nodes)
    assert current is not None and candidate is not None
    f = faults.begin("switchover (planned)", f"patronictl switchover from {current.name} to {candidate.name}")
    current.host.run(["patronictl", "-c", str(current.conf), "switchover", "--leader", current.name,
                      "--candidate", candidate.name, "--force"], timeout=120)
    wait_for("the switchover", lambda: leader(nodes) is candidate, 90)
    switched = time.monotonic() - f.at
    wait(gap)
    f.end = time.monotonic()
    f.acks = len(faults.acks(f.at, f.end))
    f.outage = faults.outage(f.at, f.end)
    f.note = f"{candidate.name} primary {switched:.1f} s after the command; write outage {f.outage:.1f} s"


def _mutation(faults: Faults, nodes: list[PatroniNode], wait: Callable[[float], None], gap: float) -> None:
    """Asynchronous replication, the standbys cut off for 3 s of writing, the primary killed as they return:
    a standby that lacks acknowledged actions is promoted."""
    old = leader(nodes)
    assert old is not None
    standbys = [n for n in nodes if n is not old]
    f = faults.begin("primary SIGKILLed after the standbys fell behind (mutation)",
                     "asynchronous replication; standbys unplugged 3 s while writes go on; primary SIGKILLed")
    for n in standbys:
        n.host.link(False)
    wait(3)
    old.kill()
    for n in standbys:
        n.host.link(True)
    wait_for("a new leader", lambda: (n := leader(nodes)) is not None and n is not old, 90)
    new = leader(nodes)
    f.note = f"{new.name if new else '?'} promoted {time.monotonic() - f.at:.1f} s after the kill"
    wait(gap)
    f.end = time.monotonic()
    f.acks = len(faults.acks(f.at, f.end))


def main(argv: list[str]) -> int:
    a = _args(argv)
    why = netns_works()
    if why is not None:
        print(f"cluster: cannot build hosts here: {why}", file=sys.stderr)
        return 2
    for binary, package in (("patroni", "patroni"), ("etcd", "etcd-server"), ("haproxy", "haproxy"),
                            ("redis-server", "redis-server"), ("setpriv", "util-linux"), ("faketime", "faketime")):
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
