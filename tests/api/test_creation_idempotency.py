"""Idempotency-Key on every POST that creates something (a game, a batch, an
organiser, a webhook), with the semantics of actions: the same key and body
get the first answer again and nothing more is created; the same key with
another body is 422 idempotency_key_reused."""

from __future__ import annotations

from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.app import create_app
from service.config import Settings
from tests.api.conftest import auth

GAME = {"type": "ttr-sf", "players": [{"name": "Ada"}, {"name": "Bo"}]}


def _key(value: str) -> dict[str, str]:
    return {"Idempotency-Key": value}


def _games(client: FlaskClient) -> list[str]:
    return [g["id"] for g in client.get("/v1/games?limit=200").get_json()["games"]]


def test_a_retried_game_creation_gets_the_first_answer(client: FlaskClient) -> None:
    first = client.post("/v1/games", json=GAME, headers=_key("k-1"))
    again = client.post("/v1/games", json={"players": GAME["players"], "type": "ttr-sf", "start_seat": 0},
                        headers=_key("k-1"))
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json() and again.headers["Location"] == first.headers["Location"]
    assert _games(client) == [first.get_json()["id"]]
    # the tokens of the answer work
    seat = first.get_json()["seats"][1]["token"]
    view = client.get(f"/v1/games/{first.get_json()['id']}", headers=auth(seat)).get_json()
    assert view["me"]["seat"] == 1


def test_the_same_key_with_another_body_is_refused(client: FlaskClient) -> None:
    assert client.post("/v1/games", json=GAME, headers=_key("k-2")).status_code == 201
    other = client.post("/v1/games", json={**GAME, "seed": "another"}, headers=_key("k-2"))
    assert other.status_code == 422 and other.get_json()["code"] == "idempotency_key_reused"
    assert len(_games(client)) == 1


def test_keys_are_per_caller_and_per_kind(client: FlaskClient) -> None:
    organiser = client.post("/v1/organisers", json={"name": "Org"}, headers=_key("same")).get_json()
    anonymous = client.post("/v1/games", json=GAME, headers=_key("same")).get_json()
    as_organiser = client.post("/v1/games", json=GAME, headers={**_key("same"), **auth(organiser["token"])})
    assert as_organiser.status_code == 201 and as_organiser.get_json()["id"] != anonymous["id"]
    fresh = client.post("/v1/games", json=GAME)
    assert fresh.status_code == 201 and fresh.get_json()["id"] not in (anonymous["id"], as_organiser.get_json()["id"])


def test_a_bad_key_is_refused(client: FlaskClient) -> None:
    resp = client.post("/v1/games", json=GAME, headers=_key("x" * 201))
    assert resp.status_code == 400 and resp.get_json()["errors"][0]["field"] == "Idempotency-Key"


def test_organiser_batch_and_webhook_creations_are_idempotent(tmp_path: Any) -> None:
    app: Flask = create_app(Settings(data_dir=str(tmp_path), webhook_private_addresses=True, webhooks=False))
    client = app.test_client()
    org = client.post("/v1/organisers", json={"name": "Cup"}, headers=_key("o"))
    assert client.post("/v1/organisers", json={"name": "Cup"}, headers=_key("o")).get_json() == org.get_json()
    assert client.post("/v1/organisers", json={"name": "Other"}, headers=_key("o")).status_code == 422
    token = auth(org.get_json()["token"])
    assert client.get("/v1/organisers/me", headers=token).status_code == 200

    batch = {"type": "cable-car", "name": "R1", "tables": [{"players": [{"name": "a"}, {"name": "b"}]},
                                                           {"players": [{"name": "c"}, {"name": "d"}]}]}
    first = client.post("/v1/batches", json=batch, headers={**token, **_key("b")})
    again = client.post("/v1/batches", json=batch, headers={**token, **_key("b")})
    assert first.status_code == again.status_code == 201 and again.get_json() == first.get_json()
    assert len(client.get("/v1/batches", headers=token).get_json()["batches"]) == 1
    changed = client.post("/v1/batches", json={**batch, "name": "R2"}, headers={**token, **_key("b")})
    assert changed.status_code == 422 and changed.get_json()["code"] == "idempotency_key_reused"

    hook = {"url": "http://127.0.0.1:9/hook", "events": ["game.finished"]}
    made = client.post("/v1/webhooks", json=hook, headers={**token, **_key("w")})
    remade = client.post("/v1/webhooks", json=hook, headers={**token, **_key("w")})
    assert made.status_code == remade.status_code == 201 and remade.get_json() == made.get_json()
    assert len(client.get("/v1/webhooks", headers=token).get_json()["webhooks"]) == 1
    other = client.post("/v1/webhooks", json={**hook, "events": ["game.started"]}, headers={**token, **_key("w")})
    assert other.status_code == 422
    app.extensions["cablecar"].store.close()


@pytest.mark.parametrize("path", ["/v1/games", "/v1/batches", "/v1/organisers", "/v1/webhooks"])
def test_the_spec_documents_the_key_on_every_creating_post(path: str) -> None:
    from tests.api.test_openapi import resolve, spec

    operation = spec()["paths"][path]["post"]
    names = {resolve(p)["name"] for p in operation.get("parameters", [])}
    assert "Idempotency-Key" in names
    assert "422" in operation["responses"]
