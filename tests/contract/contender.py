"""The contender processes of ``test_concurrency`` (kept free of pytest so
that starting 20 of them is cheap)."""

from __future__ import annotations

import os
from typing import Any

from events import open_store
from events.integrity.signing import Signer
from events.records import NewEvent, StaleVersion

ROUNDS = int(os.environ.get("CABLECAR_CONTENTION_ROUNDS", "5"))


def contend(url: str, game_id: str, worker: int, base: int, barrier: Any, results: Any) -> None:
    """One contender on the store ``url`` names (as the server opens it, with
    a small pool): each round, append after version ``base + round``."""
    outcomes: list[tuple[int, str, int]] = []
    try:
        store = open_store(url, pool_size=2, signer=Signer.generate())
        for round_no in range(ROUNDS):
            barrier.wait(timeout=120)
            event = NewEvent("move", {"worker": worker, "round": round_no}, seat=worker % 4)
            try:
                written = store.events.append(game_id, base + round_no, [event]).events
                outcomes.append((round_no, "won", written[0].seq))
            except StaleVersion as e:
                outcomes.append((round_no, "stale", e.current))
        store.close()
        results.put((worker, outcomes, None))
    except BaseException as e:  # report instead of dying silently
        barrier.abort()
        results.put((worker, outcomes, repr(e)))
