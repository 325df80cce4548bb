"""Who may act (issue 34) through the HTTP edge: a seat token rotation is a
signed ``seat_token_rotated`` event of the game (no secret in it), the
rotated-away token is refused (401) on every path a seat token opens, the new
one acts, and the record still audits and verifies; stored hashes are keyed
with the server's secret, bound to the seat and the rotation's epoch."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from service.adapters.tokens import epoch_of, plain_hash
from tests.api.conftest import act, auth, create, finish_setup, legal, view


def _paths(client: FlaskClient, game: dict[str, Any], token: str, action: dict[str, Any]) -> dict[str, int]:
    """The status of every request a seat token opens."""
    gid, headers = game["id"], auth(token)
    return {
        "view": client.get(f"/v1/games/{gid}", headers=headers).status_code,
        "legal-actions": client.get(f"/v1/games/{gid}/legal-actions", headers=headers).status_code,
        "events": client.get(f"/v1/games/{gid}/events", headers=headers).status_code,
        "stream": client.get(f"/v1/games/{gid}/events/stream", headers=headers).status_code,
        "actions": client.post(f"/v1/games/{gid}/actions", json=action, headers=headers).status_code,
    }


def test_a_rotation_is_a_signed_event_and_the_old_token_is_refused_everywhere(app: Flask, client: FlaskClient) -> None:
    game = create(client)
    before = finish_setup(client, game)
    seat = before["active_seats"][0]
    old = game["seats"][seat]["token"]
    action = legal(client, game, seat)[0]
    rotated = client.post(f"/v1/games/{game['id']}/seats/{seat}/token", headers=auth(game["host_token"]))
    assert rotated.status_code == 200, rotated.get_json()
    new = rotated.get_json()["token"]
    assert new != old

    events = client.get(f"/v1/games/{game['id']}/events?after={before['version']}").get_json()["events"]
    [event] = events
    assert event["type"] == "seat_token_rotated" and event["payload"] == {"seat": seat} and event["seat"] is None
    assert event["seq"] == before["version"] + 1 and old not in str(event) and new not in str(event)
    # signed like every event (hashes and signatures are shown once the game is over; the store has them now)
    stored_event = app.extensions["cablecar"].stores.events.load(game["id"], after=before["version"])[0]
    assert stored_event.type == "seat_token_rotated" and stored_event.signature and stored_event.key_id

    assert set(_paths(client, game, old, action).values()) == {401}
    assert act(client, {**game, "seats": [{"token": new}] * 4}, seat, action).status_code == 201
    assert view(client, game)["version"] == before["version"] + 2
    audit = client.get(f"/v1/games/{game['id']}/audit").get_json()
    assert audit["ok"] is True, audit

    # what is stored: keyed hashes, the rotated seat's of the epoch its event opened, no plain SHA-256
    stored = app.extensions["cablecar"].stores.events.get_game(game["id"]).metadata
    assert epoch_of(stored["seat_token_hashes"][seat]) == before["version"] + 1
    assert epoch_of(stored["host_token_hash"]) == 0
    assert all(plain_hash(t) not in str(stored) for t in (old, new, game["host_token"]))


def test_a_hash_copied_to_another_seat_or_put_back_acts_for_nobody(app: Flask, client: FlaskClient) -> None:
    """The binding: a keyed hash matches its own seat, game and epoch only."""
    hasher = app.extensions["cablecar"].tokens.hasher
    game = create(client)
    token = game["seats"][0]["token"]
    stored = hasher.stored(token, game["id"], 0, epoch=0)
    assert hasher.matches(token, game["id"], 0, stored)
    assert not hasher.matches(token, game["id"], 1, stored)                    # another seat
    assert not hasher.matches(token, "another", 0, stored)                     # another game
    assert not hasher.matches(token, game["id"], 0, stored.replace("k1:0:", "k1:7:"))  # another epoch
    assert not hasher.matches(token, game["id"], 0, plain_hash(token))         # a plain hash
    assert not hasher.matches(token, game["id"], 0, None)


def test_the_host_paths_take_an_empty_body_as_the_spec_declares(client: FlaskClient) -> None:
    """`/seats/{seat}/token` and `/cancel` declare an optional `{}` body (EmptyBody): a client that always
    sends one is answered as one that sends none."""
    game = create(client)
    host = auth(game["host_token"])
    rotated = client.post(f"/v1/games/{game['id']}/seats/0/token", json={}, headers=host)
    assert rotated.status_code == 200 and rotated.get_json()["token"], rotated.get_json()
    cancelled = client.post(f"/v1/games/{game['id']}/cancel", json={}, headers=host)
    assert cancelled.status_code == 200 and cancelled.get_json()["status"] == "cancelled", cancelled.get_json()


def test_host_operations_take_no_fields_and_refuse_a_body_that_has_some(client: FlaskClient) -> None:
    game = create(client)
    host = auth(game["host_token"])
    paths = (f"/v1/games/{game['id']}/seats/0/token", f"/v1/games/{game['id']}/cancel")
    for path in paths:
        for body in ([None, None], "AAA", {"seat": 1}, 7):
            answer = client.post(path, json=body, headers=host)
            assert answer.status_code == 400, (path, body, answer.get_json())
            assert answer.get_json()["code"] == "invalid_request"
    # nothing was done: the seat's token still acts and the game is still on
    assert view(client, game)["status"] != "cancelled" and view(client, game)["version"] == game["version"]
    assert client.get(f"/v1/games/{game['id']}/legal-actions", headers=auth(game["seats"][0]["token"])).status_code == 200
    for path in paths:  # no body and {} both do it (the answers of the two calls of each)
        assert client.post(path, headers=host).status_code == 200
        assert client.post(path, json={}, headers=host).status_code in (200, 409)
