"""Games stored before ``ttr-sf/3`` and ``cable-car/3``, and before ``cable-car/4``, are served as they were.

The fixtures (``data/old_records/``, see its README) are a server's SQLite
database holding a finished game of each type made under ``/2``, with a turn's
end as an event of its own, and their exports as that server gave them.  The
current server, opening that database, exports them byte for byte as before
(stored payloads are never rewritten), verifies them under the rules they
were made under, and lists their events upcast: the carriers of a turn's end
say ``ends_turn: false`` and the ``turn_ended`` events are still there.

A second database holds a ``cable-car/3`` game whose moves ``cable-car/4``
refuses (a complete seat laying on instead of riding): it too is exported
byte for byte as before and verifies under ``/3``.
"""

from __future__ import annotations

import dataclasses
import json
import re
import sqlite3
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from domain.cablecar import GAME as CABLE_CAR
from domain.core import decode_event, replay
from domain.errors import IllegalAction
from events.integrity.keyset import KeySet
from events.integrity.verify import verify_export
from service.api.app import create_app
from service.config import Settings

DATA = Path(__file__).resolve().parent / "data" / "old_records"
#: game type -> (game id, rules version) of the stored games
GAMES = {"ttr-sf": ("0cd1643db2618343", "ttr-sf/2"), "cable-car": ("8db1d085f45e6c6b", "cable-car/2")}
#: the events that carry a turn's end under /3, with the schema version they were stored at
CARRIERS = {
    "ttr-sf": {"card_drawn": 1, "route_claimed": 2, "tickets_kept": 1, "face_up_refilled": 1, "deck_rebuilt": 1},
    "cable-car": {"tiles_laid": 1, "tiles_drawn": 1, "tile_drawn": 1, "die_rolled": 1},
}


@pytest.fixture
def old_client(tmp_path: Path) -> Iterator[FlaskClient]:
    with sqlite3.connect(tmp_path / "cablecar.sqlite3") as conn:
        conn.executescript((DATA / "store.sql").read_text())
    app = create_app(Settings(data_dir=str(tmp_path), webhooks=False))
    app.testing = True
    yield app.test_client()
    app.extensions["cablecar"].stores.close()


def _export_file(game_type: str) -> bytes:
    return (DATA / f"{game_type}-2.export.json").read_bytes()


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_an_old_export_still_verifies_under_its_rules(game_type: str) -> None:
    export = json.loads(_export_file(game_type))
    assert export["game"]["rules_version"] == GAMES[game_type][1]
    stored = Counter((e["type"], e["schema_version"]) for e in export["events"])
    assert ("turn_ended", 1) in stored and all("ends_turn" not in e["payload"] for e in export["events"])
    assert {(t, v) for t, v in stored if t in CARRIERS[game_type]} <= set(CARRIERS[game_type].items())
    verdict = verify_export(export, KeySet([]), allow_unsigned=True)  # written before signing
    assert verdict.ok, verdict.to_json()


def _without_leaf_salt(data: bytes) -> bytes:
    """An export as it was before the transparency log: the salt of the game's leaves (given to every game
    by the migration, revealed once it is finished) is the one field it gained."""
    salt = json.loads(data)["leaf_salt"]
    assert re.fullmatch("[0-9a-f]{64}", salt), salt
    field = f'"leaf_salt":"{salt}",'.encode()
    assert data.count(field) == 1
    return data.replace(field, b"")


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_an_old_game_is_exported_byte_for_byte_as_before(old_client: FlaskClient, game_type: str) -> None:
    game_id, _ = GAMES[game_type]
    resp = old_client.get(f"/v1/games/{game_id}/export")
    assert resp.status_code == 200
    assert _without_leaf_salt(resp.data) == _export_file(game_type)
    audit = old_client.get(f"/v1/games/{game_id}/audit").get_json()
    assert audit["ok"], audit


@pytest.mark.parametrize("game_type", sorted(GAMES))
def test_an_old_games_events_are_listed_upcast(old_client: FlaskClient, game_type: str) -> None:
    game_id, _ = GAMES[game_type]
    resp = old_client.get(f"/v1/games/{game_id}/events?limit=1000")
    assert resp.status_code == 200
    listed = resp.get_json()["events"]
    stored = json.loads(_export_file(game_type))["events"]
    assert [e["type"] for e in listed] == [e["type"] for e in stored]
    carriers = [e for e in listed if e["type"] in CARRIERS[game_type]]
    assert carriers and all(e["payload"]["ends_turn"] is False for e in carriers)
    assert all(e["schema_version"] == CARRIERS[game_type][e["type"]] + 1 for e in carriers)
    assert "turn_ended" in {e["type"] for e in listed}  # the turn's ends, as stored
    view = old_client.get(f"/v1/games/{game_id}").get_json()
    assert view["status"] == "finished" and view["version"] == len(stored)


#: the cable-car/3 record (store-3.sql): its game id
CC3_GAME = "0842d884a4f9b0d5"


@pytest.fixture
def cc3_client(tmp_path: Path) -> Iterator[FlaskClient]:
    with sqlite3.connect(tmp_path / "cablecar.sqlite3") as conn:
        conn.executescript((DATA / "store-3.sql").read_text())
    app = create_app(Settings(data_dir=str(tmp_path), webhooks=False))
    app.testing = True
    yield app.test_client()
    app.extensions["cablecar"].stores.close()


def test_a_cable_car_3_game_is_exported_byte_for_byte_and_verifies_under_its_rules(cc3_client: FlaskClient) -> None:
    stored = (DATA / "cable-car-3.export.json").read_bytes()
    export = json.loads(stored)
    assert export["game"]["rules_version"] == "cable-car/3" and export["game"]["id"] == CC3_GAME
    resp = cc3_client.get(f"/v1/games/{CC3_GAME}/export")
    assert resp.status_code == 200
    assert _without_leaf_salt(resp.data) == stored
    audit = cc3_client.get(f"/v1/games/{CC3_GAME}/audit").get_json()
    assert audit["ok"], audit
    verdict = verify_export(export, KeySet([]), allow_unsigned=True)  # written before signing
    assert verdict.ok, verdict.to_json()
    view = cc3_client.get(f"/v1/games/{CC3_GAME}").get_json()
    assert view["status"] == "finished" and view["result"]["winners"] == [2]


def test_the_cable_car_3_game_breaks_the_rules_of_cable_car_4() -> None:
    """Its moves replayed under /4 reach a lay by a seat whose ride is due: refused."""
    raw = json.loads((DATA / "cable-car-3.export.json").read_bytes())["events"]
    events = [decode_event(CABLE_CAR, e["type"], e["payload"]) for e in raw]
    setup = dataclasses.replace(events[0], rules_version="cable-car/4")  # type: ignore[call-arg]
    state = replay(CABLE_CAR, [setup])
    i = 1
    while i < len(events):
        opened = CABLE_CAR.action_of(events[i])
        assert opened is not None, events[i]
        seat, action = opened
        try:
            produced = CABLE_CAR.decide(state, seat, action)
        except IllegalAction as refused:
            assert refused.code == "ride_due" and action.TYPE == "lay_tiles"
            return
        assert produced == events[i : i + len(produced)]
        state = replay(CABLE_CAR, produced, state)
        i += len(produced)
    raise AssertionError("cable-car/4 accepted every move of the /3 record")
