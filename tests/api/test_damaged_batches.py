"""A damaged game listed as its view shows it (issue 48, item 7).

The attack: a forged ``game_ended`` (a resignation and the end, with the game
row set to ``finished``) appended by a login that is not the server's: on
PostgreSQL the app role's own login (the server's, without its signing key:
the events are signed with a key of the attacker's), on SQLite whoever can
open the file.  Before, the listing said ``finished`` for a game whose view
said it was still being set up; now every listing of the game says what its
view says, with ``damaged_from``."""

from __future__ import annotations

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
