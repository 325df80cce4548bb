"""Bots play complete games over HTTP against gunicorn + PostgreSQL + Redis."""

from __future__ import annotations

import json
import random
import threading
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from bots.client import STRATEGIES, Client, create_game, play_game
from domain.core import replay
from domain.registry import game_definition
from events.encoding.codec import decode
from events.records import StoredEvent
from tests.e2e.conftest import Server, start_gunicorn, stop

pytestmark = pytest.mark.e2e


def _replayed_result(export: dict[str, Any]) -> dict[str, Any] | None:
    game = game_definition(export["game"]["type"])
    stored = [StoredEvent(**{k: e[k] for k in StoredEvent.__dataclass_fields__}) for e in export["events"]]
    state = replay(game, [decode(game, e) for e in stored])
    return game.result(state)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_bots_play_complete_ttr_games(server: Server, players: int) -> None:
    client = Client(server.url)

    def one(i: int) -> tuple[str, dict[str, Any]]:
        run = create_game(client, "ttr-sf", [f"bot{j}" for j in range(players)], seed=f"e2e-{players}-{i}")
        strategy = STRATEGIES["greedy" if i % 2 == 0 else "random"]
        return run.game_id, play_game(client, run, strategy, random.Random(i))

    with ThreadPoolExecutor(max_workers=2) as pool:
        finished = list(pool.map(one, range(2)))
    for game_id, final in finished:
        assert final["status"] == "finished"
        audit = client.request("GET", f"/v1/games/{game_id}/audit")
        assert audit["ok"], audit
        export = client.request("GET", f"/v1/games/{game_id}/export")
        assert len(export["events"]) == final["version"]
        assert _replayed_result(export) == final["result"]


def test_stream_wakes_across_workers(server: Server) -> None:
    """A spectator's SSE stream (served by any worker) sees actions posted to
    other workers: wake-ups come from PostgreSQL, not process memory."""
    client = Client(server.url)
    run = create_game(client, "ttr-sf", ["a", "b"], seed="sse-e2e")
    seen: list[int] = []
    done = threading.Event()

    def listen() -> None:
        req = urllib.request.Request(f"{server.url}/v1/games/{run.game_id}/events/stream")
        with urllib.request.urlopen(req, timeout=30) as resp:
            for raw in resp:
                line = raw.decode().strip()
                if line.startswith("id: "):
                    seen.append(int(line[4:]))
                    if len(seen) >= 12:
                        break
        done.set()

    t = threading.Thread(target=listen, daemon=True)
    t.start()
    rng = random.Random(1)
    for _ in range(40):
        view = client.request("GET", f"/v1/games/{run.game_id}")
        if len(seen) >= 12 or view["status"] == "finished":
            break
        for seat in view["active_seats"]:
            legal = client.request("GET", f"/v1/games/{run.game_id}/legal-actions", token=run.tokens[seat])
            if legal["actions"]:
                client.request("POST", f"/v1/games/{run.game_id}/actions",
                               {**rng.choice(legal["actions"]), "expected_version": legal["version"]},
                               token=run.tokens[seat])
                break
    assert done.wait(20), f"stream saw only {seen}"
    assert seen == sorted(seen) and seen[0] == 1 and len(set(seen)) == len(seen)


def test_redis_down_mid_run_keeps_answering(
    tmp_path: Path, pg_url: str, own_redis: tuple[str, Any]
) -> None:
    url, redis_proc = own_redis
    srv = start_gunicorn(tmp_path, {"DATABASE_URL": pg_url, "REDIS_URL": url, "CABLECAR_SECRET_KEY": "e2e-secret-key-0123456789abcdef0123456789abcdef"},
                         workers=2)
    try:
        client = Client(srv.url)
        assert client.request("GET", "/v1/health")["cache"]["ok"] is True
        run = create_game(client, "ttr-sf", ["a", "b"], seed="redis-down")
        before = client.request("GET", f"/v1/games/{run.game_id}")
        redis_proc.kill()
        redis_proc.wait()
        health = client.request("GET", "/v1/health")
        assert health["status"] == "degraded" and health["cache"]["ok"] is False
        final = play_game(client, run, STRATEGIES["greedy"], random.Random(3))
        assert final["status"] == "finished" and final["version"] > before["version"]
        audit = client.request("GET", f"/v1/games/{run.game_id}/audit")
        assert audit["ok"]
    finally:
        stop(srv)
        print(json.dumps({"log_tail": srv.log.read_text()[-500:]}))


@pytest.mark.parametrize("players", [2, 5])
def test_bot_plays_a_cable_car_game(server: Server, players: int) -> None:
    client = Client(server.url)
    run = create_game(client, "cable-car", [f"tram{j}" for j in range(players)], seed=f"cc-e2e-{players}")
    final = play_game(client, run, STRATEGIES["greedy"], random.Random(players))
    assert final["status"] == "finished" and "winners" in final["result"]
    audit = client.request("GET", f"/v1/games/{run.game_id}/audit")
    assert audit["ok"], audit
    export = client.request("GET", f"/v1/games/{run.game_id}/export")
    assert _replayed_result(export) == final["result"]
