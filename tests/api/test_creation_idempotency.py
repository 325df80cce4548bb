"""Idempotency-Key on every POST that creates something (a game, a batch, an
organiser, a webhook), with the semantics of actions: the same key and body
get the first answer again and nothing more is created; the same key with
another body is 422 idempotency_key_reused.  Without an organiser token the
key is the only secret of what it creates: at least 32 characters."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from service.api.app import create_app
from service.config import Settings
from tests.api.conftest import auth

GAME = {"type": "ttr-sf", "players": [{"name": "Ada"}, {"name": "Bo"}]}


def _key(value: str) -> dict[str, str]:
    return {"Idempotency-Key": value}


#: anonymous creation keys, as a client makes them (a random UUID each)
K1, K2, SAME = (str(uuid.uuid4()) for _ in range(3))


def _games(client: FlaskClient) -> list[str]:
    return [g["id"] for g in client.get("/v1/games?limit=200").get_json()["games"]]


def test_a_retried_game_creation_gets_the_first_answer(client: FlaskClient) -> None:
    first = client.post("/v1/games", json=GAME, headers=_key(K1))
    again = client.post("/v1/games", json={"players": GAME["players"], "type": "ttr-sf", "start_seat": 0},
                        headers=_key(K1))
    assert first.status_code == again.status_code == 201
    assert again.get_json() == first.get_json() and again.headers["Location"] == first.headers["Location"]
    assert _games(client) == [first.get_json()["id"]]
    # the tokens of the answer work
    seat = first.get_json()["seats"][1]["token"]
    view = client.get(f"/v1/games/{first.get_json()['id']}", headers=auth(seat)).get_json()
    assert view["me"]["seat"] == 1


def test_the_same_key_with_another_body_is_refused(client: FlaskClient) -> None:
    assert client.post("/v1/games", json=GAME, headers=_key(K2)).status_code == 201
    other = client.post("/v1/games", json={**GAME, "seed": "another"}, headers=_key(K2))
    assert other.status_code == 422 and other.get_json()["code"] == "idempotency_key_reused"
    assert len(_games(client)) == 1


def test_keys_are_per_caller_and_per_kind(client: FlaskClient) -> None:
    organiser = client.post("/v1/organisers", json={"name": "Org"}, headers=_key(SAME)).get_json()
    anonymous = client.post("/v1/games", json=GAME, headers=_key(SAME)).get_json()
    as_organiser = client.post("/v1/games", json=GAME, headers={**_key(SAME), **auth(organiser["token"])})
    assert as_organiser.status_code == 201 and as_organiser.get_json()["id"] != anonymous["id"]
    fresh = client.post("/v1/games", json=GAME)
    assert fresh.status_code == 201 and fresh.get_json()["id"] not in (anonymous["id"], as_organiser.get_json()["id"])


def test_a_bad_key_is_refused(client: FlaskClient) -> None:
    resp = client.post("/v1/games", json=GAME, headers=_key("x" * 256))
    assert resp.status_code == 400 and resp.get_json()["errors"][0]["field"] == "Idempotency-Key"


@pytest.mark.parametrize("path,body", [("/v1/games", GAME), ("/v1/organisers", {"name": "Org"})])
def test_a_short_anonymous_creation_key_is_refused_and_creates_nothing(
    client: FlaskClient, path: str, body: dict[str, Any]
) -> None:
    for short in ("k", "table-7", "x" * 31):
        resp = client.post(path, json=body, headers=_key(short))
        assert resp.status_code == 400 and resp.get_json()["code"] == "idempotency_key_too_short"
    assert _games(client) == []
    assert client.post(path, json=body, headers=_key("x" * 32)).status_code == 201


def test_the_creation_key_takeover_is_closed(client: FlaskClient) -> None:
    """Issue 25: the victim's short key let anyone rebuild the body from the
    public list and collect every token.  Now a short key is refused, and a
    long one with the right body answers only the holder of the key."""
    assert client.post("/v1/games", json=GAME, headers=_key("table-7")).status_code == 400
    victim_key = str(uuid.uuid4())
    victim = client.post("/v1/games", json=GAME, headers=_key(victim_key)).get_json()
    # the attacker rebuilds the body from the public list, guessing keys
    listed = client.get("/v1/games").get_json()["games"][0]
    rebuilt = {"type": listed["type"], "players": [{"name": n} for n in listed["players"]]}
    for guess in (str(uuid.uuid4()), victim_key[:31], victim_key.upper()):
        resp = client.post("/v1/games", json=rebuilt, headers=_key(guess))
        if resp.status_code == 201:
            assert resp.get_json()["id"] != victim["id"]
            assert not {s["token"] for s in resp.get_json()["seats"]} & {s["token"] for s in victim["seats"]}


def test_an_organiser_key_is_scoped_to_its_organiser(client: FlaskClient) -> None:
    org = client.post("/v1/organisers", json={"name": "Org"}).get_json()
    other = client.post("/v1/organisers", json={"name": "Other"}).get_json()
    short = {**_key("t1"), **auth(org["token"])}
    first = client.post("/v1/games", json=GAME, headers=short)
    assert first.status_code == 201 and client.post("/v1/games", json=GAME, headers=short).get_json() == first.get_json()
    theirs = client.post("/v1/games", json=GAME, headers={**_key("t1"), **auth(other["token"])})
    assert theirs.status_code == 201 and theirs.get_json()["id"] != first.get_json()["id"]
    # an organiser token scopes an organiser's creation key too
    child = client.post("/v1/organisers", json={"name": "Child"}, headers=short)
    assert child.status_code == 201
    assert client.post("/v1/organisers", json={"name": "Child"}, headers=short).get_json() == child.get_json()
    assert client.post("/v1/organisers", json={"name": "Child"}, headers=_key("t1")).status_code == 400


def test_organiser_creation_is_rate_limited_like_games(tmp_path: Any) -> None:
    app: Flask = create_app(Settings(data_dir=str(tmp_path), create_rate_limit="3/minute"))
    client = app.test_client()
    answers = [client.post("/v1/organisers", json={"name": f"O{i}"}).status_code for i in range(5)]
    assert answers == [201, 201, 201, 429, 429]
    app.extensions["cablecar"].stores.close()


def test_organiser_batch_and_webhook_creations_are_idempotent(tmp_path: Any) -> None:
    app: Flask = create_app(Settings(data_dir=str(tmp_path), webhook_private_addresses=True, webhooks=False))
    client = app.test_client()
    o = str(uuid.uuid4())
    org = client.post("/v1/organisers", json={"name": "Cup"}, headers=_key(o))
    assert client.post("/v1/organisers", json={"name": "Cup"}, headers=_key(o)).get_json() == org.get_json()
    assert client.post("/v1/organisers", json={"name": "Other"}, headers=_key(o)).status_code == 422
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
    app.extensions["cablecar"].stores.close()


@pytest.mark.parametrize("path", ["/v1/games", "/v1/batches", "/v1/organisers", "/v1/webhooks"])
def test_the_spec_documents_the_key_on_every_creating_post(path: str) -> None:
    from tests.api.test_openapi import resolve, spec

    operation = spec()["paths"][path]["post"]
    names = {resolve(p)["name"] for p in operation.get("parameters", [])}
    assert "Idempotency-Key" in names
    assert "422" in operation["responses"]
