"""Scheduled rounds (issue 40) through the HTTP API, with an injected clock:
a batch created with ``start_at`` has its games and tokens at once, shows
``scheduled`` and refuses every action with ``409 not_started`` until its
time; then every table starts together (``game_started``, its clocks running
from that event), by a read, the sweeper, or the organiser's
``POST /v1/batches/{id}/start``; cancelling the batch ends all its tables.
(tests/contract/test_scheduled_rounds.py runs the start on both backends.)"""

from __future__ import annotations

from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from events.encoding.timestamps import format_timestamp
from events.factory import sqlite_stores
from events.integrity.keyset import KeySet
from events.integrity.verify import verify_export
from service.adapters.cache import InProcessCache
from service.api.app import create_app
from service.config import Settings
from service.usecases.timekeeper import Sweeper
from tests.api.conftest import act, auth, legal, view
from tests.api.test_openapi import check_response
from tests.api.test_time_controls import FakeClock, signer_made_at

__all__ = ["FakeClock"]

PER_TURN = {"kind": "per_turn", "seconds": 60}


@pytest.fixture
def clock() -> FakeClock:
    return FakeClock()


@pytest.fixture
def app(tmp_path: Path, clock: FakeClock) -> Iterator[Flask]:
    settings = Settings(data_dir=str(tmp_path), sse_max_seconds=2, sse_heartbeat_seconds=1, open_organisers=True)
    store = sqlite_stores(str(tmp_path / "rounds.sqlite3"), clock=clock, signer=signer_made_at(settings, clock))
    app = create_app(settings, stores=store, cache=InProcessCache(), clock=clock)
    app.testing = True
    yield app
    store.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def org(client: FlaskClient) -> dict[str, str]:
    resp = client.post("/v1/organisers", json={"name": "Bay Area Open"})
    assert resp.status_code == 201
    return auth(resp.get_json()["token"])


def scheduled(client: FlaskClient, org: dict[str, str], clock: FakeClock, minutes: int = 10,
              tables: int = 3) -> dict[str, Any]:
    body = {"type": "cable-car", "ref": "event-77/round-1", "time_control": PER_TURN,
            "start_at": format_timestamp(clock.now + timedelta(minutes=minutes)).replace(".000000", ""),
            "tables": [{"ref": f"t{i}", "players": [{"name": "Ada"}, {"name": "Bo"}]} for i in range(tables)]}
    resp = client.post("/v1/batches", json=body, headers=org)
    assert resp.status_code == 201, resp.get_json()
    created: dict[str, Any] = check_response(resp, "/v1/batches", "post")
    return created


def events_of(client: FlaskClient, game: dict[str, Any]) -> list[dict[str, Any]]:
    return client.get(f"/v1/games/{game['id']}/events?limit=1000").get_json()["events"]


def test_a_scheduled_round_refuses_every_action_until_its_time(
    client: FlaskClient, org: dict[str, str], clock: FakeClock
) -> None:
    created = scheduled(client, org, clock)
    starts_at = "2026-11-23T12:10:00.000000Z"
    assert created["starts_at"] == starts_at
    assert {g["status"] for g in created["games"]} == {"scheduled"}
    game = created["games"][0]
    clock.advance(9 * 60 + 59)  # one second before the start
    for seat in (None, 0, 1):
        v = view(client, game, seat)
        assert (v["status"], v["starts_at"], v["active_seats"], v["deadline"]) == ("scheduled", starts_at, [], None)
        assert not any(c["running"] for c in v["clocks"])
    assert legal(client, game, 0) == [] and legal(client, game, 1) == []
    for seat in (0, 1):
        for action in ({"type": "roll"}, {"type": "resign"}):
            resp = act(client, game, seat, action)
            assert resp.status_code == 409, resp.get_json()
            problem = check_response(resp, "/v1/games/{id}/actions", "post")
            assert problem["code"] == "not_started" and problem["starts_at"] == starts_at
    assert [e["type"] for e in events_of(client, game)][-1] == "game_scheduled"
    assert client.get("/v1/games?status=scheduled").get_json()["games"][0]["starts_at"] == starts_at
    batch = client.get(f"/v1/batches/{created['id']}", headers=org).get_json()
    assert batch["starts_at"] == starts_at and batch["status_counts"]["scheduled"] == 3


def test_at_its_time_every_table_starts_together_and_its_clocks_run_from_the_start(
    app: Flask, client: FlaskClient, org: dict[str, str], clock: FakeClock
) -> None:
    created = scheduled(client, org, clock)
    sweeper = Sweeper(app.extensions["cablecar"].timekeeper)
    assert sweeper.run_once() == 0  # nothing due yet
    clock.advance(10 * 60)
    assert sweeper.run_once() == 3  # the sweeper starts every table in one pass, nobody having looked
    for game in created["games"]:
        events = events_of(client, game)
        assert [e["type"] for e in events[-2:]] == ["game_scheduled", "game_started"]
        assert events[-1]["recorded_at"] == "2026-11-23T12:10:00.000000Z"
        v = view(client, game)
        assert v["status"] == "playing" and "starts_at" not in v
        # the clock started at game_started, not at creation ten minutes earlier
        assert v["deadline"] == "2026-11-23T12:11:00.000000Z"
    game = created["games"][0]
    seat = view(client, game)["active_seats"][0]
    move = next(a for a in legal(client, game, seat) if a["type"] != "resign")
    assert act(client, game, seat, move).status_code == 201
    batch = client.get(f"/v1/batches/{created['id']}", headers=org).get_json()
    assert batch["status_counts"]["scheduled"] == 0


def test_a_read_after_the_start_time_starts_the_game(
    client: FlaskClient, org: dict[str, str], clock: FakeClock
) -> None:
    game = scheduled(client, org, clock, tables=1)["games"][0]
    clock.advance(10 * 60 + 5)
    v = view(client, game, 0)
    assert v["status"] == "playing" and v["active_seats"]
    assert events_of(client, game)[-1]["type"] == "game_started"


def test_the_organiser_starts_a_round_early_and_again_changes_nothing(
    client: FlaskClient, org: dict[str, str], clock: FakeClock
) -> None:
    created = scheduled(client, org, clock, minutes=60 * 24)
    clock.advance(30)
    resp = client.post(f"/v1/batches/{created['id']}/start", headers=org)
    assert resp.status_code == 200, resp.get_json()
    batch = check_response(resp, "/v1/batches/{batch_id}/start", "post")
    assert {g["status"] for g in batch["games"]} == {"playing"}
    versions = [g["version"] for g in batch["games"]]
    assert [g["version"] for g in client.post(f"/v1/batches/{created['id']}/start",
                                              headers=org).get_json()["games"]] == versions
    for game in created["games"]:
        assert events_of(client, game)[-1]["recorded_at"] == "2026-11-23T12:00:30.000000Z"
    other = client.post("/v1/organisers", json={"name": "Other"}).get_json()["token"]
    assert client.post(f"/v1/batches/{created['id']}/start", headers=auth(other)).status_code == 403
    assert client.post(f"/v1/batches/{created['id']}/start").status_code == 401


def test_cancelling_a_scheduled_round_ends_all_its_games_and_their_records_verify(
    client: FlaskClient, org: dict[str, str], clock: FakeClock
) -> None:
    created = scheduled(client, org, clock)
    resp = client.post(f"/v1/batches/{created['id']}/cancel", headers=org)
    assert resp.status_code == 200, resp.get_json()
    batch = check_response(resp, "/v1/batches/{batch_id}/cancel", "post")
    assert batch["finished"] and {g["status"] for g in batch["games"]} == {"cancelled"}
    keys = KeySet.from_json(client.get("/v1/keys").get_json())
    for game in created["games"]:
        export = client.get(f"/v1/games/{game['id']}/export").get_json()
        assert [e["type"] for e in export["events"]][-2:] == ["game_scheduled", "game_cancelled"]
        assert export["game"]["starts_at"] == "2026-11-23T12:10:00.000000Z"
        verdict = verify_export(export, keys)
        assert verdict.ok, verdict
    clock.advance(3600)  # the start time passes: a cancelled game stays cancelled
    assert view(client, created["games"][0])["status"] == "cancelled"


def test_a_started_round_verifies_and_a_move_recorded_before_the_start_does_not(
    client: FlaskClient, org: dict[str, str], clock: FakeClock
) -> None:
    game = scheduled(client, org, clock, tables=1)["games"][0]
    clock.advance(10 * 60)
    for _ in range(4):  # a few moves after the start
        v = view(client, game)
        seat = v["active_seats"][0]
        move = next(a for a in legal(client, game, seat) if a["type"] != "resign")
        assert act(client, game, seat, move).status_code == 201
    assert client.post(f"/v1/games/{game['id']}/cancel", headers=auth(game["host_token"])).status_code == 200
    export = client.get(f"/v1/games/{game['id']}/export").get_json()
    verdict = verify_export(export)
    assert all(c.ok for c in verdict.checks if c.name != "signatures"), verdict
    # the same record rewritten, its chain rebuilt (so only the rules can tell): what verify's moves check says
    events = export["events"]
    started = [e["type"] for e in events].index("game_started")
    for rewritten, why in (
        (events[:started] + events[started + 1:], "before the scheduled game started"),  # the start left out
        (events[:started] + events[started + 1:started + 2] + [events[started]] + events[started + 2:],
         "before the scheduled game started"),  # a move before the start
        (events[:started] + [events[started], events[started]] + events[started + 1:],
         "the game was not waiting for its start"),  # started twice
        ([{**e, "payload": {"starts_at": "soon"}} if e["type"] == "game_scheduled" else e for e in events],
         "starts_at is not an ISO-8601 time"),
    ):
        moves = next(c for c in verify_export(_rechained(export, rewritten)).checks if c.name == "moves")
        assert not moves.ok and why in moves.detail, moves


def _rechained(export: dict[str, Any], chosen: list[dict[str, Any]]) -> dict[str, Any]:
    """``export`` with the events ``chosen``, renumbered and re-chained."""
    from events.integrity.envelope import GENESIS_HASH, recompute_hash
    from events.records import StoredEvent

    events, prev = [], GENESIS_HASH
    for seq, e in enumerate(chosen, 1):
        fields = {k: e[k] for k in ("game_id", "position", "type", "schema_version", "payload", "recorded_at", "seat",
                                    "idempotency_key")}
        stored = StoredEvent(seq=seq, prev_hash=prev, hash="", **fields)
        digest = recompute_hash(stored)
        events.append({**fields, "seq": seq, "prev_hash": prev, "hash": digest})
        prev = digest
    return {**export, "events": events, "chain": {"length": len(events), "head": prev},
            "game": {**export["game"], "version": len(events)}}


def test_the_event_catalogue_lists_the_start(client: FlaskClient) -> None:
    for game_type in ("ttr-sf", "cable-car"):
        catalogue = client.get(f"/v1/game-types/{game_type}/events").get_json()["events"]
        by_type = {e["event_type"]: e for e in catalogue}
        assert by_type["game_started"]["schema"]["properties"] == {}
        assert by_type["game_scheduled"]["schema"]["required"] == ["starts_at"]


def test_a_scheduled_games_bot_seat_waits_for_the_start_too(
    app: Flask, client: FlaskClient, org: dict[str, str], clock: FakeClock
) -> None:
    store = app.extensions["cablecar"].stores
    store.bot_turns.beat_bot_runner("test-runner", store.deadlines.database_time(), 3600)  # a runner is alive: bot seats are accepted
    body = {"type": "cable-car", "start_at": "2026-11-23T12:10:00Z",
            "tables": [{"players": [{"name": "Robo", "bot": "random"}, {"name": "Bo"}]}]}
    resp = client.post("/v1/batches", json=body, headers=org)
    assert resp.status_code == 201, resp.get_json()
    game = resp.get_json()["games"][0]

    def claimable() -> list[str]:
        taken = store.bot_turns.claim_bot_turns("probe", clock.now, 1, clock.now + timedelta(hours=1), 10)
        for game_id in taken:
            store.bot_turns.release_bot_turn(game_id, "probe")
        return taken

    clock.advance(5 * 60)
    assert claimable() == []  # the bot seat acts first, but the game waits: no runner is given it
    clock.advance(5 * 60)
    assert view(client, game)["status"] == "playing"  # the read starts it
    assert claimable() == [game["id"]]


def test_a_lost_token_is_replaced_before_the_start_and_the_game_still_waits(
    client: FlaskClient, org: dict[str, str], clock: FakeClock
) -> None:
    game = scheduled(client, org, clock, tables=1)["games"][0]
    resp = client.post(f"/v1/games/{game['id']}/seats/1/token", headers=auth(game["host_token"]))
    assert resp.status_code == 200, resp.get_json()
    assert view(client, game)["status"] == "scheduled"
    assert client.get("/v1/games?status=scheduled").get_json()["games"][0]["id"] == game["id"]
    clock.advance(10 * 60)
    assert view(client, game)["status"] == "playing"
    assert client.get("/v1/games?status=scheduled").get_json()["games"] == []


def test_a_scheduled_round_made_with_a_creation_key_is_made_once(
    client: FlaskClient, org: dict[str, str], clock: FakeClock
) -> None:
    # the key binds the body as read, the start time included (a datetime once read: hashed as its instant)
    body = {"type": "cable-car", "start_at": "2026-11-23T12:10:00Z",
            "tables": [{"players": [{"name": "Ada"}, {"name": "Bo"}]}]}
    headers = {**org, "Idempotency-Key": "round-1-of-event-77"}
    first = client.post("/v1/batches", json=body, headers=headers)
    assert first.status_code == 201, first.get_json()
    again = client.post("/v1/batches", json=body, headers=headers)
    assert again.status_code in (200, 201) and again.get_json()["id"] == first.get_json()["id"]
    later = client.post("/v1/batches", json={**body, "start_at": "2026-11-23T12:20:00Z"}, headers=headers)
    assert later.status_code == 422 and later.get_json()["code"] == "idempotency_key_reused"


def test_an_untimed_round_leaves_the_deadline_index_once_started(
    app: Flask, client: FlaskClient, org: dict[str, str], clock: FakeClock
) -> None:
    body = {"type": "cable-car", "start_at": "2026-11-23T12:10:00Z",
            "tables": [{"players": [{"name": "Ada"}, {"name": "Bo"}]}]}
    created = client.post("/v1/batches", json=body, headers=org).get_json()
    [game] = created["games"]
    timekeeper = app.extensions["cablecar"].timekeeper
    written: list[tuple[str, int, Any]] = []
    set_deadline = timekeeper.index.set_deadline
    timekeeper.index.set_deadline = lambda *a: (written.append(a), set_deadline(*a))[1]
    assert client.post(f"/v1/batches/{created['id']}/start", headers=org).status_code == 200
    seat = view(client, game)["active_seats"][0]
    assert act(client, game, seat, legal(client, game, seat)[0]).status_code == 201
    assert written == []  # no index write per action of a game with no clock
    clock.advance(10 * 60)  # its old start time passes: the sweeper takes it out of the index, once
    assert Sweeper(timekeeper).run_once() == 1 and Sweeper(timekeeper).run_once() == 0
    assert [due for _, _, due in written] == [None]
