"""Slow clients against the server: does ``/v1/health`` keep answering?

Starts the server as production runs it (gunicorn with
``service/serving/gunicorn_conf.py``: threaded workers on SQLite, gevent workers with
``--database-url``), and, unless ``--no-proxy``, also nginx in front of it
with the settings of ``docker/nginx.conf`` (the upstream and the port
rewritten; nginx's ``worker_connections`` raised, as docs/production.md
step 6 says).  Then, for each target (the workers directly, then the proxy):
``--slow-header`` connections that send a request head one byte every
``--every`` seconds and ``--slow-body`` connections that send a complete head
announcing a 2,000-byte body and then one body byte every ``--every`` seconds,
all from 127.0.0.1, held for ``--seconds``; meanwhile one prober (from 127.0.0.2) asks
``GET /v1/health`` every 0.5 s (5 s timeout).  Reported per target: the
health probes answered and their latency, and what became of the slow
connections (still open at the end, closed by the server, refused).

    python bench/bench_slow_clients.py                       # SQLite, 2,000 + 2,000 slow connections
    python bench/bench_slow_clients.py --database-url postgresql://...
"""

from __future__ import annotations

import argparse
import http.client
import os
import re
import selectors
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from service.config import SETTINGS  # noqa: E402

HEAD = b"GET /v1/health HTTP/1.1\r\nHost: bench\r\nX-Slow: "
BODY = (b"POST /v1/games HTTP/1.1\r\nHost: bench\r\nContent-Type: application/json\r\n"
        b"Content-Length: 2000\r\n\r\n{")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _health(port: int, timeout: float) -> tuple[int | None, float]:
    """One ``GET /v1/health`` from another address than the attackers'
    (127.0.0.2: the proxy's per-address limit is not the prober's)."""
    started = time.monotonic()
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=("127.0.0.2", 0))
    try:
        conn.request("GET", "/v1/health")
        resp = conn.getresponse()
        resp.read()
        return resp.status, time.monotonic() - started
    except OSError:
        return None, time.monotonic() - started
    finally:
        conn.close()


def _wait_healthy(port: int, proc: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while _health(port, 1)[0] != 200:
        if proc.poll() is not None or time.monotonic() > deadline:
            raise SystemExit("the server did not start:\n" + log.read_text())
        time.sleep(0.2)


@dataclass
class SlowResult:
    """What became of the slow connections."""

    opened: int = 0
    refused: int = 0  # the connection could not be made, or the server answered 4xx/5xx at once
    closed: int = 0  # the server ended it while it was trickling
    answers: dict[str, int] = field(default_factory=dict)


def _trickle(port: int, headers: int, bodies: int, seconds: float, every: float, result: SlowResult,
             stop: threading.Event) -> None:
    """Open the slow connections (non-blocking, one thread) and feed each a
    byte every ``every`` seconds until ``seconds`` pass or it is closed."""
    sel = selectors.DefaultSelector()
    live: dict[socket.socket, bytes] = {}
    for i in range(headers + bodies):
        s = socket.socket()
        s.setblocking(False)
        try:
            s.connect_ex(("127.0.0.1", port))
        except OSError:
            result.refused += 1
            s.close()
            continue
        live[s] = HEAD if i < headers else BODY
    time.sleep(0.5)
    for s, first in list(live.items()):
        try:
            s.send(first)
            result.opened += 1
            sel.register(s, selectors.EVENT_READ)
        except OSError:
            result.refused += 1
            live.pop(s)
            s.close()
    end = time.monotonic() + seconds
    next_byte = time.monotonic() + every
    while live and time.monotonic() < end and not stop.is_set():
        for key, _ in sel.select(timeout=0.2):
            s = key.fileobj
            assert isinstance(s, socket.socket)
            try:
                data = s.recv(4096)
            except OSError:
                data = b""
            if data:
                status = data.split(b" ", 2)[1].decode(errors="replace") if data.startswith(b"HTTP/") else "?"
                result.answers[status] = result.answers.get(status, 0) + 1
                if not status.startswith("2"):
                    result.refused += 1
            else:
                result.closed += 1
            sel.unregister(s)
            live.pop(s)
            s.close()
        if time.monotonic() >= next_byte:
            next_byte += every
            for s in list(live):
                try:
                    s.send(b"a")
                except OSError:
                    result.closed += 1
                    sel.unregister(s)
                    live.pop(s)
            s.close()
    for s in live:
        s.close()


def _attack(port: int, args: argparse.Namespace) -> tuple[list[tuple[int | None, float]], SlowResult, int]:
    result = SlowResult()
    stop = threading.Event()
    attacker = threading.Thread(target=_trickle, daemon=True, args=(
        port, args.slow_header, args.slow_body, args.seconds, args.every, result, stop))
    attacker.start()
    probes: list[tuple[int | None, float]] = []
    time.sleep(1.0)  # the connections are being opened
    end = time.monotonic() + args.seconds - 1.0
    while time.monotonic() < end:
        probes.append(_health(port, 5.0))
        time.sleep(0.5)
    still_open = 0
    stop.set()
    attacker.join(args.every + 5)
    still_open = result.opened - result.closed - result.refused
    return probes, result, max(0, still_open)


def _row(target: str, probes: list[tuple[int | None, float]], slow: SlowResult, still: int,
         args: argparse.Namespace) -> str:
    ok = [t for status, t in probes if status == 200]
    p50 = f"{statistics.median(ok) * 1000:.0f}" if ok else "-"
    worst = f"{max(t for _, t in probes) * 1000:.0f}" if probes else "-"
    answers = ", ".join(f"{k}: {v}" for k, v in sorted(slow.answers.items())) or "none"
    return (f"| {target} | {args.slow_header} + {args.slow_body} | {len(ok)} / {len(probes)} | {p50} | {worst} | "
            f"{slow.closed} | {slow.refused} ({answers}) | {still} |")


def _nginx_conf(folder: Path, upstream: int, listen: int) -> Path:
    site = (ROOT / "docker" / "nginx.conf").read_text()
    site = re.sub(r"server\s+web:\d+;", f"server 127.0.0.1:{upstream};", site)
    site = re.sub(r"listen\s+\d+;", f"listen 127.0.0.1:{listen};", site)
    (folder / "site.conf").write_text(site)
    conf = folder / "nginx.conf"
    conf.write_text(f"""daemon off;
worker_processes 1;
pid {folder}/nginx.pid;
error_log {folder}/nginx-error.log warn;
events {{ worker_connections 10000; }}
http {{
    access_log off;
    client_body_temp_path {folder}/body;
    proxy_temp_path {folder}/proxy;
    fastcgi_temp_path {folder}/fastcgi;
    uwsgi_temp_path {folder}/uwsgi;
    scgi_temp_path {folder}/scgi;
    include {folder}/site.conf;
}}
""")
    return conf


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--slow-header", type=int, default=2000)
    parser.add_argument("--slow-body", type=int, default=2000)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--every", type=float, default=5.0)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--no-proxy", action="store_true")
    parser.add_argument("--no-direct", action="store_true")
    args = parser.parse_args()
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        port = _free_port()
        env = {k: v for k, v in os.environ.items() if k not in {s.env for s in SETTINGS}}
        env.update(PYTHONPATH=str(ROOT), CABLECAR_DATA_DIR=str(folder / "data"), CABLECAR_BIND=f"127.0.0.1:{port}",
                   CABLECAR_WORKERS=str(args.workers), CABLECAR_WEBHOOKS="false", CABLECAR_ACCESS_LOG="",
                   CABLECAR_SECRET_KEY="bench-slow-clients-" + "k" * 40)
        if args.database_url:
            env["DATABASE_URL"] = args.database_url
        log = folder / "server.log"
        with log.open("wb") as out:
            server = subprocess.Popen([sys.executable, "-m", "gunicorn", "-c", "python:service.serving.gunicorn_conf",
                                       "service.serving.wsgi:app"], cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT)
        proxy = None
        try:
            _wait_healthy(port, server, log)
            kind = "gevent" if args.database_url else "gthread"
            quiet = [_health(port, 5.0)[1] for _ in range(10)]
            print(f"quiet health p50 {statistics.median(quiet) * 1000:.1f} ms", file=sys.stderr)
            if not args.no_direct:
                probes, slow, still = _attack(port, args)
                rows.append(_row(f"{kind} workers directly", probes, slow, still, args))
                time.sleep(args.every + 12)  # let the server drop what is left before the next run
            nginx = shutil.which("nginx") or "/usr/sbin/nginx"
            if not args.no_proxy and Path(nginx).exists():
                listen = _free_port()
                conf = _nginx_conf(folder, port, listen)
                proxy = subprocess.Popen([nginx, "-c", str(conf), "-p", str(folder)], stdout=subprocess.DEVNULL,
                                         stderr=subprocess.DEVNULL)
                _wait_healthy(listen, proxy, folder / "nginx-error.log")
                probes, slow, still = _attack(listen, args)
                rows.append(_row(f"nginx (docker/nginx.conf) in front of {kind} workers", probes, slow, still, args))
        finally:
            if proxy is not None:
                proxy.terminate()
                proxy.wait(10)
            server.terminate()
            server.wait(30)
        backend = "PostgreSQL" if args.database_url else "SQLite"
        print(f"# Slow clients ({backend}, {args.workers} workers)\n")
        print(f"`python bench/bench_slow_clients.py{' --database-url ...' if args.database_url else ''}`: "
              f"slow connections from one address, one byte every {args.every:g} s, held {args.seconds:g} s; "
              f"quiet health p50 {statistics.median(quiet) * 1000:.1f} ms; health probed every 0.5 s "
              "(5 s timeout).\n")
        print("| target | slow head + body connections | health answered | p50 ms | worst ms | closed by server |"
              " refused | still open at the end |")
        print("|---|---|---|---|---|---|---|---|")
        for row in rows:
            print(row)
        said = log.read_text(errors="replace")
        shutil.copy(log, Path(tempfile.gettempdir()) / "bench-slow-clients-server.log")
        print(f"\nServer log tracebacks: {said.count('Traceback')} (the log is kept in "
              f"{Path(tempfile.gettempdir()) / 'bench-slow-clients-server.log'}).")


if __name__ == "__main__":
    main()
