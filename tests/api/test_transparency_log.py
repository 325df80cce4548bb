"""The transparency log over HTTP, on both backends (issue 35): checkpoints
signed by the server's key, a finished game's inclusion proof leading to the
latest root, consistency between two checkpoints, a game in play yielding
nothing that would let anyone test a guess about it, and key rotation."""

from __future__ import annotations

import base64
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from events.integrity import merkle
from events.integrity.checkpoint import verify_checkpoint
from events.integrity.signing import unb64url
from service.adapters.signing_keys import load_server_keys, rotate
from service.api.app import create_app, log_publisher
from service.config import Settings
from tests.api.conftest import act, auth, create, finish_setup, legal, play_to_end
from tests.api.test_openapi import check_response

NewApp = Callable[[], Flask]


@pytest.fixture(params=["sqlite", "postgres"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[NewApp, Settings]]:
    settings = Settings(data_dir=str(tmp_path), webhooks=False, log_origin="games.example.org/log")
    apps: list[Flask] = []
    url = admin = None
    if request.param == "postgres":
        from tests.contract.conftest import create_database, postgres_admin_url

        admin = postgres_admin_url()
        url = create_database(admin, "cc_tlog")

    def new_app() -> Flask:
        if url is None:
            apps.append(create_app(settings))
        else:
            from events.factory import postgres_stores

            apps.append(create_app(settings, stores=postgres_stores(url, signer=load_server_keys(settings).signer)))
        apps[-1].testing = True
        return apps[-1]

    try:
        yield new_app, settings
    finally:
        for app in apps:
            app.extensions["cablecar"].stores.close()
        if url is not None and admin is not None:
            from tests.contract.conftest import drop_database

            drop_database(admin, url)


def _publish(app: Flask) -> dict[str, Any]:
    """Publish until the tree holds every stored event (on PostgreSQL the global log is read up to
    the oldest transaction running on the server, which another test's may hold back for a moment)."""
    store = app.extensions["cablecar"].stores
    publisher = log_publisher(app).publisher
    deadline = time.monotonic() + 10
    while publisher.publish() or store.log.checkpoint() is None or (
            store.log.checkpoint().tree_size < store.database.rows("SELECT count(*) FROM events")[0][0]):
        assert time.monotonic() < deadline, "the publisher did not catch up with the log"
        time.sleep(0.02)
    resp = app.test_client().get("/v1/log/checkpoint")
    assert resp.status_code == 200, resp.get_json()
    return dict(resp.get_json())


def _keys(app: Flask) -> dict[str, bytes]:
    return {k["key_id"]: unb64url(k["public_key"]) for k in app.test_client().get("/v1/keys").get_json()["keys"]}


def _unb64(items: list[str]) -> list[bytes]:
    return [base64.b64decode(h, validate=True) for h in items]


def _all_leaves(app: Flask) -> list[bytes]:
    """Every event's leaf hash, in the global log's order, from the store's rows (what the tree must hold)."""
    store = app.extensions["cablecar"].stores
    leaves, after = [], 0
    while batch := store.events.read_all(after, 1000):
        for e in batch:
            salt = store.events.get_game(e.game_id).metadata["leaf_salt"]
            leaves.append(merkle.leaf_hash(bytes.fromhex(e.hash) + bytes.fromhex(salt)))
        after = batch[-1].position
    return leaves


def test_a_finished_games_inclusion_proof_leads_to_the_signed_root(backend: tuple[NewApp, Settings]) -> None:
    new_app, _ = backend
    app = new_app()
    client = app.test_client()
    nothing = client.get("/v1/log/checkpoint")
    assert nothing.status_code == 404 and "no checkpoint" in nothing.get_json()["detail"]

    first = create(client)
    finish_setup(client, first)
    play_to_end(client, first)
    cp = _publish(app)
    assert cp["origin"] == "games.example.org/log"
    key = _keys(app)[cp["key_id"]]
    signed = verify_checkpoint(cp["note"], cp["origin"], key)
    root = base64.b64decode(cp["root_hash"])
    assert (signed.size, signed.root_hash) == (cp["tree_size"], root)
    assert root == merkle.root(_all_leaves(app))  # the tree is every event's leaf, in order

    export = client.get(f"/v1/games/{first['id']}/export").get_json()
    assert len(export["leaf_salt"]) == 64
    proof = client.get(f"/v1/games/{first['id']}/inclusion")
    assert proof.status_code == 200, proof.get_json()
    answer = proof.get_json()
    last = export["events"][-1]
    assert answer["seq"] == last["seq"] and answer["tree_size"] == cp["tree_size"]
    leaf = merkle.leaf_hash(bytes.fromhex(last["hash"]) + bytes.fromhex(export["leaf_salt"]))
    assert merkle.verify_inclusion(leaf, answer["leaf_index"], answer["tree_size"], _unb64(answer["proof"]), root)
    wrong_salt = merkle.leaf_hash(bytes.fromhex(last["hash"]) + bytes(32))
    assert not merkle.verify_inclusion(wrong_salt, answer["leaf_index"], answer["tree_size"],
                                       _unb64(answer["proof"]), root)

    # more games, a second checkpoint: consistent with the first, and the first game still included in it
    second = create(client, seed="another")
    finish_setup(client, second)
    play_to_end(client, second)
    cp2 = _publish(app)
    root2 = base64.b64decode(cp2["root_hash"])
    assert cp2["tree_size"] > cp["tree_size"] and root2 == merkle.root(_all_leaves(app))
    consistency = client.get(f"/v1/log/consistency?first={cp['tree_size']}&second={cp2['tree_size']}")
    assert consistency.status_code == 200, consistency.get_json()
    body = consistency.get_json()
    assert (body["first"], body["second"]) == (cp["tree_size"], cp2["tree_size"])
    assert merkle.verify_consistency(cp["tree_size"], cp2["tree_size"], _unb64(body["proof"]), root, root2)
    assert not merkle.verify_consistency(cp["tree_size"], cp2["tree_size"], _unb64(body["proof"]), root2, root)
    again = client.get(f"/v1/games/{first['id']}/inclusion").get_json()
    assert again["tree_size"] == cp2["tree_size"]
    assert merkle.verify_inclusion(leaf, again["leaf_index"], again["tree_size"], _unb64(again["proof"]), root2)
    older = client.get(f"/v1/log/checkpoint?tree_size={cp['tree_size']}").get_json()
    assert older == cp
    # the second game's last event is not in the first tree
    assert client.get(f"/v1/games/{second['id']}/inclusion?tree_size={cp['tree_size']}").status_code == 404

    for path, resp in (("/v1/log/checkpoint", client.get("/v1/log/checkpoint")),
                       ("/v1/log/consistency", consistency), ("/v1/games/{id}/inclusion", proof),
                       ("/v1/games/{id}/inclusion", client.get(f"/v1/games/{second['id']}/inclusion?tree_size=1"))):
        check_response(resp, path)  # as the contract says, errors included
    for bad in ("first=0&second=3", f"first={cp2['tree_size']}&second={cp['tree_size']}", "first=x&second=2",
                "second=2", f"first={cp['tree_size']}&second={cp2['tree_size']}&extra=1"):
        assert client.get(f"/v1/log/consistency?{bad}").status_code == 400, bad
    assert client.get(f"/v1/log/consistency?first=1&second={cp2['tree_size']}").status_code == 404
    for bad in ("0", "-1", "x", ""):
        assert client.get(f"/v1/log/checkpoint?tree_size={bad}").status_code in (400, 200), bad
    assert client.get("/v1/log/checkpoint?tree_size=0").status_code == 400
    assert client.get(f"/v1/log/checkpoint?tree_size={cp2['tree_size'] + 1}").status_code == 404
    assert client.get("/v1/games/nope/inclusion").status_code == 404


def _read_everything(app: Flask, game: dict[str, Any], checkpoints: list[dict[str, Any]]) -> list[str]:
    """The bodies of every read a client can make of the game and of the log."""
    client = app.test_client()
    gid = game["id"]
    host = auth(game["host_token"]) if "host_token" in game else {}
    bodies = []
    for path, headers in [(f"/v1/games/{gid}", {}), (f"/v1/games/{gid}", auth(game["seats"][0]["token"])),
                          (f"/v1/games/{gid}", auth(game["seats"][1]["token"])), (f"/v1/games/{gid}", host),
                          (f"/v1/games/{gid}/events?limit=1000", {}),
                          (f"/v1/games/{gid}/events?limit=1000", auth(game["seats"][0]["token"])),
                          (f"/v1/games/{gid}/audit", {}), (f"/v1/games/{gid}/export", {}),
                          (f"/v1/games/{gid}/inclusion", {}), ("/v1/games", {}), ("/v1/keys", {}),
                          ("/v1/log/checkpoint", {}),
                          *[(f"/v1/log/checkpoint?tree_size={c['tree_size']}", {}) for c in checkpoints],
                          (f"/v1/log/consistency?first={checkpoints[0]['tree_size']}"
                           f"&second={checkpoints[-1]['tree_size']}", {})]:
        bodies.append(client.get(path, headers=headers).get_data(as_text=True))
    return bodies


def test_a_game_in_play_has_no_proof_and_nothing_of_its_leaves_is_served(backend: tuple[NewApp, Settings]) -> None:
    new_app, _ = backend
    app = new_app()
    client = app.test_client()
    done = create(client, seed="done")
    finish_setup(client, done)
    play_to_end(client, done)
    game = create(client)
    finish_setup(client, game)
    for _ in range(4):
        v = client.get(f"/v1/games/{game['id']}").get_json()
        seat = v["active_seats"][0]
        assert act(client, game, seat, legal(client, game, seat)[0]).status_code == 201
    checkpoints = [_publish(app)]
    assert act(client, game, client.get(f"/v1/games/{game['id']}").get_json()["active_seats"][0],
               legal(client, game, client.get(f"/v1/games/{game['id']}").get_json()["active_seats"][0])[0]
               ).status_code == 201
    checkpoints.append(_publish(app))

    refused = client.get(f"/v1/games/{game['id']}/inclusion")
    assert refused.status_code == 409 and refused.get_json()["code"] == "game_not_finished"
    store = app.extensions["cablecar"].stores
    salt = store.events.get_game(game["id"]).metadata["leaf_salt"]
    assert isinstance(salt, str) and len(salt) == 64
    # What would let anyone test a guess: the salt, and each leaf's input (event hash || salt), in any
    # encoding, and the event hashes themselves (hidden during play).  Leaf hashes may stand in a proof
    # (a one-leaf subtree is a proof step): SHA-256 of a 32-byte secret, they tell nothing without it,
    # but nothing else serves them.
    secrets = [salt, base64.b64encode(bytes.fromhex(salt)).decode()]
    leaves = []
    for e in store.events.load(game["id"]):
        data = bytes.fromhex(e.hash) + bytes.fromhex(salt)
        secrets += [e.hash, data.hex(), base64.b64encode(data).decode()]
        leaf = merkle.leaf_hash(data)
        leaves += [leaf.hex(), base64.b64encode(leaf).decode()]
    bodies = _read_everything(app, game, checkpoints)
    for body in bodies:
        for secret in secrets:
            assert secret not in body
    for body in bodies[:-1]:  # all but the consistency proof
        for leaf_text in leaves:
            assert leaf_text not in body
    # the scan can find what it looks for: the finished game's salt is in its export
    done_salt = store.events.get_game(done["id"]).metadata["leaf_salt"]
    assert any(done_salt in body for body in _read_everything(app, done, checkpoints))


def test_a_rotated_key_leaves_older_checkpoints_verifiable(backend: tuple[NewApp, Settings]) -> None:
    new_app, settings = backend
    app = new_app()
    client = app.test_client()
    create(client)
    before = _publish(app)
    retired, new = rotate(settings)
    assert before["key_id"] == retired.key_id
    app = new_app()  # a restarted server signs with the new key
    create(app.test_client(), seed="after")
    after = _publish(app)
    assert after["key_id"] == new.key_id != before["key_id"]
    keys = _keys(app)  # the retired key is still listed
    served = app.test_client().get(f"/v1/log/checkpoint?tree_size={before['tree_size']}").get_json()
    assert served == before
    assert verify_checkpoint(served["note"], served["origin"], keys[served["key_id"]]).size == before["tree_size"]
    assert verify_checkpoint(after["note"], after["origin"], keys[new.key_id]).size == after["tree_size"]
    with pytest.raises(ValueError):
        verify_checkpoint(served["note"], served["origin"], keys[new.key_id])
