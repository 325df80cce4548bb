"""Webhook fairness: how long another organiser's delivery takes while one
organiser floods the dispatcher with deliveries to receivers that hang.

Through the real app (``service.app.create_app``, its webhook dispatcher
started as a server worker starts it; SQLite by default, PostgreSQL with
``--database-url``) and real sockets: a "quiet" organiser's webhook points at
a receiver that answers 200 at once; the "flood" organiser registers
``--hooks`` webhooks at a receiver that accepts and never answers (each
attempt is held for the whole ``--timeout``), then creates ``--tables``
games per webhook... in batches, so ``hooks x tables`` ``game.started``
deliveries fall due at once (500 by default).  The quiet organiser creates
``--probes`` games, one every ``--gap`` seconds, first with no flood (the
baseline), then during the flood; the latency of a probe is from its
creation to its arrival at the receiver.

    python bench/bench_webhook_fairness.py                  # SQLite, 10 hooks x 50 tables
    python bench/bench_webhook_fairness.py --database-url postgresql://...

The goal (issue 25): the median probe latency during the flood within 2x
of the quiet baseline.
"""

from __future__ import annotations

import argparse
import json
import socket
import statistics
import sys
import tempfile
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.app import create_app, start_dispatcher, stop_dispatcher  # noqa: E402
from service.config import Settings  # noqa: E402

PLAYERS = [{"name": "Ada"}, {"name": "Bo"}]


class _Arrivals:
    """When each game's ``game.started`` reached the prompt receiver."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.at: dict[str, float] = {}

    def serve(self) -> ThreadingHTTPServer:
        arrivals = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                now = time.monotonic()
                game = json.loads(body).get("game", {}).get("id")
                with arrivals.lock:
                    arrivals.at.setdefault(str(game), now)
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server


def _hanging_receiver(stop: threading.Event) -> tuple[str, list[int]]:
    """A receiver that accepts every connection and never answers."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1024)
    listener.settimeout(0.2)
    accepted = [0]

    def hold(conn: socket.socket) -> None:
        with conn:
            stop.wait(600)

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            accepted[0] += 1
            threading.Thread(target=hold, args=(conn,), daemon=True).start()
        listener.close()

    threading.Thread(target=serve, daemon=True).start()
    return f"http://127.0.0.1:{listener.getsockname()[1]}", accepted


def _probe(client: Any, org: dict[str, str], arrivals: _Arrivals, probes: int, gap: float) -> list[float]:
    created: dict[str, float] = {}
    for _ in range(probes):
        at = time.monotonic()
        resp = client.post("/v1/games", json={"type": "ttr-sf", "players": PLAYERS}, headers=org)
        assert resp.status_code == 201, resp.get_json()
        created[resp.get_json()["id"]] = at
        time.sleep(gap)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        with arrivals.lock:
            if all(g in arrivals.at for g in created):
                break
        time.sleep(0.02)
    with arrivals.lock:
        return [arrivals.at.get(g, float("inf")) - t for g, t in created.items()]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--database-url", default="")
    parser.add_argument("--hooks", type=int, default=10)
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--probes", type=int, default=8)
    parser.add_argument("--gap", type=float, default=1.0)
    parser.add_argument("--timeout", type=float, default=5.0)
    parser.add_argument("--poll", type=float, default=0.25)
    args = parser.parse_args()
    stop = threading.Event()
    hang_url, accepted = _hanging_receiver(stop)
    arrivals = _Arrivals()
    prompt = arrivals.serve()
    with tempfile.TemporaryDirectory() as folder:
        settings = Settings(
            data_dir=folder, database_url=args.database_url,
            secret_key="bench-webhook-fairness-" + "k" * 32,
            webhook_poll_seconds=args.poll, webhook_timeout_seconds=args.timeout,
            webhook_private_addresses=True, webhooks_per_organiser=max(10, args.hooks),
            create_rate_limit="off", organiser_create_rate_limit="off", max_batch_tables=max(50, args.tables),
        )
        app = create_app(settings)
        client = app.test_client()
        assert start_dispatcher(app) is not None

        def organiser(name: str) -> dict[str, str]:
            return {"Authorization": "Bearer " + client.post("/v1/organisers", json={"name": name}).get_json()["token"]}

        quiet, flood = organiser("Quiet"), organiser("Flood")
        hook = {"url": f"http://127.0.0.1:{prompt.server_address[1]}/hook", "events": ["game.started"]}
        assert client.post("/v1/webhooks", json=hook, headers=quiet).status_code == 201
        started = time.monotonic()
        baseline = _probe(client, quiet, arrivals, args.probes, args.gap)
        for i in range(args.hooks):
            made = client.post("/v1/webhooks", json={"url": f"{hang_url}/h{i}", "events": ["game.started"]},
                               headers=flood)
            assert made.status_code == 201, made.get_json()
        tables = [{"players": PLAYERS} for _ in range(args.tables)]
        flood_at = time.monotonic()
        made = client.post("/v1/batches", json={"type": "ttr-sf", "tables": tables}, headers=flood)
        assert made.status_code == 201, made.get_json()
        time.sleep(1.0)  # the flood's deliveries are recorded and its first attempts hang
        during = _probe(client, quiet, arrivals, args.probes, args.gap)
        flood_attempts = accepted[0]
        took = time.monotonic() - started
        stop_dispatcher(app, timeout=args.timeout + 2)
        stop.set()
        prompt.shutdown()
        app.extensions["cablecar"].store.close()
    base_p50, during_p50 = statistics.median(baseline), statistics.median(during)
    backend = "PostgreSQL" if args.database_url else "SQLite"
    print(f"# Webhook fairness ({backend})\n")
    print(f"`python bench/bench_webhook_fairness.py{' --database-url ...' if args.database_url else ''}`: "
          f"{args.hooks} hanging webhooks x {args.tables} tables = {args.hooks * args.tables} deliveries of the "
          f"flood organiser (each attempt held {args.timeout:g} s), {args.probes} probe games of a quiet "
          f"organiser every {args.gap:g} s, dispatcher poll {args.poll:g} s; run took {took:.0f} s.\n")
    print("| probes | median ms | max ms |")
    print("|---|---|---|")
    print(f"| quiet baseline | {base_p50 * 1000:.0f} | {max(baseline) * 1000:.0f} |")
    print(f"| during the flood | {during_p50 * 1000:.0f} | {max(during) * 1000:.0f} |")
    ratio = during_p50 / base_p50 if base_p50 > 0 else float("inf")
    print(f"\nFlood attempts started while probing: {flood_attempts} (connections the hanging receiver "
          f"accepted in the {took - (flood_at - started):.0f} s after the flood began). Median during / baseline: {ratio:.2f}x "
          f"(goal: at most 2x): {'met' if ratio <= 2 else 'NOT met'}.")


if __name__ == "__main__":
    main()
