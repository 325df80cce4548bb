"""Tournament refs (issue 40) through every surface a tournament tool reads:
the batch answers, every view, the game listing, the results (JSON and CSV),
the export, and the webhook bodies a real HTTP receiver gets; refs on a
single game made with an organiser token; bad refs refused with nothing
written; and the standings across two rounds, recounted from the exports."""

from __future__ import annotations

import csv
import io
from collections import defaultdict
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.api.app import create_app, start_dispatcher, stop_dispatcher
from tests.api.conftest import auth, play_to_end, view
from tests.api.test_openapi import check_response
from tests.api.test_webhooks import Receiver, fast, organiser, receiver, wait_for, webhook

__all__ = ["receiver"]  # the real HTTP receiver, a fixture of tests/api/test_webhooks.py

# a ref may hold any printable character, unchanged: slashes, spaces, non-ASCII
EVENT = "event-77/"
ROUND_1 = EVENT + "round 1"


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    """The app with its webhook dispatcher running, as in a server worker."""
    app = create_app(fast(tmp_path))
    app.testing = True
    assert start_dispatcher(app) is not None
    yield app
    stop_dispatcher(app, timeout=10)
    app.extensions["cablecar"].stores.close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


def round_body(ref: str, pairs: list[list[str]], seed: str) -> dict[str, Any]:
    """A ttr-sf round: one table per pair of player refs (the name is the ref's tail)."""
    return {
        "type": "ttr-sf", "name": ref, "ref": ref,
        "tables": [
            {"ref": f"table {i + 1}", "seed": f"{seed}-{i}",
             "players": [{"name": p.split("-")[-1].title(), "ref": p} for p in pair]}
            for i, pair in enumerate(pairs)
        ],
    }


def create_round(client: FlaskClient, org: dict[str, str], body: dict[str, Any]) -> dict[str, Any]:
    resp = client.post("/v1/batches", json=body, headers=org)
    assert resp.status_code == 201, resp.get_json()
    created: dict[str, Any] = check_response(resp, "/v1/batches", "post")
    return created


def test_refs_come_back_unchanged_from_every_surface(client: FlaskClient, receiver: Receiver) -> None:
    org = organiser(client)
    webhook(client, org, receiver.url)
    created = create_round(client, org, round_body(ROUND_1, [["fide-ada", "fide-bo"], ["fide-cy", "fide-dé"]], "r"))
    # the creation answer
    assert created["ref"] == ROUND_1 and created["starts_at"] is None
    assert [g["ref"] for g in created["games"]] == ["table 1", "table 2"]
    assert [[s["ref"] for s in g["seats"]] for g in created["games"]] == [["fide-ada", "fide-bo"],
                                                                          ["fide-cy", "fide-dé"]]
    game = created["games"][1]
    # the batch, and the organiser's listing by ref prefix
    batch = check_response(client.get(f"/v1/batches/{created['id']}", headers=org), "/v1/batches/{batch_id}")
    assert batch["ref"] == ROUND_1 and [g["ref"] for g in batch["games"]] == ["table 1", "table 2"]
    assert [p["ref"] for p in batch["games"][1]["players"]] == ["fide-cy", "fide-dé"]
    listed = check_response(client.get(f"/v1/batches?ref_prefix={EVENT}", headers=org), "/v1/batches")
    assert [b["ref"] for b in listed["batches"]] == [ROUND_1]
    assert client.get("/v1/batches?ref_prefix=event-78/", headers=org).get_json()["batches"] == []
    # every view: spectator and seat
    for seat in (None, 0):
        v = view(client, game, seat)
        assert v["ref"] == "table 2" and v["batch_ref"] == ROUND_1
        assert [p["ref"] for p in v["players"]] == ["fide-cy", "fide-dé"]
    # the public listing, filtered by ref
    page = check_response(client.get("/v1/games?ref=table%202"), "/v1/games")
    assert [g["id"] for g in page["games"]] == [game["id"]]
    assert page["games"][0]["ref"] == "table 2" and page["games"][0]["batch_ref"] == ROUND_1
    assert [p["ref"] for p in page["games"][0]["players"]] == ["fide-cy", "fide-dé"]
    # the webhook bodies (game.started now, game.finished at the end)
    started = {r.json["game"]["id"]: r.json for r in wait_for(lambda: len(receiver.of("game.started")) == 2
                                                               and receiver.of("game.started"))}
    assert started[game["id"]]["batch_ref"] == ROUND_1 and started[game["id"]]["game"]["ref"] == "table 2"
    assert [p["ref"] for p in started[game["id"]]["game"]["players"]] == ["fide-cy", "fide-dé"]
    play_to_end(client, game)
    [finished] = wait_for(lambda: receiver.of("game.finished"))
    assert finished.json["batch_ref"] == ROUND_1 and finished.json["game"]["ref"] == "table 2"
    assert [p["ref"] for p in finished.json["game"]["players"]] == ["fide-cy", "fide-dé"]
    # the results, JSON and CSV
    results = check_response(client.get(f"/v1/batches/{created['id']}/results", headers=org),
                             "/v1/batches/{batch_id}/results")
    assert results["ref"] == ROUND_1 and [t["ref"] for t in results["tables"]] == ["table 1", "table 2"]
    assert [p["ref"] for p in results["tables"][1]["players"]] == ["fide-cy", "fide-dé"]
    text = client.get(f"/v1/batches/{created['id']}/results.csv", headers=org).get_data(as_text=True)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["table_ref"], r["player_ref"]) for r in rows] == [
        ("table 1", "fide-ada"), ("table 1", "fide-bo"), ("table 2", "fide-cy"), ("table 2", "fide-dé")]
    # the export: the record's header names them
    export = client.get(f"/v1/games/{game['id']}/export").get_json()
    assert export["game"]["ref"] == "table 2" and export["game"]["batch_ref"] == ROUND_1
    assert export["game"]["player_refs"] == ["fide-cy", "fide-dé"]


def test_a_single_game_takes_refs_with_an_organiser_token_only(client: FlaskClient) -> None:
    org = organiser(client)
    body = {"type": "cable-car", "ref": "friendly-1",
            "players": [{"name": "Ada", "ref": "p-ada"}, {"name": "Bo"}]}
    resp = client.post("/v1/games", json=body, headers=org)
    assert resp.status_code == 201, resp.get_json()
    created = check_response(resp, "/v1/games", "post")
    assert created["ref"] == "friendly-1" and [s["ref"] for s in created["seats"]] == ["p-ada", None]
    v = view(client, created)
    assert v["ref"] == "friendly-1" and v["batch_ref"] is None and [p["ref"] for p in v["players"]] == ["p-ada", None]
    refused = client.post("/v1/games", json=body)
    assert refused.status_code == 400 and refused.get_json()["errors"][0]["field"] == "ref"
    assert len(client.get("/v1/games").get_json()["games"]) == 1


@pytest.mark.parametrize(("change", "field"), [
    (lambda b: b["tables"][1].update(ref="table 1"), "tables.1.ref"),
    (lambda b: b["tables"][1]["players"][1].update(ref="fide-cy"), "tables.1.players.1.ref"),
    (lambda b: b["tables"][0]["players"][1].update(ref="x" * 129), "tables.0.players.1.ref"),
    (lambda b: b["tables"][0].update(ref=""), "tables.0.ref"),
    (lambda b: b.update(ref="round\n1"), "ref"),
    (lambda b: b["tables"][1]["players"][0].update(ref="zero\u200bwidth"), "tables.1.players.0.ref"),
    (lambda b: b.update(start_at="2020-01-01T00:00:00Z"), "start_at"),
    (lambda b: b.update(start_at="2099-01-01T00:00:00Z"), "start_at"),
    (lambda b: b.update(start_at="2026-05-01T18:00:00+02:00"), "start_at"),
    (lambda b: b.update(start_at="tomorrow"), "start_at"),
])
def test_a_bad_ref_or_start_is_refused_naming_it_and_nothing_is_written(
    client: FlaskClient, change: Any, field: str
) -> None:
    org = organiser(client)
    body = round_body(ROUND_1, [["fide-ada", "fide-bo"], ["fide-cy", "fide-di"]], "bad")
    change(body)
    resp = client.post("/v1/batches", json=body, headers=org)
    assert resp.status_code == 400, resp.get_json()
    problem = resp.get_json()
    assert problem["code"] == "invalid_request" and field in [e["field"] for e in problem["errors"]], problem
    assert client.get("/v1/games").get_json()["games"] == []
    assert client.get("/v1/batches", headers=org).get_json()["batches"] == []


def test_standings_over_two_rounds_equal_a_recount_from_the_exports(client: FlaskClient) -> None:
    org = organiser(client)
    first = create_round(client, org, round_body(EVENT + "round-1", [["p-ada", "p-bo"], ["p-cy", "p-di"]], "s1"))
    second = create_round(client, org, round_body(EVENT + "round-2", [["p-ada", "p-cy"], ["p-bo", "p-di"]], "s2"))
    rounds = check_response(client.get(f"/v1/batches?ref_prefix={EVENT}", headers=org), "/v1/batches")
    assert sorted(b["id"] for b in rounds["batches"]) == sorted([first["id"], second["id"]])
    for game in first["games"] + second["games"]:
        play_to_end(client, game)
    query = f"/v1/organisers/me/standings?batch={first['id']}&batch={second['id']}"
    standings = check_response(client.get(query, headers=org), "/v1/organisers/me/standings")
    assert standings["finished"] and standings["tie_breaks"] == ["wins", "points", "completed_tickets"]
    # the recount: every export's result, keyed by the player refs in its header
    recount: dict[str, list[int]] = defaultdict(lambda: [0, 0, 0, 0])
    for game in first["games"] + second["games"]:
        export = client.get(f"/v1/games/{game['id']}/export").get_json()
        for seat, ref in enumerate(export["game"]["player_refs"]):
            player = export["result"]["players"][seat]
            total = recount[ref]
            total[0] += 1
            total[1] += seat in export["result"]["winners"]
            total[2] += player["total"]
            total[3] += player["completed_tickets"]
    got = {p["player_ref"]: [p["games"], p["wins"], p["points"], p["completed_tickets"]]
           for p in standings["standings"]}
    assert got == dict(recount)
    order = [tuple(recount[p["player_ref"]][1:]) for p in standings["standings"]]
    assert order == sorted(order, reverse=True), "best first by wins, points, completed tickets"
    for earlier, later in zip(standings["standings"], standings["standings"][1:], strict=False):
        same = recount[earlier["player_ref"]][1:] == recount[later["player_ref"]][1:]
        assert (later["rank"] == earlier["rank"]) == same
    # the same as CSV on the .csv path; the JSON path answers JSON whatever Accept says
    json_path = client.get(query, headers={**org, "Accept": "text/csv"})
    assert json_path.mimetype == "application/json" and json_path.get_json() == standings
    for resp in (client.get(query.replace("standings?", "standings.csv?"), headers=org),):
        assert resp.status_code == 200 and resp.mimetype == "text/csv"
        rows = list(csv.DictReader(io.StringIO(resp.get_data(as_text=True))))
        assert {r["player_ref"]: [int(r["games"]), int(r["wins"]), int(r["points"]), int(r["completed_tickets"])]
                for r in rows} == dict(recount)
    # rounds of another organiser, or named twice, are refused
    other = organiser(client, "Other Open")
    assert client.get(query, headers=other).status_code == 403
    assert client.get(f"/v1/organisers/me/standings?batch={first['id']}&batch={first['id']}",
                      headers=org).status_code == 400
    assert client.get("/v1/organisers/me/standings", headers=org).status_code == 400
    assert client.get(query, headers=auth("ot_nobody_x")).status_code == 401


def test_a_scheduled_rounds_game_started_webhooks_fire_at_its_start(client: FlaskClient, receiver: Receiver) -> None:
    org = organiser(client)
    webhook(client, org, receiver.url, events=["game.started", "game.cancelled"])
    body = {**round_body(EVENT + "round-2", [["p-ada", "p-bo"], ["p-cy", "p-di"]], "w"), "start_at": _in_an_hour()}
    scheduled = create_round(client, org, body)
    # a round created after it: once its game.started arrives, the dispatcher has read past the scheduled games
    later = create_round(client, org, round_body(EVENT + "round-3", [["p-ed", "p-fy"]], "w3"))
    wait_for(lambda: receiver.of("game.started"))
    assert [r.json["game"]["id"] for r in receiver.of("game.started")] == [later["games"][0]["id"]]
    assert client.post(f"/v1/batches/{scheduled['id']}/start", headers=org).status_code == 200
    started = wait_for(lambda: len(receiver.of("game.started")) == 3 and receiver.of("game.started"))
    bodies = {r.json["game"]["id"]: r.json for r in started}
    for game in scheduled["games"]:
        assert bodies[game["id"]]["game"]["status"] != "scheduled"
        assert bodies[game["id"]]["batch_ref"] == EVENT + "round-2"
    # cancelling a round ends every table: one game.cancelled each
    assert client.post(f"/v1/batches/{later['id']}/cancel", headers=org).status_code == 200
    [cancelled] = wait_for(lambda: receiver.of("game.cancelled"))
    assert cancelled.json["game"]["ref"] == "table 1" and cancelled.json["batch_ref"] == EVENT + "round-3"


def _in_an_hour() -> str:
    return (datetime.now(UTC) + timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
