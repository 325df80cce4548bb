"""The witness side of the transparency log (cablecar/witness.py, cablecar/tlog.py), with no server:
real checkpoints signed with events/integrity/checkpoint.py over real trees made with events/integrity/merkle.py, real
hash-chained and signed records.  A record rewritten by the operator (re-chained and re-signed with
the server's own key) passes its signatures but not its inclusion in a checkpoint saved before."""

from __future__ import annotations

import json
import random
import socket
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from cablecar import cli
from cablecar.tlog import consistency_checks
from cablecar.witness import (
    FETCH_BYTES,
    InclusionProof,
    SavedCheckpoint,
    WitnessError,
    fetch_json,
    inclusion_check,
    prepare,
)
from events.integrity import merkle
from events.integrity.checkpoint import Checkpoint, b64, sign_note
from events.integrity.envelope import GENESIS_HASH, event_hash, verify_events
from events.integrity.keyset import KeySet, signature_check
from events.integrity.signing import Signer
from events.integrity.verify import parse_events
from tests.raw_server import raw_server

ORIGIN = "games.example.org/log"
SERVER = Signer(bytes(range(32)), "2024-01-01T00:00:00.000000Z")
SALT = "5a" * 32


def _keys(*signers: Signer, retired: dict[str, str] | None = None) -> KeySet:
    entries = []
    for s in signers:
        entry = s.public.to_json()
        entry["retired_at"] = (retired or {}).get(s.key_id)
        entries.append(entry)
    return KeySet.from_json({"keys": entries})


def _record(game_id: str = "g-1", moves: tuple[int, ...] = (1, 2, 3), signer: Signer = SERVER,
            salt: str | None = SALT) -> dict[str, Any]:
    """A finished game's export: its events hash-chained and signed as the server does."""
    events, prev = [], GENESIS_HASH
    for seq, value in enumerate(moves, 1):
        fields: dict[str, Any] = {"game_id": game_id, "seq": seq, "type": "noted", "schema_version": 1,
                                  "payload": {"value": value}, "recorded_at": f"2024-05-01T10:00:0{seq}.000000Z",
                                  "seat": None, "idempotency_key": None, "prev_hash": prev}
        digest = event_hash(**fields)
        events.append({**fields, "position": 100 + seq, "hash": digest, "signature": signer.sign(digest),
                       "key_id": signer.key_id})
        prev = digest
    export: dict[str, Any] = {"game": {"id": game_id}, "events": events}
    if salt is not None:
        export["leaf_salt"] = salt
    return export


def _leaf(export: dict[str, Any]) -> bytes:
    return merkle.leaf_hash(bytes.fromhex(export["events"][-1]["hash"]) + bytes.fromhex(export["leaf_salt"]))


class Log:
    """A log's tree (leaf hashes) and the checkpoints and proofs a server would answer."""

    def __init__(self, leaves: list[bytes], origin: str = ORIGIN) -> None:
        self.leaves, self.origin = leaves, origin

    def mth(self, a: int, b: int) -> bytes:
        return merkle.root(self.leaves[a:b])

    def checkpoint(self, size: int | None = None, signer: Signer = SERVER) -> dict[str, Any]:
        size = len(self.leaves) if size is None else size
        root = merkle.root(self.leaves[:size])
        note = sign_note(Checkpoint(self.origin, size, root).body(), self.origin, signer.public_raw, signer.sign_bytes)
        return {"origin": self.origin, "tree_size": size, "root_hash": b64(root), "note": note, "key_id": signer.key_id}

    def inclusion(self, index: int, seq: int, size: int | None = None) -> dict[str, Any]:
        size = len(self.leaves) if size is None else size
        return {"tree_size": size, "leaf_index": index, "seq": seq,
                "proof": [b64(h) for h in merkle.inclusion_proof(index, size, self.mth)]}

    def consistency(self, first: int, second: int) -> dict[str, Any]:
        return {"first": first, "second": second,
                "proof": [b64(h) for h in merkle.consistency_proof(first, second, self.mth)]}


def _random_leaves(n: int, seed: int = 7) -> list[bytes]:
    rng = random.Random(seed)
    return [rng.randbytes(32) for _ in range(n)]


def _check(export: dict[str, Any], cp: dict[str, Any], proof: dict[str, Any], keys: KeySet | None = None) -> Any:
    saved = SavedCheckpoint.from_json(cp, "cp.json")
    stated, _ = saved.signed(keys or _keys(SERVER))
    return inclusion_check(export, stated, InclusionProof.from_json(proof, "proof.json"))


@pytest.fixture
def logged() -> tuple[dict[str, Any], Log]:
    """A record whose last event is leaf 11 of a 20-leaf log."""
    record = _record()
    leaves = _random_leaves(20)
    leaves[11] = _leaf(record)
    return record, Log(leaves)


def test_a_record_in_the_signed_tree_passes(logged: tuple[dict[str, Any], Log], tmp_path: Path) -> None:
    record, log = logged
    check = _check(record, log.checkpoint(), log.inclusion(11, 3))
    assert check.ok and check.checked and "seq 3" in check.detail and "leaf 11" in check.detail
    # the same through prepare(): files read, the checkpoint's signature checked, the key named
    (tmp_path / "cp.json").write_text(json.dumps(log.checkpoint()))
    (tmp_path / "p.json").write_text(json.dumps(log.inclusion(11, 3)))
    witness = prepare(_keys(SERVER), str(tmp_path / "cp.json"), str(tmp_path / "p.json"), None)
    assert witness is not None
    line = witness.check(record)
    assert line.ok and f"with key {SERVER.key_id}" in line.detail and ORIGIN in line.detail


def test_a_record_the_operator_rewrote_fails_against_a_checkpoint_saved_before(
        logged: tuple[dict[str, Any], Log]) -> None:
    record, log = logged
    saved_before = log.checkpoint()
    forged = _record(moves=(1, 9, 3))  # event 2's payload changed, the chain recomputed, re-signed by the server
    events, problems = parse_events("g-1", forged["events"])
    assert not problems and verify_events("g-1", events).ok  # the chain holds ...
    assert signature_check(events, _keys(SERVER)).ok  # ... and so do the signatures: only the log tells
    assert not _check(forged, saved_before, log.inclusion(11, 3)).ok
    # nor does a later tree that holds the forgery help against the checkpoint saved before
    later = Log([*log.leaves, _leaf(forged)])
    check = _check(forged, saved_before, later.inclusion(20, 3))
    assert not check.ok and "tree of 21 leaves" in check.detail


def test_a_backdated_game_never_in_the_tree_fails(logged: tuple[dict[str, Any], Log]) -> None:
    _, log = logged
    backdated = _record(game_id="g-late", moves=(4, 5, 6))
    for index in (0, 11, 19):  # whatever leaf a proof names, the record is none of them
        check = _check(backdated, log.checkpoint(), log.inclusion(index, 3))
        assert not check.ok and "is not the one the log held" in check.detail


def test_a_checkpoint_signed_by_another_key_or_edited_fails(logged: tuple[dict[str, Any], Log]) -> None:
    record, log = logged
    other = Signer(bytes(range(1, 33)))
    with pytest.raises(ValueError, match="not signed by any of the 1 keys"):
        SavedCheckpoint.from_json(log.checkpoint(signer=other), "cp.json").signed(_keys(SERVER))
    # the body edited to another root (the record's forged tree), fields to match: the signature breaks
    forged = _record(moves=(1, 9, 3))
    tampered_leaves = list(log.leaves)
    tampered_leaves[11] = _leaf(forged)
    good, fake = log.checkpoint(), Log(tampered_leaves).checkpoint()
    body, _, signatures = good["note"].partition("\n\n")
    edited = {**fake, "note": fake["note"].partition("\n\n")[0] + "\n\n" + signatures}
    assert edited["note"] != good["note"]
    with pytest.raises(ValueError, match="does not verify"):
        SavedCheckpoint.from_json(edited, "cp.json").signed(_keys(SERVER))
    # saved fields that disagree with the signed note are refused too
    with pytest.raises(ValueError, match="not what its note states"):
        SavedCheckpoint.from_json({**good, "tree_size": 21}, "cp.json").signed(_keys(SERVER))


def test_a_proof_for_another_seq_or_size_fails(logged: tuple[dict[str, Any], Log]) -> None:
    record, log = logged
    check = _check(record, log.checkpoint(), log.inclusion(11, 2))
    assert not check.ok and "seq 2" in check.detail
    check = _check(record, log.checkpoint(), log.inclusion(11, 3, size=15))
    assert not check.ok and "15 leaves" in check.detail
    check = _check(record, log.checkpoint(), log.inclusion(10, 3))
    assert not check.ok


def test_a_record_without_leaf_salt_fails_with_its_reason(logged: tuple[dict[str, Any], Log]) -> None:
    _, log = logged
    check = _check(_record(salt=None), log.checkpoint(), log.inclusion(11, 3))
    assert not check.ok and check.checked and "no leaf_salt" in check.detail


def test_an_old_checkpoint_verifies_with_the_retired_key_after_a_rotation(logged: tuple[dict[str, Any], Log]) -> None:
    record, log = logged
    before = log.checkpoint()  # signed by the key then current
    new = Signer(bytes(range(2, 34)))
    grown = Log([*log.leaves, *_random_leaves(5, seed=8)])
    after = grown.checkpoint(signer=new)
    rotated = _keys(SERVER, new, retired={SERVER.key_id: "2024-06-01T00:00:00.000000Z"})
    assert _check(record, before, log.inclusion(11, 3), rotated).ok
    assert _check(record, after, grown.inclusion(11, 3), rotated).ok
    _, how = SavedCheckpoint.from_json(before, "cp.json").signed(rotated)
    assert SERVER.key_id in how
    with pytest.raises(ValueError):  # without the retired key, the old checkpoint has no signer
        SavedCheckpoint.from_json(before, "cp.json").signed(_keys(new))


def _saved(cp: dict[str, Any], name: str) -> SavedCheckpoint:
    return SavedCheckpoint.from_json(cp, name)


def test_consistency_between_two_kept_checkpoints() -> None:
    log = Log(_random_leaves(30))
    old, new = log.checkpoint(13), log.checkpoint(30)
    checks = consistency_checks(_saved(old, "old"), _saved(new, "new"), _keys(SERVER), log.consistency(13, 30), None)
    assert [(c.name, c.ok) for c in checks] == [("checkpoints", True), ("origin", True), ("consistency", True)]
    # without keys the signatures are not checked, and never said ok
    first = consistency_checks(_saved(old, "old"), _saved(new, "new"), None, log.consistency(13, 30), None)[0]
    assert not first.checked and not first.ok and "NOT CHECKED" in first.detail
    # a log that rewrote leaf 5 after the old checkpoint: its new tree does not extend the old one
    rewritten = Log(list(log.leaves))
    rewritten.leaves[5] = _random_leaves(1, seed=99)[0]
    forked = rewritten.checkpoint(30)
    bad = consistency_checks(_saved(old, "old"), _saved(forked, "new"), _keys(SERVER),
                             rewritten.consistency(13, 30), None)
    assert bad[-1].name == "consistency" and not bad[-1].ok
    # two different trees signed for one size
    same_size = consistency_checks(_saved(log.checkpoint(30), "a"), _saved(forked, "b"), _keys(SERVER), None, None)
    assert not same_size[-1].ok and "forked" in same_size[-1].detail
    # the older one second, another origin, a proof between other sizes
    swapped = consistency_checks(_saved(new, "new"), _saved(old, "old"), _keys(SERVER), log.consistency(13, 30), None)
    assert not swapped[-1].ok and "older checkpoint first" in swapped[-1].detail
    elsewhere = Log(log.leaves, origin="other.example.org/log").checkpoint(30)
    other = consistency_checks(_saved(old, "old"), _saved(elsewhere, "new"), None, log.consistency(13, 30), None)
    assert other[-1].name == "origin" and not other[-1].ok
    wrong = consistency_checks(_saved(old, "old"), _saved(new, "new"), _keys(SERVER), log.consistency(12, 30), None)
    assert not wrong[-1].ok and "not 13 to 30" in wrong[-1].detail


def test_log_verify_consistency_on_the_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    log = Log(_random_leaves(30))
    files = {"old.json": log.checkpoint(13), "new.json": log.checkpoint(30), "p.json": log.consistency(13, 30),
             "keys.json": {"keys": [SERVER.public.to_json()]}, "bad.json": log.consistency(14, 30)}
    for name, doc in files.items():
        (tmp_path / name).write_text(json.dumps(doc))
    d = str(tmp_path)
    assert cli.main(["log", "verify-consistency", f"{d}/old.json", f"{d}/new.json", "--keys", f"{d}/keys.json",
                     "--proof", f"{d}/p.json"]) == 0
    out = capsys.readouterr().out
    assert "ok   consistency" in out and "is CONSISTENT with" in out
    assert cli.main(["log", "verify-consistency", f"{d}/old.json", f"{d}/new.json", "--proof", f"{d}/p.json"]) == 0
    assert "--   checkpoints" in capsys.readouterr().out
    assert cli.main(["log", "verify-consistency", f"{d}/old.json", f"{d}/new.json", "--keys", f"{d}/keys.json",
                     "--proof", f"{d}/bad.json"]) == 1
    assert "FAIL consistency" in capsys.readouterr().out
    # bad input: one line, exit 2
    assert cli.main(["log", "verify-consistency", f"{d}/old.json", f"{d}/new.json"]) == 2
    assert "--proof P.json" in capsys.readouterr().err
    assert cli.main(["log", "verify-consistency", f"{d}/p.json", f"{d}/new.json", "--proof", f"{d}/p.json"]) == 2
    assert "not a saved GET /v1/log/checkpoint answer" in capsys.readouterr().err


def test_verify_options_that_do_not_go_together_are_refused(logged: tuple[dict[str, Any], Log],
                                                            tmp_path: Path) -> None:
    record, log = logged
    (tmp_path / "cp.json").write_text(json.dumps(log.checkpoint()))
    (tmp_path / "p.json").write_text(json.dumps(log.inclusion(11, 3)))
    cp, p, keys = str(tmp_path / "cp.json"), str(tmp_path / "p.json"), _keys(SERVER)
    assert prepare(keys, None, None, None) is None
    for args, says in (((None, cp, p, None), "needs --keys"), ((keys, cp, None, None), "--proof PROOF.json"),
                       ((keys, cp, p, "http://127.0.0.1:1"), "not both"), ((keys, None, p, None), "for --checkpoint"),
                       ((keys, p, p, None), "not a saved GET /v1/log/checkpoint"),
                       ((keys, cp, cp, None), "not a GET /v1/games/{id}/inclusion answer"),
                       ((keys, cp, None, "ftp://example.org"), "base URL"),
                       ((keys, str(tmp_path / "missing.json"), p, None), "No such file")):
        with pytest.raises(WitnessError, match=says.replace("{", r"\{").replace("}", r"\}")):
            prepare(*args)  # type: ignore[arg-type]


def _answer(body: bytes, status: str = "200 OK") -> Callable[[socket.socket, threading.Event], None]:
    def handle(conn: socket.socket, stop: threading.Event) -> None:
        conn.recv(65536)
        conn.sendall(f"HTTP/1.1 {status}\r\nContent-Type: application/json\r\nContent-Length: {len(body)}\r\n"
                     f"Connection: close\r\n\r\n".encode() + body)
        conn.close()
    return handle


def test_fetching_is_bounded_and_its_failures_are_clear(monkeypatch: pytest.MonkeyPatch) -> None:
    huge = _answer(b"{" + b" " * FETCH_BYTES + b"}")
    with raw_server(huge) as url, pytest.raises(WitnessError, match="more than"):
        fetch_json(url + "/v1/log/checkpoint")
    with raw_server(_answer(b"<html>")) as url, pytest.raises(WitnessError, match="did not answer JSON"):
        fetch_json(url + "/x")
    refused = _answer(b'{"code": "not_found", "detail": "no such tree"}', "404 Not Found")
    with raw_server(refused) as url, pytest.raises(WitnessError, match="404 not_found no such tree"):
        fetch_json(url + "/x")

    def silent(conn: socket.socket, stop: threading.Event) -> None:
        stop.wait(5)
        conn.close()

    monkeypatch.setattr("cablecar.witness.FETCH_SECONDS", 0.3)
    with raw_server(silent) as url, pytest.raises(WitnessError, match="cannot"):
        fetch_json(url + "/x")
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    listener.close()  # nothing listens there
    with pytest.raises(WitnessError, match="cannot reach"):
        fetch_json(f"http://127.0.0.1:{port}/x")
