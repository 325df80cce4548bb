"""Key lifetimes in the log (issue 48, item 6): backdating beats no cutoff.

* a record re-signed with a retired (leaked) key and every ``recorded_at``
  set before that key was made is NOT VALID, for ``cablecar verify --keys``
  and ``/audit`` alike;
* a record stripped of its signatures and backdated to 2001 is refused by
  ``--allow-unsigned``: its header says when its game was created;
* the keys' lifetimes are events of the server's own stream (``_server``:
  ``key_added``, ``key_retired``), leaves of the log like any event;
  ``GET /v1/keys`` names their seqs and, once logged, the tree at a key's
  retirement: a checkpoint note the retired key signs for a larger tree is
  refused by ``cablecar verify --checkpoint`` and ``cablecar log
  verify-consistency``, and the server's publisher signs none;
* ``_server`` is no game: not listed, not readable, exported or played.
"""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from cablecar.cli import main
from events.integrity import merkle
from events.integrity.checkpoint import Checkpoint, parse_note, sign_note
from events.integrity.lifetimes import KEY_ADDED, KEY_RETIRED, SERVER_LEAF_SALT, SERVER_STREAM
from events.integrity.signing import Signer
from service.adapters.signing_keys import key_path, read_key_file
from service.api.app import create_app, log_publisher
from service.config import Settings
from tests.api.conftest import auth, create
from tests.api.test_seeds import _finished_export
from tests.api.test_verify_signatures import _audited, _renamed, _stripped, verify_cli
from tests.api.test_verify_tamper import rechain

ROOT = Path(__file__).resolve().parents[2]
#: the day the forgeries are dated: before any key these tests make
BACKDATED = "2026-01-01T00:00:00.000000Z"


@pytest.fixture
def settings(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Settings:
    for name in ("DATABASE_URL", "CABLECAR_SIGNING_KEY_FILE", "CABLECAR_RETIRED_KEYS_FILE"):
        monkeypatch.delenv(name, raising=False)
    return Settings(data_dir=str(tmp_path / "data"), webhooks=False)


@pytest.fixture
def apps(settings: Settings) -> Iterator[list[Flask]]:
    """Servers made by a test (each closed afterwards)."""
    made: list[Flask] = []
    yield made
    for app in made:
        app.extensions["cablecar"].stores.close()


def _server(settings: Settings, apps: list[Flask]) -> Flask:
    """A server on ``settings`` that has started: its keys are recorded in its own stream."""
    apps.append(create_app(settings))
    log_publisher(apps[-1]).run_once()
    return apps[-1]


def _rotate(settings: Settings) -> None:
    """``cablecar keys rotate`` as the operator runs it."""
    assert main(["keys", "rotate", "--data-dir", str(settings.data_dir)]) == 0


def _resigned(export: dict[str, Any], key: Signer, recorded_at: str) -> dict[str, Any]:
    """``export`` as the holder of ``key`` rewrites it: the players renamed,
    every event (and the header) dated ``recorded_at``, re-chained and re-signed."""
    names = {p: f"Mallory{i}" for i, p in enumerate(export["game"]["players"])}
    forged = copy.deepcopy(export)
    forged["game"]["players"] = list(names.values())
    forged["game"]["created_at"] = recorded_at
    for e in forged["events"]:
        e["payload"] = _renamed(e["payload"], names)
        e["recorded_at"] = recorded_at
    rechain(forged)
    for e in forged["events"]:
        e["signature"], e["key_id"] = key.sign(e["hash"]), key.key_id
    return forged


def test_a_record_re_signed_with_a_retired_key_and_dated_before_the_key_was_made_fails(
    settings: Settings, apps: list[Flask], tmp_path: Path
) -> None:
    before = _server(settings, apps)
    leaked = read_key_file(key_path(settings))  # the key that leaks, and is retired for it
    export = _finished_export(before.test_client(), players=2, seed="backdated")
    _rotate(settings)
    after = _server(settings, apps)
    keys = after.test_client().get("/v1/keys").get_json()
    [listed] = [k for k in keys["keys"] if k["key_id"] == leaked.key_id]
    assert listed["retired_at"] is not None and listed["created_at"] > BACKDATED

    forged = _resigned(export, leaked, BACKDATED)  # before its retirement, and before it was made
    out = verify_cli(tmp_path, forged, keys=keys)
    assert out.returncode == 1 and "NOT VALID" in out.stdout, out.stdout + out.stderr
    assert f"seq 1: signed by key {leaked.key_id}, recorded before that key was made" in out.stdout, out.stdout
    audited = _audited(after, forged)
    failed = {c.name: c.detail for c in audited.checks if c.checked and not c.ok}
    assert list(failed) == ["signatures"] and "recorded before that key was made" in failed["signatures"]
    out = verify_cli(tmp_path, export, keys=keys)  # the genuine record, signed while the key was alive
    assert out.returncode == 0 and "is VALID" in out.stdout, out.stdout + out.stderr


def test_a_stripped_record_backdated_to_2001_is_refused_by_allow_unsigned(
    settings: Settings, apps: list[Flask], tmp_path: Path
) -> None:
    app = _server(settings, apps)
    client = app.test_client()
    export = _finished_export(client, players=2, seed="from-2001")
    keys = client.get("/v1/keys").get_json()
    forged = _stripped(export)
    for e in forged["events"]:
        e["recorded_at"] = "2001-01-01T00:00:00.000000Z"  # before the server signed: "from before signing"
    rechain(forged)
    out = verify_cli(tmp_path, forged, "--allow-unsigned", keys=keys)
    assert out.returncode == 1 and "NOT VALID" in out.stdout, out.stdout + out.stderr
    assert (f"seq 1: recorded before its game was created ({export['game']['created_at']}, the record's header "
            "says)") in out.stdout, out.stdout
    audited = _audited(app, forged)
    assert audited.failed and "recorded before its game was created" in str(audited.to_json())
    # a record from before signing, its dates agreeing with its header, still verifies with --allow-unsigned
    old = json.loads((ROOT / "tests/api/data/old_records/ttr-sf-2.export.json").read_text())
    out = verify_cli(tmp_path, old, "--allow-unsigned", keys=keys)
    assert out.returncode == 0 and "is VALID" in out.stdout, out.stdout + out.stderr


def _saved(tmp_path: Path, name: str, doc: dict[str, Any]) -> str:
    path = tmp_path / name
    path.write_text(json.dumps(doc))
    return str(path)


def _consistent(tmp_path: Path, old: dict[str, Any], new: dict[str, Any], proof: dict[str, Any],
                keys: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    """``cablecar log verify-consistency`` as a witness runs it."""
    return subprocess.run(
        [sys.executable, "-m", "cablecar.cli", "log", "verify-consistency", _saved(tmp_path, "old.json", old),
         _saved(tmp_path, "new.json", new), "--keys", _saved(tmp_path, "keys.json", keys),
         "--proof", _saved(tmp_path, "proof.json", proof)],
        cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_a_checkpoint_signed_by_a_retired_key_for_a_later_tree_is_refused(
    settings: Settings, apps: list[Flask], tmp_path: Path
) -> None:
    before = _server(settings, apps)
    leaked = read_key_file(key_path(settings))
    old_publisher = log_publisher(before).publisher
    _finished_export(before.test_client(), players=2, seed="logged-before")
    first = old_publisher.publish()
    assert first is not None and first.key_id == leaked.key_id
    _rotate(settings)  # records key_retired (and the new key's key_added) in the server's stream
    # the old server, not restarted yet, signs the tree up to its key's retirement and no larger one
    last = old_publisher.publish()
    assert last is not None and last.key_id == leaked.key_id
    after = _server(settings, apps)
    client = after.test_client()
    export = _finished_export(client, players=2, seed="logged-after")
    assert old_publisher.publish() is None and old_publisher.retired
    later = log_publisher(after).publisher.publish()
    assert later is not None and later.key_id != leaked.key_id and later.tree_size > last.tree_size

    keys = client.get("/v1/keys").get_json()
    [retired] = [k for k in keys["keys"] if k["key_id"] == leaked.key_id]
    assert retired["retired_tree_size"] == last.tree_size and retired["retired_seq"] is not None
    stream = after.extensions["cablecar"].stores.events.load(SERVER_STREAM)
    assert stream[retired["retired_seq"] - 1].type == KEY_RETIRED
    assert stream[retired["added_seq"] - 1].type == KEY_ADDED

    genuine = client.get(f"/v1/log/checkpoint?tree_size={later.tree_size}").get_json()
    body = parse_note(genuine["note"])[0]
    origin = Checkpoint.parse(body).origin
    forged = {**genuine, "note": sign_note(body, origin, leaked.public_raw, leaked.sign_bytes)}
    proof = client.get(f"/v1/log/consistency?first={first.tree_size}&second={later.tree_size}").get_json()
    old = client.get(f"/v1/log/checkpoint?tree_size={first.tree_size}").get_json()
    out = _consistent(tmp_path, old, forged, proof, keys)
    assert out.returncode == 1 and "NOT CONSISTENT" in out.stdout, out.stdout + out.stderr
    assert f"key {leaked.key_id} was retired in the log's tree of {last.tree_size} leaves" in out.stdout
    out = _consistent(tmp_path, old, genuine, proof, keys)  # the same tree, signed by the current key
    assert out.returncode == 0 and "is CONSISTENT" in out.stdout, out.stdout + out.stderr
    # the tree of the retirement itself, signed by the retired key, is the log's
    at_retirement = client.get(f"/v1/log/checkpoint?tree_size={last.tree_size}").get_json()
    proof = client.get(f"/v1/log/consistency?first={first.tree_size}&second={last.tree_size}").get_json()
    out = _consistent(tmp_path, old, at_retirement, proof, keys)
    assert out.returncode == 0 and "is CONSISTENT" in out.stdout, out.stdout + out.stderr

    # verify --checkpoint refuses the forged note too, the genuine one holds the record
    inclusion = client.get(f"/v1/games/{export['game']['id']}/inclusion?tree_size={later.tree_size}").get_json()
    args = ["--checkpoint", _saved(tmp_path, "cp.json", forged), "--proof", _saved(tmp_path, "inc.json", inclusion)]
    out = verify_cli(tmp_path, export, *args, keys=keys)
    assert out.returncode == 1 and "signed by a retired key" in out.stdout, out.stdout + out.stderr
    args[1] = _saved(tmp_path, "cp.json", genuine)
    out = verify_cli(tmp_path, export, *args, keys=keys)
    assert out.returncode == 0 and "is VALID" in out.stdout, out.stdout + out.stderr


def test_the_servers_keys_are_events_of_its_own_stream_which_is_no_game(
    settings: Settings, apps: list[Flask]
) -> None:
    app = _server(settings, apps)
    client = app.test_client()
    stores = app.extensions["cablecar"].stores
    [added] = stores.events.load(SERVER_STREAM)
    signer = app.extensions["cablecar"].signing_keys.signer
    assert added.type == KEY_ADDED and added.key_id == signer.key_id
    assert added.payload == {"key_id": signer.key_id, "public_key": signer.public.public_key,
                             "created_at": signer.public.created_at}
    again = create_app(settings)  # another worker, another start: nothing more to record
    apps.append(again)
    log_publisher(again).run_once()
    assert len(stores.events.load(SERVER_STREAM)) == 1
    [key] = client.get("/v1/keys").get_json()["keys"]
    assert key["added_seq"] == 1 and key["retired_seq"] is None and key["retired_tree_size"] is None

    game = create(client, players=2, seed="beside-the-stream")
    listed = client.get("/v1/games").get_json()["games"]
    assert [g["id"] for g in listed] == [game["id"]]
    for path in ("", "/events", "/export", "/audit", "/legal-actions?seat=0", "/inclusion"):
        answer = client.get(f"/v1/games/{SERVER_STREAM}{path}")
        assert answer.status_code == 404, (path, answer.get_json())
    token = auth(game["seats"][0]["token"])
    acted = client.post(f"/v1/games/{SERVER_STREAM}/actions", json={"type": "draw_tickets"}, headers=token)
    assert acted.status_code in (401, 404) and len(stores.events.load(SERVER_STREAM)) == 1
    # its leaves are in the log with a public salt; the publisher logs them like any event
    published = log_publisher(app).publisher.publish()
    assert published is not None
    leaf = stores.log.game_leaf(SERVER_STREAM, 1)
    assert leaf is not None and leaf.leaf_index < published.tree_size
    assert stores.events.get_game(SERVER_STREAM).metadata["leaf_salt"] == SERVER_LEAF_SALT
    stored = stores.log.node_hashes([(0, leaf.leaf_index)])[(0, leaf.leaf_index)]
    assert stored == merkle.leaf_hash(bytes.fromhex(added.hash) + bytes.fromhex(SERVER_LEAF_SALT))
