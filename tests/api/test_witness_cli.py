"""The witness end to end (issue 35), through the real app on SQLite and the real command line: a
finished game's record verifies against a checkpoint saved after it ended, its proof given or fetched
from the server over HTTP; then the owner rewrites the stored record (the SQLite file directly: a
player renamed in the setup event and the game's row, the hash chain recomputed, every event re-signed
with the server's own key) so that ``cablecar verify --keys`` alone finds nothing, and the checkpoint
saved before the edit exposes it."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from flask import Flask

from cablecar.cli import main
from events import DEFAULT_SQLITE_NAME
from events.encoding.canonical import canonical_json
from events.integrity.envelope import GENESIS_HASH, event_hash
from events.integrity.signing import Signer
from service.adapters.signing_keys import load_server_keys
from service.api.app import create_app, log_publisher
from service.config import Settings
from tests.api.conftest import create, finish_setup, play_to_end
from tests.wsgi_server import served

ORIGIN = "games.example.org/log"


def _save(app: Flask, path: Path, url: str) -> dict[str, Any]:
    resp = app.test_client().get(url)
    assert resp.status_code == 200, resp.get_json()
    path.write_text(json.dumps(resp.get_json()), encoding="utf-8")
    return dict(resp.get_json())


def _rewrite(db: Path, game_id: str, signer: Signer, name: str) -> None:
    """What the owner of the database file can do: rename seat 0 in the setup event and the game's row,
    recompute the chain from there and re-sign every event with the server's key."""
    conn = sqlite3.connect(db)
    with conn:
        conn.execute("DROP TRIGGER events_no_update")
        rows = conn.execute("SELECT position, seq, type, schema_version, payload, recorded_at, seat, idempotency_key"
                            " FROM events WHERE game_id = ? ORDER BY seq", (game_id,)).fetchall()
        prev = GENESIS_HASH
        for position, seq, type_, schema_version, payload_text, recorded_at, seat, key in rows:
            payload = json.loads(payload_text)
            if seq == 1:
                payload["players"][0] = name
            digest = event_hash(game_id=game_id, seq=seq, type=type_, schema_version=schema_version, payload=payload,
                                recorded_at=recorded_at, seat=seat, idempotency_key=key, prev_hash=prev)
            conn.execute("UPDATE events SET payload = ?, prev_hash = ?, hash = ?, signature = ?, key_id = ?"
                         " WHERE position = ?",
                         (canonical_json(payload), prev, digest, signer.sign(digest), signer.key_id, position))
            prev = digest
        conn.execute("UPDATE games SET last_hash = ?, metadata = json_set(metadata, '$.players[0]', ?)"
                     " WHERE game_id = ?", (prev, name, game_id))
    conn.close()


def test_a_record_the_owner_rewrote_fails_against_the_checkpoint_saved_before(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    settings = Settings(data_dir=str(tmp_path / "data"), webhooks=False, log_origin=ORIGIN)
    app = create_app(settings)
    app.testing = True
    client = app.test_client()
    game = create(client)
    finish_setup(client, game)
    play_to_end(client, game)
    create(client, seed="still playing")  # another game's events in the tree too
    publisher = log_publisher(app).publisher
    while publisher.publish():
        pass

    files = {name: tmp_path / name for name in ("keys.json", "cp.json", "game.json", "proof.json", "forged.json")}
    _save(app, files["keys.json"], "/v1/keys")
    cp = _save(app, files["cp.json"], "/v1/log/checkpoint")
    _save(app, files["game.json"], f"/v1/games/{game['id']}/export")
    _save(app, files["proof.json"], f"/v1/games/{game['id']}/inclusion?tree_size={cp['tree_size']}")
    f = {k: str(v) for k, v in files.items()}

    assert main(["verify", "--keys", f["keys.json"], "--checkpoint", f["cp.json"], "--proof", f["proof.json"],
                 f["game.json"]]) == 0
    out = capsys.readouterr().out
    assert "ok   inclusion" in out and f"tree of {cp['tree_size']} leaves" in out and "is VALID" in out
    with served(app) as url:
        assert main(["verify", "--keys", f["keys.json"], "--checkpoint", f["cp.json"], "--server", url,
                     f["game.json"]]) == 0
        assert "ok   inclusion" in capsys.readouterr().out
        assert main(["log", "checkpoint", "--server", url, "--keys", f["keys.json"],
                     "--out", str(tmp_path / "round1.json")]) == 0
        assert json.loads((tmp_path / "round1.json").read_text()) == cp
        assert main(["log", "checkpoint", "--server", url, "--out", str(tmp_path / "round1.json")]) == 2
        assert "never overwritten" in capsys.readouterr().err
    app.extensions["cablecar"].stores.close()

    _rewrite(tmp_path / "data" / DEFAULT_SQLITE_NAME, game["id"], load_server_keys(settings).signer, "Mallory")
    app = create_app(settings)  # a server started on the rewritten file
    app.testing = True
    try:
        forged = _save(app, files["forged.json"], f"/v1/games/{game['id']}/export")
        assert forged["game"]["players"][0] == "Mallory"
        assert main(["verify", "--keys", f["keys.json"], f["forged.json"]]) == 0  # every other check passes
        assert "is VALID" in capsys.readouterr().out
        assert main(["verify", "--keys", f["keys.json"], "--checkpoint", f["cp.json"], "--proof", f["proof.json"],
                     f["forged.json"]]) == 1
        out = capsys.readouterr().out
        assert "FAIL inclusion" in out and "is NOT VALID" in out
        with served(app) as url:  # the server's own proof today does not help either
            assert main(["verify", "--keys", f["keys.json"], "--checkpoint", f["cp.json"], "--server", url,
                         f["forged.json"]]) == 1
            assert "FAIL inclusion" in capsys.readouterr().out
            # and the log itself only grew: the checkpoint saved then and a later one are consistent
            create(app.test_client(), seed="later")
            while log_publisher(app).publisher.publish():
                pass
            assert main(["log", "checkpoint", "--server", url, "--out", str(tmp_path / "round2.json")]) == 0
            assert main(["log", "verify-consistency", f["cp.json"], str(tmp_path / "round2.json"),
                         "--keys", f["keys.json"], "--server", url]) == 0
            out = capsys.readouterr().out
            assert "ok   consistency" in out and "is CONSISTENT" in out
            assert json.loads((tmp_path / "round2.json").read_text())["tree_size"] > cp["tree_size"]
    finally:
        app.extensions["cablecar"].stores.close()
