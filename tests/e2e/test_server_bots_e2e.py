"""Server bots on gunicorn + PostgreSQL + Redis: a person plays each game
type against two server bots to the end, and a bot runner killed mid-game
(kill -9) is replaced by another that finishes the game."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from bots.client import STRATEGIES, Client, play_seat
from tests.e2e.conftest import ROOT, Server, _signing_key_file

pytestmark = pytest.mark.e2e


def start_runner(pg_url: str, redis_url: str, log: Path) -> subprocess.Popen[bytes]:
    # the servers' own secret and signing key: a runner is one more process of the same server
    env = {**os.environ, "DATABASE_URL": pg_url, "REDIS_URL": redis_url, "CABLECAR_SECRET_KEY": "e2e-secret-key-0123456789abcdef0123456789abcdef",
           "CABLECAR_SIGNING_KEY_FILE": _signing_key_file(), "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1"}
    return subprocess.Popen([sys.executable, "-m", "cablecar.cli", "bots", "run", "--verbose", "--interval", "0.05"],
                            cwd=ROOT, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT)


def wait_alive(client: Client) -> None:
    """Until the server counts a live bot runner (it accepts bot seats only then: issue 36)."""
    deadline = time.monotonic() + 60
    while client.request("GET", "/v1/health")["bots"]["runners"] < 1:
        assert time.monotonic() < deadline, "no bot runner became alive"
        time.sleep(0.1)


@pytest.fixture
def runner(tmp_path: Path, pg_url: str, redis_url: str) -> Iterator[subprocess.Popen[bytes]]:
    proc = start_runner(pg_url, redis_url, tmp_path / "runner.log")
    yield proc
    proc.terminate()
    proc.wait(timeout=30)


@pytest.mark.parametrize(("game_type", "bots"), [("ttr-sf", ["planner", "mcts"]), ("cable-car", ["planner", "greedy"])])
def test_a_person_plays_against_two_server_bots_to_the_end(
    server: Server, runner: subprocess.Popen[bytes], game_type: str, bots: list[str]
) -> None:
    client = Client(server.url)
    wait_alive(client)
    body = {"type": game_type, "players": [{"name": "Ada"}, *({"name": f"Bot {b}", "bot": b} for b in bots)]}
    created = client.request("POST", "/v1/games", body)
    assert [s["token"] is None for s in created["seats"]] == [False, True, True]
    final = play_seat(client, created["id"], created["seats"][0]["token"], STRATEGIES["greedy"], random.Random(7),
                      poll=0.05)
    # a cable-car game every seat of which passed in a row ends "stalled", with no winner (the rules' own end)
    assert final["status"] == "finished", final
    assert final["result"]["winners"] or final["result"].get("reason") == "stalled", final["result"]
    assert [p["bot"] for p in final["players"]] == [None, *bots]
    assert [p["standing"] for p in final["players"]] == ["in", "in", "in"]
    audit = client.request("GET", f"/v1/games/{created['id']}/audit")
    assert audit["ok"], audit
    export = client.request("GET", f"/v1/games/{created['id']}/export")
    assert export["game"]["bots"] == [None, *bots]
    # every seat acted, each move authored by its seat
    assert {e["seat"] for e in export["events"] if e["seat"] is not None} == {0, 1, 2}
    assert runner.poll() is None


def test_a_killed_runner_is_replaced_and_the_game_finishes(
    server: Server, tmp_path: Path, pg_url: str, redis_url: str
) -> None:
    client = Client(server.url)
    body = {"type": "ttr-sf", "players": [{"name": "Ann", "bot": "greedy"}, {"name": "Bo", "bot": "planner"}]}
    first = start_runner(pg_url, redis_url, tmp_path / "first.log")
    wait_alive(client)
    game = client.request("POST", "/v1/games", body)["id"]
    deadline = time.monotonic() + 60
    while client.request("GET", f"/v1/games/{game}")["version"] < 30 and time.monotonic() < deadline:
        time.sleep(0.05)
    first.send_signal(signal.SIGKILL)  # mid-game, maybe mid-move, holding the game's lease
    first.wait()
    killed_at = client.request("GET", f"/v1/games/{game}")
    assert killed_at["status"] != "finished", "the game ended before the runner was killed"
    second = start_runner(pg_url, redis_url, tmp_path / "second.log")
    try:
        deadline = time.monotonic() + 120
        while (view := client.request("GET", f"/v1/games/{game}"))["status"] != "finished":
            assert time.monotonic() < deadline, view["version"]
            time.sleep(0.2)
    finally:
        second.terminate()
        second.wait(timeout=30)
    assert view["version"] > killed_at["version"]
    assert client.request("GET", f"/v1/games/{game}/audit")["ok"]
    assert "moved: game" in (tmp_path / "second.log").read_text()
