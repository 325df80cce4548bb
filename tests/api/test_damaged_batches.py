"""A damaged table never blocks its batch (issue 48, item 7).

The attack: a forged ``game_ended`` (a resignation and the end, with the game
row set to ``finished``) appended on one table of a three-table round, by a
login that is not the server's: on PostgreSQL the app role's own login (the
server's, without its signing key: the events are signed with a key of the
attacker's), on SQLite whoever can open the file.  Before, the round's
results (JSON and CSV) and the standings answered ``409 game_damaged`` for
every table, and the listings said ``finished`` for a game whose view said
it was still being set up.  Now the two genuine tables are answered and
ranked, the damaged one is marked ``damaged_from`` (its players unranked: the
game had not ended before the damage), no winner comes from the forgery, and
every listing of the game says what its view says."""

from __future__ import annotations

import csv
import io
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from events.factory import postgres_stores, sqlite_stores
from events.integrity.signing import Signer
from events.recorders.capabilities import Stores
from events.records import AppendOptions, NewEvent
from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import auth
from tests.api.test_openapi import check_response
from tests.contract.test_roles import Roles, _migrated, roles  # noqa: F401  (roles: the fixture)

#: opens a store on the served database as the attacker (its login, a key of its own)
Forger = Callable[[], Stores]


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def served(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[Flask, Forger]]:
    settings = Settings(data_dir=str(tmp_path), webhooks=False)
    if request.param == "sqlite":
        app = create_app(settings)

        def forger() -> Stores:
            return sqlite_stores(tmp_path / "cablecar.sqlite3", signer=Signer.generate())
    else:
        from service.adapters.signing_keys import ServerKeys
        from tests.contract.conftest import TEST_SIGNER

        roles: Roles = _migrated(request.getfixturevalue("roles"))
        settings = Settings(database_url=roles.app_url, secret_key="s" * 40, data_dir=str(tmp_path), webhooks=False)
        app = create_app(settings, stores=postgres_stores(roles.app_url, signer=TEST_SIGNER),
                         signing_keys=ServerKeys(TEST_SIGNER))

        def forger() -> Stores:
            return postgres_stores(roles.app_url, signer=Signer.generate())  # the app role's login
    app.testing = True
    yield app, forger
    app.extensions["cablecar"].stores.close()


def _round(client: FlaskClient) -> tuple[dict[str, str], dict[str, Any]]:
    org = auth(client.post("/v1/organisers", json={"name": "Bay Area Open"}).get_json()["token"])
    body = {"type": "ttr-sf", "ref": "open/r1", "tables": [
        {"ref": f"t{t}", "seed": f"damaged-{t}", "players": [{"name": f"P{t}{s}", "ref": f"p{t}{s}"} for s in (0, 1)]}
        for t in range(3)
    ]}
    made = client.post("/v1/batches", json=body, headers=org)
    assert made.status_code == 201, made.get_json()
    return org, made.get_json()


def _resign(client: FlaskClient, game: dict[str, Any], seat: int) -> None:
    resp = client.post(f"/v1/games/{game['id']}/actions", json={"type": "resign"},
                       headers=auth(game["seats"][seat]["token"]))
    assert resp.status_code == 201, resp.get_json()


def _forge_an_ending(forger: Forger, game: dict[str, Any]) -> int:
    """Seat 1 resigns and seat 0 wins, as the attacker writes it; the seq of its first forged event."""
    stores = forger()
    try:
        stores.events.append(game["id"], game["version"], [
            NewEvent("seat_resigned", {"seat": 1}, 1, 1),
            NewEvent("game_ended", {"reason": "forfeit", "totals": [0, -9], "winners": [0]}, 1, 1),
        ], AppendOptions(status="finished"))
    finally:
        stores.close()
    return int(game["version"]) + 1


def test_a_forged_ending_is_listed_as_the_games_view_says(served: tuple[Flask, Forger]) -> None:
    """``GET /v1/games`` said ``finished`` (the row the forged append wrote) while the view said the game
    was still being set up; now the listing says what the view says, with ``damaged_from``."""
    app, forger = served
    client = app.test_client()
    made = [client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "Ada"}, {"name": "Bo"}]})
            for _ in range(2)]
    sound, forged = (resp.get_json() for resp in made)
    _resign(client, sound, 1)
    bad_seq = _forge_an_ending(forger, forged)
    view = client.get(f"/v1/games/{forged['id']}").get_json()
    assert view["damaged_from"] == bad_seq and view["status"] != "finished"

    for worker in (client, create_app(app.extensions["cablecar"].settings, stores=app.extensions["cablecar"].stores,
                                      signing_keys=app.extensions["cablecar"].signing_keys).test_client()):
        listed = {g["id"]: g for g in check_response(worker.get("/v1/games"), "/v1/games")["games"]}
        assert (listed[forged["id"]]["status"], listed[forged["id"]]["damaged_from"]) == (view["status"], bad_seq)
        assert listed[sound["id"]]["status"] == "finished" and "damaged_from" not in listed[sound["id"]]
        finished = worker.get("/v1/games?status=finished").get_json()["games"]
        assert [g["id"] for g in finished] == [sound["id"]]


def test_a_forged_ending_on_one_table_leaves_the_rounds_other_tables_answered(
    served: tuple[Flask, Forger],
) -> None:
    app, forger = served
    client = app.test_client()
    org, batch = _round(client)
    good_a, forged, good_b = batch["games"]
    _resign(client, good_a, 1)
    _resign(client, good_b, 0)
    view_before = client.get(f"/v1/games/{forged['id']}").get_json()
    bad_seq = _forge_an_ending(forger, forged)

    # the game itself: served up to its last good event, as it stood before
    view = client.get(f"/v1/games/{forged['id']}").get_json()
    assert view["damaged_from"] == bad_seq and view["status"] == view_before["status"] != "finished"
    audit = client.get(f"/v1/games/{forged['id']}/audit").get_json()
    assert audit["ok"] is False and f"seq {bad_seq}" in str(audit)

    # results as JSON: 200, the genuine tables ranked, the damaged one marked and unranked
    url = f"/v1/batches/{batch['id']}/results"
    resp = client.get(url, headers=org)
    assert resp.status_code == 200, resp.get_json()
    results = check_response(resp, "/v1/batches/{batch_id}/results")
    assert results["finished"] is False
    first, damaged, third = results["tables"]
    for table, winner in ((first, 0), (third, 1)):
        assert table["status"] == "finished" and table["winners"] == [winner] and "damaged_from" not in table
        assert [p["rank"] for p in table["players"]] == ([1, 2] if winner == 0 else [2, 1])
    assert damaged["game_id"] == forged["id"] and damaged["damaged_from"] == bad_seq
    assert damaged["status"] == view["status"] and damaged["winners"] == [] and damaged["reason"] is None
    assert all(p["rank"] is None and not p["winner"] for p in damaged["players"]), "no winner from the forgery"

    # as CSV (every way of asking): the mark is the last column, empty for the genuine tables
    by_path = client.get(f"{url}.csv", headers=org)
    check_response(by_path, "/v1/batches/{batch_id}/results.csv")
    for resp in (by_path, client.get(f"{url}?format=csv", headers=org),
                 client.get(url, headers={**org, "Accept": "text/csv"})):
        assert resp.status_code == 200 and resp.mimetype == "text/csv", resp.get_data(as_text=True)
        rows = list(csv.DictReader(io.StringIO(resp.get_data(as_text=True))))
        assert list(rows[0])[-1] == "damaged_from" and len(rows) == 6
        assert [r["damaged_from"] for r in rows] == ["", "", str(bad_seq), str(bad_seq), "", ""]
        assert [r["rank"] for r in rows] == ["1", "2", "", "", "2", "1"]
        assert {r["status"] for r in rows if r["damaged_from"]} == {view["status"]}

    # the standings (JSON and CSV): 200, the damaged table's players played it, nothing won, marked
    query = f"/v1/organisers/me/standings?batch={batch['id']}"
    resp = client.get(query, headers=org)
    assert resp.status_code == 200, resp.get_json()
    standings = check_response(resp, "/v1/organisers/me/standings")
    assert standings["finished"] is False
    assert standings["damaged_tables"] == [
        {"batch": batch["id"], "table": 1, "game_id": forged["id"], "damaged_from": bad_seq}]
    rows_by_ref = {p["player_ref"]: p for p in standings["standings"]}
    assert {ref: (p["games"], p["finished"], p["wins"], p["damaged_games"]) for ref, p in rows_by_ref.items()} == {
        "p00": (1, 1, 1, 0), "p01": (1, 1, 0, 0), "p20": (1, 1, 0, 0), "p21": (1, 1, 1, 0),
        "p10": (1, 0, 0, 1), "p11": (1, 0, 0, 1),
    }
    as_csv = client.get(query.replace("standings?", "standings.csv?"), headers=org)
    assert as_csv.status_code == 200 and as_csv.mimetype == "text/csv"
    csv_rows = list(csv.DictReader(io.StringIO(as_csv.get_data(as_text=True))))
    assert list(csv_rows[0])[-1] == "damaged_games"
    assert {r["player_ref"]: (r["wins"], r["damaged_games"]) for r in csv_rows} == {
        ref: (str(p["wins"]), str(p["damaged_games"])) for ref, p in rows_by_ref.items()}

    # every listing of the game says what its view says
    listed = check_response(client.get(f"/v1/games?batch={batch['id']}"), "/v1/games")["games"]
    by_id = {g["id"]: g for g in listed}
    assert by_id[forged["id"]]["status"] == view["status"] and by_id[forged["id"]]["damaged_from"] == bad_seq
    for game in (good_a, good_b):
        assert by_id[game["id"]]["status"] == "finished" and "damaged_from" not in by_id[game["id"]]
    finished_only = client.get(f"/v1/games?batch={batch['id']}&status=finished").get_json()["games"]
    assert sorted(g["id"] for g in finished_only) == sorted([good_a["id"], good_b["id"]])
    followed = check_response(client.get(f"/v1/batches/{batch['id']}", headers=org), "/v1/batches/{batch_id}")
    assert [g["status"] for g in followed["games"]] == ["finished", view["status"], "finished"]
    assert followed["games"][1]["damaged_from"] == bad_seq and followed["finished"] is False
    assert followed["status_counts"]["finished"] == 2 and followed["status_counts"][view["status"]] == 1

    # cancelling the round ends what it can: the damaged table takes no write and blocks nothing
    cancelled = client.post(f"/v1/batches/{batch['id']}/cancel", headers=org)
    assert cancelled.status_code == 200, cancelled.get_json()
    assert [g.get("damaged_from") for g in cancelled.get_json()["games"]] == [None, bad_seq, None]
    assert client.get(f"/v1/games/{forged['id']}").get_json()["damaged_from"] == bad_seq


def test_a_forged_move_that_leaves_the_row_as_it_was_is_marked_too(served: tuple[Flask, Forger]) -> None:
    """A forged event that changes no status (the row still says the table is being played, which the
    results used to repeat unread) marks its table as well; the round's other tables are untouched."""
    app, forger = served
    client = app.test_client()
    org, batch = _round(client)
    forged = batch["games"][2]
    stores = forger()
    try:
        stores.events.append(forged["id"], forged["version"], [NewEvent("seat_resigned", {"seat": 0}, 1, 0)])
    finally:
        stores.close()
    bad_seq = forged["version"] + 1
    view = client.get(f"/v1/games/{forged['id']}").get_json()
    results = check_response(client.get(f"/v1/batches/{batch['id']}/results", headers=org),
                             "/v1/batches/{batch_id}/results")
    assert [t.get("damaged_from") for t in results["tables"]] == [None, None, bad_seq]
    assert results["tables"][2]["status"] == view["status"]
    assert [p["standing"] for p in results["tables"][2]["players"]] == ["in", "in"], "the forged resignation counts not"
    followed = client.get(f"/v1/batches/{batch['id']}", headers=org).get_json()
    assert [g.get("damaged_from") for g in followed["games"]] == [None, None, bad_seq]
    standings = client.get(f"/v1/organisers/me/standings?batch={batch['id']}", headers=org).get_json()
    assert [t["game_id"] for t in standings["damaged_tables"]] == [forged["id"]]
