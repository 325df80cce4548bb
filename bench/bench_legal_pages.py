"""Cable-car legal-action pages: the first page of a turn, the pages after
it, the count behind each page's ``total``, and the whole list the first
page used to wait for.

Through the real app (``service.api.app.create_app`` on SQLite, Flask's test
client, one thread): for ``--games`` fresh cable-car games, after one to warm the process up (a new (game,
version, seat) each, so nothing is memoised yet), ``GET
/v1/games/{id}/legal-actions`` page by page with the default page size, the
first ``--pages`` pages of the turn; and, for the same positions, the time
the rules take to count the pairs alone (``PairTables.count``, on tables
already built) and to list every action at once (what the first page cost
before pages were generated lazily).  Percentiles in ms, of wall time and of
this thread's CPU time (on a machine shared with other work the CPU time
is the steadier figure: wall time also counts waiting for a core).

    python bench/bench_legal_pages.py --games 30 --pages 5
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from domain.cablecar import GAME  # noqa: E402
from domain.cablecar.actions import LayTiles  # noqa: E402
from domain.cablecar.pairs import PairTables, legal_pairs  # noqa: E402
from service.api.app import create_app  # noqa: E402
from service.config import Settings  # noqa: E402


def _pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] * 1000


def main() -> None:
    """Measure and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=30)
    parser.add_argument("--pages", type=int, default=5, help="pages read per turn, in order")
    parser.add_argument("--players", type=int, default=4)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app(Settings(data_dir=tmp))
        client = app.test_client()
        first: list[float] = []
        later: list[float] = []
        whole: list[float] = []
        count: list[float] = []
        cpu: dict[str, list[float]] = {"first": [], "later": [], "whole": [], "count": []}
        totals: list[int] = []
        for g in range(-1, args.games):  # game -1 warms the process' caches up (a worker does it once)
            body = {"type": "cable-car", "players": [{"name": f"P{i}"} for i in range(args.players)],
                    "seed": f"pages-{g}"}
            game = client.post("/v1/games", json=body).get_json()
            seat = client.get(f"/v1/games/{game['id']}").get_json()["active_seats"][0]
            headers = {"Authorization": f"Bearer {game['seats'][seat]['token']}"}
            cursor: str | None = ""  # the first page has no cursor; None: no more pages
            for page in range(args.pages):
                if cursor is None:
                    break
                t0, c0 = time.perf_counter(), time.thread_time()
                query = f"?cursor={cursor}" if cursor else ""
                resp = client.get(f"/v1/games/{game['id']}/legal-actions{query}", headers=headers)
                elapsed = time.perf_counter() - t0
                if g < 0:
                    continue
                cpu["first" if page == 0 else "later"].append(time.thread_time() - c0)
                assert resp.status_code == 200, resp.get_json()
                answer = resp.get_json()
                (first if page == 0 else later).append(elapsed)
                cursor = answer["next_cursor"]
                if page == 0:
                    totals.append(answer["total"])
            if g < 0:
                continue
            loaded = app.extensions["cablecar"].queries.load(game["id"])
            hand = loaded.state.players[seat].hand
            tables = PairTables(loaded.state.board, hand)
            t0, c0 = time.perf_counter(), time.thread_time()
            counted = tables.count()
            count.append(time.perf_counter() - t0)
            cpu["count"].append(time.thread_time() - c0)
            t0, c0 = time.perf_counter(), time.thread_time()
            everything = [LayTiles(p) for p in legal_pairs(loaded.state.board, hand)]
            whole.append(time.perf_counter() - t0)
            cpu["whole"].append(time.thread_time() - c0)
            assert len(everything) == counted <= totals[-1]
            assert GAME.legal_actions(loaded.state, seat)[:3]  # the rules agree there is something to page
    print(f"{args.games} cable-car openings ({args.players} players), {min(totals):,} to {max(totals):,} actions each; "
          f"default page size (1000)")
    print("| what | n | wall p50 ms | wall p95 ms | CPU p50 ms | CPU p95 ms |")
    print("|---|---|---|---|---|---|")
    for name, values, key in (("first page (lazy, as shipped)", first, "first"),
                              (f"pages 2..{args.pages} (in order)", later, "later"),
                              ("the count alone (PairTables.count, each page's total)", count, "count"),
                              ("the whole list at once (what the first page waited for before)", whole, "whole")):
        print(f"| {name} | {len(values)} | {_pct(values, 0.5):.1f} | {_pct(values, 0.95):.1f} "
              f"| {_pct(cpu[key], 0.5):.1f} | {_pct(cpu[key], 0.95):.1f} |")


if __name__ == "__main__":
    main()
