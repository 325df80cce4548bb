"""Webhook fairness: how long another organiser's delivery takes while one
organiser floods the dispatcher with deliveries to receivers that hang.

Through the real app (``service.api.app.create_app``, its webhook dispatcher
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

The receivers and the probe loop are shared with the load harness's security
table (``bench/load/webhooks.py``), which runs the same flood through HTTP.

The goal (issue 25): the median probe latency during the flood within 2x
of the quiet baseline.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench.load.webhooks import PLAYERS, Arrivals, hanging_receiver, probe  # noqa: E402
from service.api.app import create_app, start_dispatcher, stop_dispatcher  # noqa: E402
from service.config import Settings  # noqa: E402


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
    hang_url, accepted = hanging_receiver(stop)
    arrivals = Arrivals()
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

        def create(org: dict[str, str]) -> str:
            resp = client.post("/v1/games", json={"type": "ttr-sf", "players": PLAYERS}, headers=org)
            assert resp.status_code == 201, resp.get_json()
            return str(resp.get_json()["id"])

        def organiser(name: str) -> dict[str, str]:
            return {"Authorization": "Bearer " + client.post("/v1/organisers", json={"name": name}).get_json()["token"]}

        quiet, flood = organiser("Quiet"), organiser("Flood")
        hook = {"url": f"http://127.0.0.1:{prompt.server_address[1]}/hook", "events": ["game.started"]}
        assert client.post("/v1/webhooks", json=hook, headers=quiet).status_code == 201
        started = time.monotonic()
        baseline = probe(lambda: create(quiet), arrivals, args.probes, args.gap)
        for i in range(args.hooks):
            made = client.post("/v1/webhooks", json={"url": f"{hang_url}/h{i}", "events": ["game.started"]},
                               headers=flood)
            assert made.status_code == 201, made.get_json()
        tables = [{"players": PLAYERS} for _ in range(args.tables)]
        flood_at = time.monotonic()
        made = client.post("/v1/batches", json={"type": "ttr-sf", "tables": tables}, headers=flood)
        assert made.status_code == 201, made.get_json()
        time.sleep(1.0)  # the flood's deliveries are recorded and its first attempts hang
        during = probe(lambda: create(quiet), arrivals, args.probes, args.gap)
        flood_attempts = accepted[0]
        took = time.monotonic() - started
        stop_dispatcher(app, timeout=args.timeout + 2)
        stop.set()
        prompt.shutdown()
        app.extensions["cablecar"].stores.close()
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
