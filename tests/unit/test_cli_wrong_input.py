"""Every wrong URL, file or option answers at once (well within 2 s) with one
line on standard error naming the problem, and the usage exit code (issue 37)."""

from __future__ import annotations

import threading
import time
from pathlib import Path

import pytest

from cablecar import cli
from cablecar.options import FAILED, USAGE

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
