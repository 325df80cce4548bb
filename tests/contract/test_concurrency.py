"""Many processes appending to one game with the same expected version:
exactly one wins each round, the rest get StaleVersion, and the log has no
gaps and no duplicates."""

from __future__ import annotations

import multiprocessing
import queue
import uuid

from events.records import NewEvent
from tests.contract.backends import Backend, Contract, PostgresBackend, SqliteBackend
from tests.contract.contender import ROUNDS, contend

PROCESSES = 20


class ConcurrencyContract(Contract):
    """Contending processes, on one backend per subclass."""

    def test_one_winner_per_round_across_processes(self, backend: Backend) -> None:
        store = backend.open()
        game_id = f"race-{uuid.uuid4().hex[:12]}"
        store.events.create_game(game_id, "test-game", {}, [NewEvent("started", {})], "playing")
        base = 1
        # forkserver: one clean server process (no threads, no pools) imports the
        # contender module once and forks the workers from it.
        ctx = multiprocessing.get_context("forkserver")
        ctx.set_forkserver_preload(["tests.contract.contender", "events.sqlite", "events.postgres"])
        barrier = ctx.Barrier(PROCESSES)
        results = ctx.Queue()
        processes = [
            ctx.Process(target=contend, args=(backend.url, game_id, w, base, barrier, results))
            for w in range(PROCESSES)
        ]
        for p in processes:
            p.start()
        reports = []
        try:
            for _ in processes:
                reports.append(results.get(timeout=180))
        except queue.Empty:  # pragma: no cover - a hung worker
            raise AssertionError(f"only {len(reports)} of {PROCESSES} workers reported") from None
        finally:
            for p in processes:
                p.join(timeout=30)
                if p.is_alive():  # pragma: no cover
                    p.kill()
        assert [error for _, _, error in reports if error] == []

        for round_no in range(ROUNDS):
            outcomes = [o for _, worker_outcomes, _ in reports for o in worker_outcomes if o[0] == round_no]
            assert len(outcomes) == PROCESSES
            winners = [o for o in outcomes if o[1] == "won"]
            assert len(winners) == 1, f"round {round_no}: {len(winners)} winners"
            assert winners[0][2] == base + round_no + 1
            # every loser saw the winner's version, never an older or newer one
            assert {o[2] for o in outcomes if o[1] == "stale"} == {base + round_no + 1}

        events = store.events.load(game_id)
        assert [e.seq for e in events] == list(range(1, base + ROUNDS + 1))
        assert [e.payload["round"] for e in events[1:]] == list(range(ROUNDS))
        assert store.events.version(game_id) == base + ROUNDS
        assert store.events.verify_chain(game_id).ok


class TestConcurrencySqlite(ConcurrencyContract):
    backend_type = SqliteBackend


class TestConcurrencyPostgres(ConcurrencyContract):
    backend_type = PostgresBackend
