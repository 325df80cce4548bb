"""Every wrong URL, file or option answers at once (well within 2 s) with one
line on standard error naming the problem, and the usage exit code (issue 37)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from cablecar import cli
from cablecar.options import FAILED, USAGE

ROOT = Path(__file__).resolve().parents[2]
FAST = 2.0


def _run(argv: list[str], capsys: pytest.CaptureFixture[str], stream: str = "err") -> tuple[int, str, float]:
    """Run the command in a thread given FAST seconds (one still waiting after them fails the test)."""
    codes: list[int] = []
    started = time.monotonic()
    worker = threading.Thread(target=lambda: codes.append(cli.main(argv)), daemon=True)
    worker.start()
    worker.join(FAST)
    elapsed = time.monotonic() - started
    assert codes, f"cablecar {' '.join(argv)} still running after {FAST} s"
    captured = capsys.readouterr()
    return codes[0], captured.err if stream == "err" else captured.out, elapsed


@pytest.mark.parametrize("command", ["play", "seat"])
@pytest.mark.parametrize(("url", "says"), [
    ("http://", "names no host"),
    ("https:///v1", "names no host"),
    ("ftp://example.org/x", "the scheme ftp://"),
    ("localhost:8000", "the scheme localhost://"),
    ("127.0.0.1:8000", "no scheme"),
    ("http://127.0.0.1:99999", "not a URL"),
    ("http://127.0.0.1:0", "port 0"),
    ("http://127.0.0.1:port", "not a URL"),
])
def test_a_wrong_url_is_one_line_at_once(
    command: str, url: str, says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    seat = ["--game", "g1", "--token", "st_x"] if command == "seat" else []
    code, err, elapsed = _run(["bot", command, "--url", url, *seat], capsys)
    assert code == USAGE
    assert elapsed < FAST
    assert err.count("\n") == 1 and err.startswith(f"cablecar bot {command}: --url ")
    assert says in err and repr(url) in err


@pytest.mark.parametrize("content", [
    bytes(range(256)),                       # not UTF-8
    b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",  # an image
    b'{"game": {}}\x00\x00',                 # valid UTF-8, but a NUL: binary
    "{}".encode("utf-16"),                   # text, not UTF-8
])
def test_a_binary_file_to_verify_is_not_a_game_record(
    content: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "record.json"
    path.write_bytes(content)
    code, err, elapsed = _run(["verify", str(path)], capsys)
    assert code == USAGE
    assert elapsed < FAST
    assert err == (f"cablecar verify: not a game record: {path} is binary / not UTF-8 text "
                   "(an export is JSON or NDJSON)\n")


def test_think_ms_says_its_default_once(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        cli.main(["bot", "play", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    think = text[text.index("--think-ms THINK_MS "):text.index("--local ")]
    assert think.count("default") == 1, think
    assert "(default: 0)" in think and "50 ms when it is 0" in think


def test_migrate_names_the_sqlite_file_it_opens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # sqlite:///rel/path is relative to the current folder (as in SQLAlchemy and open_store)
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    (tmp_path / "data").mkdir()
    code, out, elapsed = _run(["migrate", "--database-url", "sqlite:///data/x.db"], capsys, "out")
    assert code == 0 and elapsed < FAST
    assert f"(the SQLite file {tmp_path / 'data' / 'x.db'})" in out
    assert (tmp_path / "data" / "x.db").exists()


def test_migrate_names_the_absolute_file_it_cannot_open(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("DATABASE_URL", raising=False)
    code, err, elapsed = _run(["migrate", "--database-url", "sqlite:///missing/x.db"], capsys)
    assert code == FAILED and elapsed < FAST
    assert err.count("\n") == 1
    assert repr(str(tmp_path / "missing" / "x.db")) in err


# ------------------------------------------------ as a user runs it (issue 55)
#: a user's wait for a command that cannot work: it says so on one line and exits within this many seconds
PROMPT = 5.0


def _as_user(argv: list[str], home: Path, **env: str) -> tuple[int, str, float]:
    """``cablecar ARGV`` in a process of its own, as a user types it (no CABLECAR_ setting, no
    DATABASE_URL, HOME a folder of the test's): (exit code, standard error, seconds taken)."""
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith("CABLECAR_") and k not in ("DATABASE_URL", "REDIS_URL", "XDG_RUNTIME_DIR")}
    clean.update(HOME=str(home), PYTHONPATH=str(ROOT), **env)
    started = time.monotonic()
    try:
        run = subprocess.run([sys.executable, "-m", "cablecar.cli", *argv], env=clean, cwd=home,
                             capture_output=True, text=True, timeout=60)
    except subprocess.TimeoutExpired as e:
        raise AssertionError(f"cablecar {' '.join(argv)} still running after 60 s: {e.stderr!r}") from e
    return run.returncode, run.stderr, time.monotonic() - started


def _one_line(err: str) -> str:
    assert err.count("\n") == 1 and err.endswith("\n"), f"not one line:\n{err}"
    assert "Traceback" not in err
    return err


def test_serve_with_a_file_for_its_data_folder_says_so_and_writes_nothing(tmp_path: Path) -> None:
    data = tmp_path / "notes.txt"
    data.write_text("my notes\n")
    before = sorted(p.name for p in tmp_path.iterdir())
    code, err, elapsed = _as_user(["serve", "--port", str(_free_port()), "--data-dir", str(data)], tmp_path)
    assert code != 0 and elapsed < PROMPT
    line = _one_line(err)
    assert line.startswith("cablecar serve: ") and str(data) in line and "not a folder" in line, line
    assert data.read_text() == "my notes\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == before  # no keys folder beside it, nothing else


def test_serve_with_an_unreachable_database_says_so_at_once(tmp_path: Path) -> None:
    key = tmp_path / "signing-key.json"
    assert cli.main(["keys", "generate", "--key-file", str(key)]) == 0
    url = f"postgresql://cablecar_app:s3cret-pw@127.0.0.1:{_free_port()}/cablecar"
    code, err, elapsed = _as_user(["serve", "--port", str(_free_port())], tmp_path, DATABASE_URL=url,
                                  CABLECAR_SECRET_KEY="k" * 64, CABLECAR_SIGNING_KEY_FILE=str(key))
    assert code != 0 and elapsed < PROMPT
    line = _one_line(err)
    assert line.startswith("cablecar serve: ") and "serving on" not in line
    host = url.split("@", 1)[1].rsplit("/", 1)[0]
    assert f"postgresql://{host}/cablecar" in line and "s3cret-pw" not in line, line


def test_a_bot_told_of_a_dead_server_says_it_cannot_reach_it_at_once(tmp_path: Path) -> None:
    url = f"http://127.0.0.1:{_free_port()}"
    code, err, elapsed = _as_user(["bot", "play", "--url", url], tmp_path)
    assert code != 0 and elapsed < PROMPT
    line = _one_line(err)
    assert line.startswith("cablecar bot play: ") and f"cannot reach the server at {url}" in line, line


@pytest.mark.parametrize("argv", [["--frobnicate"], ["--frobnicate=1"], ["keys", "--frobnicate"]])
def test_an_unknown_option_is_named(argv: list[str], tmp_path: Path) -> None:
    code, err, elapsed = _as_user(argv, tmp_path)
    assert code == USAGE and elapsed < PROMPT
    line = _one_line(err)
    assert "--frobnicate" in line and "required" not in line, line


def test_keys_generate_refuses_a_folder_that_does_not_exist(tmp_path: Path) -> None:
    folder = tmp_path / "nonexistent-dir"
    code, err, elapsed = _as_user(["keys", "generate", "--key-file", str(folder / "k.json")], tmp_path)
    assert code == USAGE and elapsed < PROMPT
    line = _one_line(err)
    assert line.startswith("cablecar keys generate: ") and str(folder) in line and "does not exist" in line, line
    assert not folder.exists()


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
