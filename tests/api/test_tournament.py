"""Tournament organisers: organisers, atomic batches, batch status and
results (JSON and CSV), games created with an organiser token, and the host's
seat-token rotation.  Every answer is also checked against openapi.yaml."""

from __future__ import annotations

import csv
import io
import threading
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from cablecar.cli import main as cli_main
from domain.cablecar import GAME as CABLE_CAR
from domain.core import GameConfig, replay
from domain.ttr.scoring import SeatScore
from domain.ttr.scoring import rank as ttr_rank
from service.adapters.tokens import ORGANISER, plain_hash
from service.api.app import create_app
from service.config import Settings
from service.usecases.batch_results import CSV_COLUMNS, rank_players, results_csv
from tests.api.conftest import act, auth, legal, play_to_end, view
from tests.api.test_openapi import check_response, response_spec


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=str(tmp_path), webhooks=False)


def new_organiser(client: FlaskClient, name: str = "Bay Area Open") -> dict[str, Any]:
    resp = client.post("/v1/organisers", json={"name": name})
    body: dict[str, Any] = check_response(resp, "/v1/organisers", "post")
    assert resp.status_code == 201
    return body


def tables(*sizes: int, **extra: Any) -> list[dict[str, Any]]:
    return [{"players": [{"name": f"T{t}P{p}"} for p in range(n)], **extra} for t, n in enumerate(sizes)]


def post_batch(client: FlaskClient, token: str, body: dict[str, Any]) -> Any:
    resp = client.post("/v1/batches", json=body, headers=auth(token))
    check_response(resp, "/v1/batches", "post")
    return resp


def all_game_ids(client: FlaskClient) -> list[str]:
    return [g["id"] for g in client.get("/v1/games?limit=200").get_json()["games"]]


# ------------------------------------------------------------------ organisers
def test_an_organiser_token_is_shown_once_and_stored_as_a_hash(app: Flask, client: FlaskClient) -> None:
    made = new_organiser(client)
    token = made["token"]
    kind, scope, secret = token.split("_", 2)
    assert (kind, scope) == ("ot", made["id"]) and len(secret) >= 43  # 256 random bits, URL-safe base64
    stored = app.extensions["cablecar"].stores.tournaments.get_organiser(made["id"])
    hasher = app.extensions["cablecar"].tokens.hasher
    assert stored.token_hash == hasher.stored(token, made["id"], ORGANISER) and token not in repr(stored)
    assert stored.token_hash.startswith("k1:0:") and plain_hash(token) not in stored.token_hash
    me = client.get("/v1/organisers/me", headers=auth(token))
    assert check_response(me, "/v1/organisers/me") == {k: made[k] for k in ("id", "name", "created_at")}
    again = new_organiser(client, "Bay Area Open")
    assert again["id"] != made["id"] and again["token"] != token


def test_organisers_can_be_reserved_to_the_operator(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    closed = create_app(Settings(data_dir=str(tmp_path), webhooks=False, open_organisers=False))
    try:
        client = closed.test_client()
        refused = client.post("/v1/organisers", json={"name": "x"})
        assert check_response(refused, "/v1/organisers", "post")["code"] == "forbidden"
        assert refused.status_code == 403
    finally:
        closed.extensions["cablecar"].stores.close()
    # the operator's way: cablecar organiser create NAME prints the token once
    monkeypatch.setenv("CABLECAR_DATA_DIR", str(tmp_path))
    assert cli_main(["organiser", "create", "Operator's league"]) == 0
    printed = capsys.readouterr().out
    token = next(line.split(": ", 1)[1] for line in printed.splitlines() if line.startswith("token: "))
    reopened = create_app(Settings(data_dir=str(tmp_path), webhooks=False, open_organisers=False))
    try:
        me = reopened.test_client().get("/v1/organisers/me", headers=auth(token))
        assert me.status_code == 200 and me.get_json()["name"] == "Operator's league"
    finally:
        reopened.extensions["cablecar"].stores.close()
    with pytest.raises(SystemExit):
        cli_main(["organiser", "create", "   "])


# --------------------------------------------------------------------- batches
def test_a_batch_creates_every_game_with_its_tokens(client: FlaskClient) -> None:
    org = new_organiser(client)
    resp = post_batch(client, org["token"], {"type": "ttr-sf", "name": "Round 1", "tables": tables(2, 3, 4)})
    assert resp.status_code == 201
    created = resp.get_json()
    assert resp.headers["Location"].endswith(f"/v1/batches/{created['id']}")
    assert (created["name"], created["type"]) == ("Round 1", "ttr-sf")
    assert [g["table"] for g in created["games"]] == [0, 1, 2]
    assert [len(g["seats"]) for g in created["games"]] == [2, 3, 4]
    every_token = [s["token"] for g in created["games"] for s in g["seats"]] + [
        g["host_token"] for g in created["games"]
    ]
    assert len(set(every_token)) == 2 + 3 + 4 + 3
    listed = client.get(f"/v1/games?batch={created['id']}").get_json()["games"]
    assert sorted(g["id"] for g in listed) == sorted(g["id"] for g in created["games"])
    assert all(g["batch"] == created["id"] for g in listed)
    # the tokens work: a seat of table 2 can act, and sees its own secrets
    game = created["games"][2]
    seat = view(client, game)["active_seats"][0]
    assert act(client, game, seat, legal(client, game, seat)[0]).status_code == 201
    assert "me" in view(client, game, seat)


def test_one_bad_table_creates_nothing(client: FlaskClient) -> None:
    org = new_organiser(client)
    before = all_game_ids(client)
    too_few = post_batch(client, org["token"], {"type": "ttr-sf", "tables": tables(2, 2, 1, 3)})
    problem = too_few.get_json()
    assert too_few.status_code == 422
    assert (problem["code"], problem["table"], problem["reason"]) == ("invalid_config", 2, "player_count")
    assert problem["detail"].startswith("table 2:")
    bad_seat = post_batch(
        client, org["token"], {"type": "ttr-sf", "tables": [*tables(2, 2), {**tables(3)[0], "start_seat": 3}]}
    )
    assert bad_seat.status_code == 422 and bad_seat.get_json()["table"] == 2
    assert bad_seat.get_json()["reason"] == "start_seat"
    shape = post_batch(
        client, org["token"], {"type": "ttr-sf", "tables": [*tables(2), {"players": [{"name": ""}]}]}
    )
    assert shape.status_code == 400
    assert any(e["field"].startswith("tables.1.players") for e in shape.get_json()["errors"])
    unknown = post_batch(client, org["token"], {"type": "chess", "tables": tables(2)})
    assert unknown.status_code == 400 and unknown.get_json()["code"] == "invalid_request"
    empty = post_batch(client, org["token"], {"type": "ttr-sf", "tables": []})
    assert empty.status_code == 400
    assert all_game_ids(client) == before == []


def test_an_organiser_lists_its_batches(client: FlaskClient) -> None:
    org = new_organiser(client)
    other = new_organiser(client, "other")
    made = [
        post_batch(client, org["token"], {"type": "ttr-sf", "name": f"R{i}", "tables": tables(2)}).get_json()
        for i in range(3)
    ]
    post_batch(client, other["token"], {"type": "cable-car", "tables": tables(2, 2)})
    first = check_response(client.get("/v1/batches?limit=2", headers=auth(org["token"])), "/v1/batches")
    rest = client.get(
        f"/v1/batches?limit=2&cursor={first['next_cursor']}", headers=auth(org["token"])
    ).get_json()
    listed = first["batches"] + rest["batches"]
    assert [b["id"] for b in listed] == [b["id"] for b in made[::-1]] and rest["next_cursor"] is None
    assert listed[0] == {k: made[2][k] for k in ("id", "name", "type", "created_at", "ref", "starts_at")} | {"tables": 1}
    bad = client.get("/v1/batches?cursor=nope", headers=auth(org["token"]))
    assert check_response(bad, "/v1/batches")["code"] == "invalid_request"


def test_a_batch_is_followed_game_by_game(client: FlaskClient) -> None:
    org = new_organiser(client)
    created = post_batch(client, org["token"], {"type": "ttr-sf", "tables": tables(2, 2)}).get_json()
    play_to_end(client, created["games"][1])
    resp = client.get(f"/v1/batches/{created['id']}", headers=auth(org["token"]))
    status = check_response(resp, "/v1/batches/{batch_id}")
    assert [(g["table"], g["id"]) for g in status["games"]] == [
        (0, created["games"][0]["id"]),
        (1, created["games"][1]["id"]),
    ]
    assert [g["status"] for g in status["games"]] == ["setup", "finished"]
    assert status["status_counts"] == {"setup": 1, "playing": 0, "last_round": 0, "finished": 1, "cancelled": 0}
    assert status["finished"] is False and status["games"][0]["players"][1] == {"seat": 1, "name": "T0P1", "bot": None,
                                                                                  "ref": None}
    play_to_end(client, created["games"][0])
    assert (
        client.get(f"/v1/batches/{created['id']}", headers=auth(org["token"])).get_json()["finished"] is True
    )
    missing = client.get("/v1/batches/0000000000000000", headers=auth(org["token"]))
    assert check_response(missing, "/v1/batches/{batch_id}")["code"] == "not_found"


def test_results_as_json_and_csv(client: FlaskClient) -> None:
    org = new_organiser(client)
    body = {"type": "ttr-sf", "tables": [*tables(2, seed="results-a"), *tables(3, seed="results-b")]}
    body["tables"][1]["players"][0]["name"] = '=HYPERLINK("http://evil")'
    created = post_batch(client, org["token"], body).get_json()
    play_to_end(client, created["games"][0])
    url = f"/v1/batches/{created['id']}/results"
    results = check_response(client.get(url, headers=auth(org["token"])), "/v1/batches/{batch_id}/results")
    assert results["finished"] is False and [t["table"] for t in results["tables"]] == [0, 1]
    done, running = results["tables"]
    export = client.get(f"/v1/games/{done['game_id']}/export").get_json()["result"]
    assert done["status"] == "finished" and done["winners"] == export["winners"]
    assert done["reason"] == export["reason"]
    for line, truth in zip(done["players"], export["players"], strict=True):
        assert (line["seat"], line["score"], line["completed_tickets"]) == (
            truth["seat"],
            truth["total"],
            truth["completed_tickets"],
        )
        assert line["winner"] == (line["seat"] in export["winners"])
        assert (line["rank"] == 1) == line["winner"]
    assert all(p["rank"] is None and p["score"] is None for p in running["players"])
    assert running["winners"] == [] and running["reason"] is None

    # CSV has its own path (one media type per answer, issue 38); the older ways still answer the same CSV
    by_path = client.get(f"{url}.csv", headers=auth(org["token"]))
    check_response(by_path, "/v1/batches/{batch_id}/results.csv")
    by_accept = client.get(url, headers={**auth(org["token"]), "Accept": "text/csv"})
    by_query = client.get(f"{url}?format=csv", headers=auth(org["token"]))
    for resp in (by_path, by_accept, by_query):
        assert resp.status_code == 200 and resp.mimetype == "text/csv"
        assert "attachment" in resp.headers["Content-Disposition"]
        assert resp.get_data() == by_path.get_data()
    assert list(response_spec("/v1/batches/{batch_id}/results", "get", 200)[0]["content"]) == ["application/json"]
    rows = list(csv.DictReader(io.StringIO(by_query.get_data(as_text=True))))
    assert list(rows[0]) == list(CSV_COLUMNS) and len(rows) == 2 + 3
    for row, line in zip(rows[:2], done["players"], strict=True):
        assert row["game_id"] == done["game_id"] and row["status"] == "finished"
        assert (int(row["score"]), int(row["rank"]), row["winner"]) == (
            line["score"],
            line["rank"],
            "true" if line["winner"] else "false",
        )
    assert rows[2]["name"] == '\'=HYPERLINK("http://evil")' and rows[2]["rank"] == ""
    assert client.get(f"{url}?format=xml", headers=auth(org["token"])).status_code == 400
    as_json = client.get(url, headers={**auth(org["token"]), "Accept": "application/json, text/csv;q=0.5"})
    assert as_json.mimetype == "application/json"


def seat_score(seat: int, total: int, completed: int) -> SeatScore:
    return SeatScore(seat, 0, 0, 0, total, completed, ())


def test_ranks_follow_each_game_types_standings() -> None:
    names = ["a", "b", "c", "d"]
    ttr = ttr_rank([seat_score(0, 30, 1), seat_score(1, 40, 2), seat_score(2, 30, 1), seat_score(3, 30, 3)], (None,) * 4)
    ranked = rank_players(names, ttr)
    assert [(p.score, p.rank, p.winner) for p in ranked] == [
        (30, 3, False),
        (40, 1, True),
        (30, 3, False),
        (30, 2, False),
    ]
    tie = ttr_rank([seat_score(0, 9, 1), seat_score(1, 9, 1)], (None, None))
    assert [p.rank for p in rank_players(["a", "b"], tie)] == [1, 1]
    opening = replay(CABLE_CAR, CABLE_CAR.setup(GameConfig(players=tuple(names[:3]), seed="ranks")))
    arrived = replace(opening, finished=True, winners=(2,), end_reason="destination_reached")
    cable = rank_players(names[:3], CABLE_CAR.standings(arrived))
    assert [(p.score, p.rank, p.winner, p.completed_tickets) for p in cable] == [
        (None, 2, False, None),
        (None, 2, False, None),
        (None, 1, True, None),
    ]
    stalled = replace(opening, finished=True, winners=(), end_reason="stalled")
    assert [p.rank for p in rank_players(names[:3], CABLE_CAR.standings(stalled))] == [None, None, None]
    assert CABLE_CAR.standings(opening) is None
    assert [p.rank for p in rank_players(names, None)] == [None] * 4
    text = results_csv("b1", [])
    assert text == ",".join(CSV_COLUMNS) + "\r\n"


# ------------------------------------------------- games created by an organiser
def test_a_game_created_with_an_organiser_token_is_the_organisers(app: Flask, client: FlaskClient) -> None:
    org = new_organiser(client)
    resp = client.post(
        "/v1/games",
        json={"type": "ttr-sf", "players": [{"name": "a"}, {"name": "b"}]},
        headers=auth(org["token"]),
    )
    assert resp.status_code == 201
    game = resp.get_json()
    store = app.extensions["cablecar"].stores
    assert store.events.get_game(game["id"]).metadata["organiser"] == org["id"]
    seen = client.get(f"/v1/games/{game['id']}", headers=auth(org["token"]))
    assert seen.status_code == 200 and "me" not in seen.get_json()
    before = all_game_ids(client)
    forged = client.post(
        "/v1/games",
        json={"type": "ttr-sf", "players": [{"name": "a"}, {"name": "b"}]},
        headers=auth(f"ot_{org['id']}_{'x' * 43}"),
    )
    assert check_response(forged, "/v1/games", "post")["code"] == "unauthorized"
    assert all_game_ids(client) == before
    plain = client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "a"}, {"name": "b"}]})
    assert "organiser" not in store.events.get_game(plain.get_json()["id"]).metadata


# ------------------------------------------------------------ seat-token rotation
def test_the_host_replaces_a_lost_seat_token(client: FlaskClient) -> None:
    org = new_organiser(client)
    game = post_batch(client, org["token"], {"type": "ttr-sf", "tables": tables(3)}).get_json()["games"][0]
    old = game["seats"][1]["token"]
    resp = client.post(f"/v1/games/{game['id']}/seats/1/token", headers=auth(game["host_token"]))
    rotated = check_response(resp, "/v1/games/{id}/seats/{seat}/token", "post")
    assert (rotated["game_id"], rotated["seat"], rotated["name"]) == (game["id"], 1, "T0P1")
    assert rotated["token"] != old and rotated["token"].startswith(f"st_{game['id']}_")
    assert client.get(f"/v1/games/{game['id']}/legal-actions", headers=auth(old)).status_code == 401
    assert (
        client.get(f"/v1/games/{game['id']}/legal-actions", headers=auth(rotated["token"])).status_code == 200
    )
    # the other seats keep theirs
    assert (
        client.get(
            f"/v1/games/{game['id']}/legal-actions", headers=auth(game["seats"][0]["token"])
        ).status_code
        == 200
    )
    missing = client.post(f"/v1/games/{game['id']}/seats/3/token", headers=auth(game["host_token"]))
    assert check_response(missing, "/v1/games/{id}/seats/{seat}/token", "post")["code"] == "not_found"
    unknown_game = client.post("/v1/games/0000000000000000/seats/0/token", headers=auth(game["host_token"]))
    assert unknown_game.status_code == 404


def test_concurrent_rotations_never_undo_each_other(client: FlaskClient) -> None:
    org = new_organiser(client)
    game = post_batch(client, org["token"], {"type": "ttr-sf", "tables": tables(4)}).get_json()["games"][0]
    latest: dict[int, str] = {}
    start = threading.Barrier(4)

    def rotate(seat: int) -> None:
        start.wait()
        for _ in range(3):
            resp = client.post(f"/v1/games/{game['id']}/seats/{seat}/token", headers=auth(game["host_token"]))
            assert resp.status_code == 200, resp.get_json()
            latest[seat] = resp.get_json()["token"]

    threads = [threading.Thread(target=rotate, args=(seat,)) for seat in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    for seat, token in latest.items():
        assert (
            client.get(f"/v1/games/{game['id']}/legal-actions", headers=auth(token)).get_json()["seat"]
            == seat
        )


def test_a_finished_games_tokens_are_not_rotated(client: FlaskClient) -> None:
    org = new_organiser(client)
    game = post_batch(client, org["token"], {"type": "ttr-sf", "tables": tables(2)}).get_json()["games"][0]
    play_to_end(client, game)
    resp = client.post(f"/v1/games/{game['id']}/seats/0/token", headers=auth(game["host_token"]))
    assert check_response(resp, "/v1/games/{id}/seats/{seat}/token", "post")["code"] == "game_finished"


@pytest.fixture
def two_apps(tmp_path: Path) -> Iterator[tuple[Flask, Flask]]:
    apps = (
        create_app(Settings(data_dir=str(tmp_path), webhooks=False)),
        create_app(Settings(data_dir=str(tmp_path), webhooks=False)),
    )
    yield apps
    for app in apps:
        app.extensions["cablecar"].stores.close()


def test_batches_are_shared_by_every_worker(two_apps: tuple[Flask, Flask]) -> None:
    first, second = (app.test_client() for app in two_apps)
    org = new_organiser(first)
    created = post_batch(first, org["token"], {"type": "cable-car", "tables": tables(2, 6)}).get_json()
    status = second.get(f"/v1/batches/{created['id']}", headers=auth(org["token"])).get_json()
    assert status["type"] == "cable-car" and [g["id"] for g in status["games"]] == [
        g["id"] for g in created["games"]
    ]
    assert status["status_counts"]["playing"] == 2
