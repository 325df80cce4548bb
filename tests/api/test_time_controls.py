"""Time controls, timeouts, resignations and cancels through the HTTP API,
with an injected clock (nothing here sleeps): the store stamps events and
the timekeeper decides deadlines by the same fake clock."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from events.encoding.timestamps import format_timestamp
from events.factory import sqlite_stores
from events.integrity.keyset import KeySet
from events.integrity.signing import Signer
from events.integrity.verify import verify_export
from service.adapters.cache import InProcessCache
from service.adapters.signing_keys import key_path, load_server_keys, write_key_file
from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import act, auth, legal, view


class FakeClock:
    """A clock that moves only when told to."""

    def __init__(self) -> None:
        self.now = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def signer_made_at(settings: Settings, clock: FakeClock) -> Signer:
    """The server's key, made at the fake clock's time (an event recorded before its key was made fails the audit)."""
    write_key_file(key_path(settings), Signer.generate(format_timestamp(clock.now)))
    return load_server_keys(settings).signer


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def app(tmp_path: Path, clock: FakeClock) -> Iterator[Flask]:
    settings = Settings(data_dir=str(tmp_path), sse_max_seconds=2, sse_heartbeat_seconds=1,
                        open_organisers=True)
    store = sqlite_stores(str(tmp_path / "timed.sqlite3"), clock=clock, signer=signer_made_at(settings, clock))
    app = create_app(settings, stores=store, cache=InProcessCache(), clock=clock)
    app.testing = True
    yield app
    store.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def create(client: FlaskClient, game_type: str = "cable-car", players: int = 3,
           time_control: dict[str, Any] | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"type": game_type, "players": [{"name": f"P{i}"} for i in range(players)],
                            "seed": "timed"}
    if time_control is not None:
        body["time_control"] = time_control
    resp = client.post("/v1/games", json=body)
    assert resp.status_code == 201, resp.get_json()
    return resp.get_json()


def first_move(client: FlaskClient, game: dict[str, Any], seat: int) -> dict[str, Any]:
    """The seat's first legal action that is not a resignation."""
    return next(a for a in legal(client, game, seat) if a["type"] != "resign")


def events_of(client: FlaskClient, game: dict[str, Any]) -> list[dict[str, Any]]:
    return client.get(f"/v1/games/{game['id']}/events?limit=1000").get_json()["events"]


def test_an_untimed_game_has_no_clocks_and_no_deadline(client: FlaskClient) -> None:
    v = view(client, create(client))
    assert v["time_control"] == {"kind": "none"}
    assert v["clocks"] == [] and v["deadline"] is None
    assert [p["standing"] for p in v["players"]] == ["in", "in", "in"]


def test_a_per_turn_deadline_shows_in_the_view(client: FlaskClient, clock: FakeClock) -> None:
    game = create(client, time_control={"kind": "per_turn", "seconds": 60})
    v = view(client, game)
    assert v["time_control"] == {"kind": "per_turn", "seconds": 60}
    turn = v["active_seats"][0]
    assert v["clocks"][turn] == {"seat": turn, "remaining_seconds": 60.0, "running": True}
    assert v["deadline"] == "2026-11-23T12:01:00.000000Z"
    clock.advance(20)
    # the view shows the clocks at its version: the client counts down from the deadline
    assert view(client, game)["clocks"][turn]["remaining_seconds"] == 60.0
    assert act(client, game, turn, first_move(client, game, turn)).status_code == 201
    after = view(client, game)
    following = after["active_seats"][0]
    assert after["clocks"][following] == {"seat": following, "remaining_seconds": 60.0, "running": True}
    assert after["deadline"] == "2026-11-23T12:01:20.000000Z"


def test_a_chess_clock_drains_and_earns_its_increment(client: FlaskClient, clock: FakeClock) -> None:
    game = create(client, players=2, time_control={"kind": "clock", "initial_seconds": 100, "increment_seconds": 5})
    turn = view(client, game)["active_seats"][0]
    clock.advance(30)
    assert act(client, game, turn, first_move(client, game, turn)).status_code == 201
    v = view(client, game)
    assert v["clocks"][turn] == {"seat": turn, "remaining_seconds": 75.0, "running": False}  # 100 - 30 + 5
    other = 1 - turn
    assert v["clocks"][other]["running"] and v["clocks"][other]["remaining_seconds"] == 100.0
    # a replay view shows the clocks as they were
    old = client.get(f"/v1/games/{game['id']}?at=1").get_json()
    assert old["clocks"][turn] == {"seat": turn, "remaining_seconds": 100.0, "running": True}


def test_a_timeout_is_found_on_read_with_no_sweeper(client: FlaskClient, clock: FakeClock) -> None:
    game = create(client, time_control={"kind": "per_turn", "seconds": 10})
    v = view(client, game)
    turn, version = v["active_seats"][0], v["version"]
    clock.advance(9.999)
    assert view(client, game)["version"] == version  # not yet
    clock.advance(0.001)
    after = view(client, game)
    assert after["players"][turn]["standing"] == "timed_out"
    assert after["active_seats"] and after["active_seats"][0] != turn
    timed_out = [e for e in events_of(client, game) if e["type"] == "seat_timed_out"]
    assert [(e["payload"], e["seat"], e["recorded_at"]) for e in timed_out] == [
        ({"seat": turn}, None, "2026-11-23T12:00:10.000000Z")
    ]
    # the seat that is out may do nothing but is told why
    assert legal(client, game, turn) == []
    refused = act(client, game, turn, {"type": "resign"})
    assert refused.status_code == 422 and refused.get_json()["reason"] == "already_out"


def test_an_action_after_the_deadline_meets_the_timeout_first(client: FlaskClient, clock: FakeClock) -> None:
    game = create(client, time_control={"kind": "per_turn", "seconds": 10})
    v = view(client, game)
    turn = v["active_seats"][0]
    move = first_move(client, game, turn)
    clock.advance(11)
    late = act(client, game, turn, {**move, "expected_version": v["version"]})
    assert late.status_code == 409 and late.get_json()["code"] == "stale_version"
    assert view(client, game)["players"][turn]["standing"] == "timed_out"


def test_an_action_in_time_wins_over_a_stale_timeout(app: Flask, client: FlaskClient, clock: FakeClock) -> None:
    game = create(client, time_control={"kind": "per_turn", "seconds": 10})
    rt = app.extensions["cablecar"]
    before = rt.queries.load(game["id"], settle=False)
    turn = before.definition.active_seats(before.state)[0]
    clock.advance(5)
    assert act(client, game, turn, first_move(client, game, turn)).status_code == 201
    clock.advance(6)  # the deadline read at `before` has passed, but the seat acted in time
    from events.records import StaleVersion

    with pytest.raises(StaleVersion):
        rt.commands.append_events(before, None, before.definition.time_out(before.state, [turn]))
    assert all(e["type"] != "seat_timed_out" for e in events_of(client, game))


def test_the_sweeper_times_out_exactly_once(app: Flask, client: FlaskClient, clock: FakeClock) -> None:
    from service.usecases.timekeeper import Sweeper

    game = create(client, time_control={"kind": "per_turn", "seconds": 10})
    rt = app.extensions["cablecar"]
    sweepers = [Sweeper(rt.timekeeper), Sweeper(rt.timekeeper)]
    assert [s.run_once() for s in sweepers] == [0, 0]  # nothing due; the first took the lease
    clock.advance(10)
    assert [s.run_once() for s in sweepers] == [1, 0]  # only the lease holder sweeps
    clock.advance(6)  # the lease (5 s) ran out: the other may take over, and finds nothing due
    sweepers[1].run_once()
    assert sum(e["type"] == "seat_timed_out" for e in events_of(client, game)) == 1


def test_resigning_puts_the_seat_out_and_the_last_one_in_wins(client: FlaskClient) -> None:
    game = create(client, game_type="ttr-sf", players=2)
    assert legal(client, game, 1)[-1] == {"type": "resign"}
    resp = act(client, game, 1, {"type": "resign"})
    assert resp.status_code == 201
    assert [e["type"] for e in resp.get_json()["events"]][:1] == ["seat_resigned"]
    v = view(client, game)
    assert v["status"] == "finished" and v["result"]["winners"] == [0] and v["result"]["reason"] == "forfeit"
    assert [p["standing"] for p in v["result"]["players"]] == ["in", "resigned"]
    assert act(client, game, 0, {"type": "resign"}).get_json()["code"] == "game_finished"
    export = client.get(f"/v1/games/{game['id']}/export").get_json()
    verdict = verify_export(export, KeySet.from_json(client.get("/v1/keys").get_json()))
    assert verdict.ok, verdict.to_json()


def test_a_host_cancels_with_the_host_token_only(client: FlaskClient) -> None:
    game = create(client)
    url = f"/v1/games/{game['id']}/cancel"
    version = view(client, game)["version"]
    assert client.post(url).status_code == 401
    seat = client.post(url, headers=auth(game["seats"][0]["token"]))
    assert seat.status_code == 403 and seat.get_json()["code"] == "forbidden"
    assert view(client, game)["version"] == version  # nothing written
    done = client.post(url, headers=auth(game["host_token"]))
    assert done.status_code == 200
    body = done.get_json()
    assert body["status"] == "cancelled" and body["result"] is None and "me" not in body
    again = client.post(url, headers=auth(game["host_token"]))
    assert again.status_code == 409 and again.get_json()["code"] == "game_finished"
    assert act(client, game, 0, first_move(client, game, 0) if legal(client, game, 0) else {"type": "roll"}
               ).get_json()["code"] == "game_finished"
    assert [e["type"] for e in events_of(client, game)][-1] == "game_cancelled"
    listed = client.get("/v1/games?status=cancelled").get_json()["games"]
    assert [g["id"] for g in listed] == [game["id"]]
    assert client.get(f"/v1/games/{game['id']}/audit").get_json()["ok"] is True


@pytest.mark.parametrize(
    ("control", "why"),
    [
        ({"kind": "blitz"}, "kind"),
        ({"kind": "per_turn"}, "needs seconds"),
        ({"kind": "per_turn", "seconds": -5}, "between"),
        ({"kind": "per_turn", "seconds": 0}, "between"),
        ({"kind": "per_turn", "seconds": 7 * 24 * 3600 + 1}, "7 days"),
        ({"kind": "clock", "initial_seconds": 60, "increment_seconds": -1}, "between"),
        ({"kind": "clock", "initial_seconds": 60.5}, "whole number"),
        ({"kind": "per_turn", "seconds": 60, "bonus": 3}, "no field"),
        ({"kind": "none", "seconds": 60}, "no field"),
        ("per_turn", "mapping"),
    ],
)
def test_bad_time_controls_are_refused_and_nothing_is_written(client: FlaskClient, control: Any, why: str) -> None:
    resp = client.post("/v1/games", json={"type": "cable-car", "players": [{"name": "a"}, {"name": "b"}],
                                          "time_control": control})
    assert resp.status_code in (400, 422), resp.get_json()
    problem = resp.get_json()
    assert resp.content_type == "application/problem+json" and why in problem["detail"], problem
    assert client.get("/v1/games").get_json()["games"] == []


def test_a_batch_with_vanishing_players_finishes_and_its_csv_says_so(client: FlaskClient, clock: FakeClock) -> None:
    org = client.post("/v1/organisers", json={"name": "Timed cup"}).get_json()
    body = {"type": "ttr-sf", "time_control": {"kind": "per_turn", "seconds": 30, "setup_seconds": 60},
            "tables": [{"players": [{"name": f"T{t}P{p}"} for p in range(2)]} for t in range(4)]}
    body["tables"][3]["time_control"] = {"kind": "none"}
    resp = client.post("/v1/batches", json=body, headers=auth(org["token"]))
    assert resp.status_code == 201, resp.get_json()
    batch = resp.get_json()
    games = batch["games"]
    assert view(client, games[0])["time_control"]["setup_seconds"] == 60
    assert view(client, games[3])["time_control"] == {"kind": "none"}
    # nobody at tables 0-2 does anything; table 3 is untimed: its host cancels it
    assert client.post(f"/v1/games/{games[3]['id']}/cancel", headers=auth(games[3]["host_token"])).status_code == 200
    clock.advance(61)
    results = client.get(f"/v1/batches/{batch['id']}/results", headers=auth(org["token"])).get_json()
    assert results["finished"] is True
    statuses = [t["status"] for t in results["tables"]]
    assert statuses == ["finished", "finished", "finished", "cancelled"]
    rows = list(csv.DictReader(io.StringIO(client.get(
        f"/v1/batches/{batch['id']}/results?format=csv", headers=auth(org["token"])).get_data(as_text=True))))
    standings = [(r["table"], r["seat"], r["standing"], r["winner"]) for r in rows if r["table"] != "3"]
    # both seats of a table missed the same setup deadline: they went out together, and nobody won
    assert standings == [(str(t), str(s), "timed_out", "false") for t in range(3) for s in range(2)]
    assert [t["winners"] for t in results["tables"][:3]] == [[], [], []]
    assert {t["reason"] for t in results["tables"][:3]} == {"forfeit"}
    assert [r["standing"] for r in rows if r["table"] == "3"] == ["in", "in"]
