"""Cable-car legal-action samples: ``?sample=10`` on the largest turns.

Through the real app (``service.api.app.create_app`` on SQLite, Flask's test
client, one thread), ``--games`` cable-car games are played by a random bot
that only ever asks ``GET /v1/games/{id}/legal-actions?sample=10&seed=S``
and sends one of the ten actions.  Every timed request is the first for its
(game, version, seat): nothing is memoised yet, so each pays for building
the turn's tables, counting the pairs of every first placement and producing
the runs the sample falls in.  Percentiles in ms of wall time and this
thread's CPU time, for every turn and for the turns with at least
``--big`` legal actions (the goal: <= 50 ms at p95 for a ~290,000-pair turn).
The outside client's random run (issue 27) spent 113 s mostly reading pages;
the whole run's time is printed too.

    python bench/bench_legal_sample.py --games 6 --players 2
"""

from __future__ import annotations

import argparse
import random
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from service.api.app import create_app  # noqa: E402
from service.config import Settings  # noqa: E402


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * 1000 if ordered else float("nan")


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=6)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--big", type=int, default=250_000, help="a turn this long or longer counts as big")
    args = parser.parse_args()
    rnd = random.Random(27)
    rows: list[tuple[int, float, float]] = []  # (total, wall, cpu)
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Settings(data_dir=tmp))
        client = app.test_client()
        for g in range(-1, args.games):  # game -1 warms the process up (a worker does it once)
            body = {"type": "cable-car", "players": [{"name": f"P{i}"} for i in range(args.players)],
                    "seed": f"sample-{g}"}
            game = client.post("/v1/games", json=body).get_json()
            for _ in range(400):
                state = client.get(f"/v1/games/{game['id']}").get_json()
                if state["status"] in ("finished", "cancelled"):
                    break
                seat = state["active_seats"][0]
                headers = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
                url = f"/v1/games/{game['id']}/legal-actions?sample=10&seed=bench-{rnd.random()}"
                t0, c0 = time.perf_counter(), time.thread_time()
                resp = client.get(url, headers=headers)
                wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
                assert resp.status_code == 200, resp.get_json()
                answer = resp.get_json()
                if g >= 0:
                    rows.append((answer["total"], wall, cpu))
                moves = [a for a in answer["actions"] if a["type"] != "resign"] or answer["actions"]
                sent = client.post(f"/v1/games/{game['id']}/actions", headers=headers,
                                   json={**rnd.choice(moves), "expected_version": answer["version"]})
                assert sent.status_code == 201, sent.get_json()
    took = time.perf_counter() - started
    big = [r for r in rows if r[0] >= args.big]
    print(f"{args.games} cable-car games ({args.players} players), {len(rows)} turns timed, "
          f"{len(big)} with >= {args.big:,} actions (largest {max(r[0] for r in rows):,}); whole run {took:.1f} s")
    print("| turns | n | wall p50 ms | wall p95 ms | CPU p50 ms | CPU p95 ms |")
    print("|---|---|---|---|---|---|")
    for name, chosen in (("every turn", rows), (f">= {args.big:,} actions", big)):
        wall = [r[1] for r in chosen]
        cpu = [r[2] for r in chosen]
        print(f"| {name} | {len(chosen)} | {_pct(wall, 0.5):.1f} | {_pct(wall, 0.95):.1f} "
              f"| {_pct(cpu, 0.5):.1f} | {_pct(cpu, 0.95):.1f} |")


if __name__ == "__main__":
    main()
