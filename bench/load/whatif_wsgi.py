"""What-if: the service with two redundant round trips of an action removed.

Served like ``bench.load.instrumented_wsgi`` but with the event store of the
app patched (bench only; ``service/`` is not changed) to measure what two
proposed changes would buy on the write path:

1. **one game-row read per request**: ``POST /actions`` reads the game row
   three times (the route, ``GameService.act`` and ``GameService.load``);
   here ``get_game`` is remembered for the rest of the request (and forgotten
   after every append, so a stale-version retry still sees the new version);
2. **no up-front idempotency lookup**: ``GameService.act`` looks the key up in
   its own transaction before deciding, although the append function checks
   the key atomically anyway.  Here the lookup answers "unused".  That is only
   right for first attempts (which is all the write path sends); the proposed
   change is to look the key up *only* when the request cannot go on (version
   mismatch, finished game, rules error): see bench/README.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from flask import g, has_request_context

from bench.load.instrumented_wsgi import app as instrumented_app
from bench.load.instrumented_wsgi import service_app
from events.store import AppendResult, EventStore, GameRecord, NewEvent
from service.runtime import Runtime


def patch(store: EventStore) -> None:
    """Install both changes on ``store`` (instance attributes shadow the methods)."""
    get_game, append = store.get_game, store.append

    def remembered_get_game(game_id: str) -> GameRecord:
        if not has_request_context():
            return get_game(game_id)
        memo: dict[str, GameRecord] = g.setdefault("bench_games", {})
        if game_id not in memo:
            memo[game_id] = get_game(game_id)
        return memo[game_id]

    def forgetting_append(
        game_id: str, expected_version: int, events: Sequence[NewEvent], idempotency_key: str | None = None,
        request_hash: str | None = None, status: str | None = None,
    ) -> AppendResult:
        if has_request_context():
            g.setdefault("bench_games", {}).pop(game_id, None)
        return append(game_id, expected_version, events, idempotency_key, request_hash, status)

    def no_lookup(game_id: str, idempotency_key: str) -> AppendResult | None:
        return None

    patched: Mapping[str, Any] = {
        "get_game": remembered_get_game, "append": forgetting_append, "lookup_idempotency": no_lookup,
    }
    for name, function in patched.items():
        setattr(store, name, function)


_runtime = service_app.extensions["cablecar"]
assert isinstance(_runtime, Runtime)
patch(_runtime.store)
app = instrumented_app
