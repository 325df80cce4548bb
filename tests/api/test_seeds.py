"""Seeds that are safe: a caller's seed alone never makes the deal unless the
game is created as an open deal, which every seat, spectators, the listing
and the export show; the verifier checks both kinds offline."""

from __future__ import annotations

import copy
from typing import Any

from flask.testing import FlaskClient

from domain.core import GameConfig, replay
from domain.registry import game_definition
from events.integrity.keyset import KeySet
from events.integrity.verify import verify_export
from tests.api.conftest import auth, create, finish_setup, play_to_end, view


def _secrets_of(client: FlaskClient, game: dict[str, Any]) -> list[Any]:
    return [view(client, game, seat)["me"] for seat in range(len(game["seats"]))]


def _dealt_locally(seed: str, players: int = 2) -> list[Any]:
    """Every seat's secrets as the rules deal them from ``seed`` alone."""
    ttr = game_definition("ttr-sf")
    state = replay(ttr, ttr.setup(GameConfig(tuple(f"P{i}" for i in range(players)), seed, 0)))
    return [ttr.view(state, seat)["me"] for seat in range(players)]


def test_a_guessed_caller_seed_does_not_reveal_the_hands(client: FlaskClient) -> None:
    first, second = create(client, seed="r1-t2"), create(client, seed="r1-t2")
    assert first["seed_source"] == "caller" and first["open_deal"] is False
    dealt = _secrets_of(client, first)
    assert dealt != _dealt_locally("r1-t2")
    assert dealt != _secrets_of(client, second)


def test_an_open_deal_is_dealt_from_the_seed_alone_and_shown_to_everyone(client: FlaskClient) -> None:
    game = create(client, seed="r1-t2", open_deal=True)
    assert game["open_deal"] is True and game["seed_source"] == "caller"
    assert _secrets_of(client, game) == _dealt_locally("r1-t2")
    for seat in (None, 0, 1):
        assert view(client, game, seat)["open_deal"] is True
    listed = {g["id"]: g for g in client.get("/v1/games").get_json()["games"]}
    assert listed[game["id"]]["open_deal"] is True
    mixed = create(client, seed="r1-t2")
    assert view(client, mixed)["open_deal"] is False and listed.get(mixed["id"]) is None


def test_an_open_deal_needs_a_seed_and_a_boolean(client: FlaskClient) -> None:
    body = {"type": "ttr-sf", "players": [{"name": "Ada"}, {"name": "Bo"}]}
    for extra in ({"open_deal": True}, {"open_deal": "yes", "seed": "x"}, {"open_deal": 1, "seed": "x"}):
        resp = client.post("/v1/games", json={**body, **extra})
        assert resp.status_code == 400 and resp.get_json()["code"] == "invalid_request", extra
    assert client.get("/v1/games").get_json()["games"] == []


def _finished_export(client: FlaskClient, **kw: Any) -> dict[str, Any]:
    game = create(client, **kw)
    finish_setup(client, game)
    play_to_end(client, game)
    resp = client.get(f"/v1/games/{game['id']}/export")
    assert resp.status_code == 200
    export: dict[str, Any] = resp.get_json()
    return export


def _checks(export: dict[str, Any]) -> dict[str, tuple[bool, str]]:
    return {c.name: (c.ok, c.detail) for c in verify_export(export).checks}


def test_the_export_reveals_the_server_secret_and_the_verifier_checks_the_mixing(client: FlaskClient) -> None:
    export = _finished_export(client, seed="table-7")
    seed = export["seed"]
    assert seed["open_deal"] is False and seed["caller_seed"] == "table-7"
    assert len(seed["server_secret"]) == 64 and seed["value"] not in ("table-7", seed["server_secret"])
    assert verify_export(export, KeySet.from_json(client.get("/v1/keys").get_json())).ok
    assert "OPEN DEAL" not in _checks(export)["seed"][1]

    forged = copy.deepcopy(export)
    forged["seed"]["server_secret"] = "0" * 64
    ok, detail = _checks(forged)["setup"]
    assert not ok and "server secret" in detail
    relabelled = copy.deepcopy(export)
    relabelled["seed"]["open_deal"] = True  # claiming the caller's seed alone made the deal
    assert not _checks(relabelled)["setup"][0]


def test_a_server_seeded_game_deals_from_its_secret(client: FlaskClient) -> None:
    seed = _finished_export(client, seed=None)["seed"]
    assert seed["caller_seed"] is None and seed["value"] == seed["server_secret"] and seed["source"] == "server"


def test_the_verifier_flags_an_open_deal(client: FlaskClient) -> None:
    export = _finished_export(client, seed="puzzle", open_deal=True)
    assert export["seed"]["open_deal"] is True and export["seed"]["server_secret"] is None
    assert export["seed"]["value"] == "puzzle"
    assert verify_export(export, KeySet.from_json(client.get("/v1/keys").get_json())).ok
    assert "OPEN DEAL" in _checks(export)["seed"][1]
    hidden = copy.deepcopy(export)
    hidden["seed"]["open_deal"] = False  # hiding that the deal was open
    assert not _checks(hidden)["setup"][0]


def test_batch_tables_mix_the_seed_unless_open(client: FlaskClient) -> None:
    token = client.post("/v1/organisers", json={"name": "Open"}).get_json()["token"]
    players = [{"name": "Ada"}, {"name": "Bo"}]
    resp = client.post("/v1/batches", headers=auth(token), json={"type": "ttr-sf", "tables": [
        {"players": players, "seed": "r1-t2"}, {"players": players, "seed": "r1-t2", "open_deal": True}]})
    assert resp.status_code == 201, resp.get_json()
    mixed, open_deal = resp.get_json()["games"]
    assert (mixed["open_deal"], open_deal["open_deal"]) == (False, True)
    for game in (mixed, open_deal):
        game["seats"] = sorted(game["seats"], key=lambda s: s["seat"])
    assert _secrets_of(client, open_deal) == _dealt_locally("r1-t2")
    assert _secrets_of(client, mixed) != _dealt_locally("r1-t2")
