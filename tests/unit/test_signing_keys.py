"""The server's signing keys: made once (mode 0600) by the embedded default,
required on PostgreSQL, generated, shown and rotated by ``cablecar keys``."""

from __future__ import annotations

import json
import logging
import stat
from pathlib import Path

import pytest

from cablecar.cli import main
from events.encoding.timestamps import epoch_seconds
from events.integrity.signing import PublicKey, Signer, key_id_of, unb64url
from events.records import StoredEvent
from service.adapters.signing_keys import (
    SigningKeyError,
    key_path,
    load_server_keys,
    read_key_file,
    write_key_file,
)
from service.config import Settings


def test_the_embedded_default_makes_its_key_once_readable_by_its_owner_only(tmp_path: Path) -> None:
    data = tmp_path / "data"
    settings = Settings(data_dir=str(data))
    first = load_server_keys(settings)
    path = tmp_path / "data-keys" / "signing-key.json"  # beside the data folder, never in it
    assert key_path(settings) == path and not (data / "signing-key.json").exists()
    assert stat.S_IMODE(path.stat().st_mode) == 0o600 and stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    assert [p.name for p in path.parent.iterdir()] == ["signing-key.json"]  # written whole: no draft left
    assert load_server_keys(settings).signer.key_id == first.signer.key_id  # read back, not made again
    assert first.public_keys() == [first.signer.public] and first.signer.public.retired_at is None
    assert "private" not in repr(first.signer) and json.loads(path.read_text())["key_id"] == first.signer.key_id


def test_an_older_install_keeps_its_key_in_the_data_folder_and_is_told_once(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    data = tmp_path / "data"
    old = data / "signing-key.json"
    data.mkdir()
    write_key_file(old, Signer.generate("2024-01-01T00:00:00.000000Z"))  # where older versions made it
    signer = read_key_file(old)
    settings = Settings(data_dir=str(data))
    with caplog.at_level(logging.WARNING):
        keys = [load_server_keys(settings) for _ in range(2)]
    assert keys[0].signer.key_id == keys[1].signer.key_id == signer.key_id
    assert not (tmp_path / "data-keys").exists()  # nothing made beside: the old key stays the one
    said = [r.getMessage() for r in caplog.records if "signing key" in r.getMessage()]
    assert len(said) == 1 and str(old) in said[0] and str(tmp_path / "data-keys") in said[0]
    assert keys[0].key_set().problem(_signed_event(signer)) is None  # its records still verify


def _signed_event(signer: Signer) -> StoredEvent:
    digest = "ab" * 32
    return StoredEvent("g", 1, 1, "game_set_up", 1, {}, "2024-01-02T00:00:00.000000Z", None, None, "00" * 32,
                       digest, signer.sign(digest), signer.key_id)


def test_postgres_needs_a_configured_key_file(tmp_path: Path) -> None:
    with pytest.raises(SigningKeyError, match="CABLECAR_SIGNING_KEY_FILE is not set"):
        load_server_keys(Settings(data_dir=str(tmp_path), database_url="postgresql://x@h/db"))
    with pytest.raises(SigningKeyError, match="does not exist"):
        load_server_keys(Settings(data_dir=str(tmp_path), database_url="postgresql://x@h/db",
                                  signing_key_file=str(tmp_path / "missing.json")))
    assert not (tmp_path / "missing.json").exists()  # production never makes a key by itself


def test_keys_generate_show_and_rotate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    key = tmp_path / "etc" / "signing-key.json"
    key.parent.mkdir()  # (a folder that does not exist is refused: tests/unit/test_cli_wrong_input.py)
    assert main(["keys", "generate", "--key-file", str(key)]) == 0
    assert stat.S_IMODE(key.stat().st_mode) == 0o600
    made = json.loads(key.read_text())["key_id"]
    assert main(["keys", "generate", "--key-file", str(key)]) == 0  # kept, never replaced
    assert json.loads(key.read_text())["key_id"] == made
    capsys.readouterr()
    assert main(["keys", "rotate", "--key-file", str(key), "--data-dir", str(tmp_path)]) == 0
    assert main(["keys", "show", "--key-file", str(key), "--data-dir", str(tmp_path)]) == 0
    shown = json.loads(capsys.readouterr().out.split("\n", 1)[1])["keys"]
    assert [k["key_id"] == made for k in shown] == [False, True]
    assert shown[0]["retired_at"] is None and shown[1]["retired_at"] is not None
    retired = json.loads((key.parent / "retired-keys.json").read_text())["keys"]
    assert [k["key_id"] for k in retired] == [made]


def test_a_public_key_names_itself() -> None:
    signer = Signer.generate()
    entry = signer.public.to_json()
    assert PublicKey.from_json(entry) == signer.public
    assert entry["key_id"] == key_id_of(unb64url(str(entry["public_key"])))
    with pytest.raises(ValueError, match="not the id"):
        PublicKey.from_json({**entry, "key_id": "AAAAAAAAAAAAAAAA"})
    with pytest.raises(ValueError, match="algorithm"):
        PublicKey.from_json({**entry, "algorithm": "rsa"})


def test_a_rotation_retires_the_key_after_its_grace_and_refuses_a_bad_one(tmp_path: Path) -> None:
    key = tmp_path / "etc" / "signing-key.json"
    key.parent.mkdir()
    assert main(["keys", "generate", "--key-file", str(key)]) == 0
    before = key.read_bytes()
    assert main(["keys", "rotate", "--key-file", str(key), "--grace", "-1"]) == 1
    assert key.read_bytes() == before and not (key.parent / "retired-keys.json").exists()  # nothing written
    assert main(["keys", "rotate", "--key-file", str(key), "--grace", "120"]) == 0
    [retired] = json.loads((key.parent / "retired-keys.json").read_text())["keys"]
    made = json.loads(key.read_text())["created_at"]
    assert epoch_seconds(retired["retired_at"]) - epoch_seconds(made) == pytest.approx(120, abs=1)
    # by default a rotated key is retired at once (a key that may have leaked stops counting now)
    assert main(["keys", "rotate", "--key-file", str(key)]) == 0
    second = json.loads((key.parent / "retired-keys.json").read_text())["keys"][-1]
    made = json.loads(key.read_text())["created_at"]
    assert epoch_seconds(second["retired_at"]) - epoch_seconds(made) == pytest.approx(0, abs=1)
