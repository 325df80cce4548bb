"""The ``cablecar`` command speaks to people: help and defaults for every
option, choices, ``--version``, one-line errors (tracebacks only with
``--debug``), a taken port refused at once, the data folder said first."""

from __future__ import annotations

import argparse
import json
import socket
import threading
import urllib.error
from pathlib import Path

import pytest

from bots.client import STRATEGIES
from cablecar import cli
from events import DEFAULT_SQLITE_NAME
from service.config import SETTINGS
from service.usecases.exportfile import NotAnExport, read_export
from tests.raw_server import raw_server


def _parsers(parser: argparse.ArgumentParser, path: str = "cablecar") -> list[tuple[str, argparse.ArgumentParser]]:
    found = [(path, parser)]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                found += _parsers(sub, f"{path} {name}")
    return found


@pytest.fixture(autouse=True)
def _no_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for setting in SETTINGS:
        monkeypatch.delenv(setting.env, raising=False)
    monkeypatch.setenv("COLUMNS", "200")  # help text on one line per option


def test_every_option_of_every_command_says_what_it_does() -> None:
    parsers = _parsers(cli.build_parser())
    assert {"cablecar serve", "cablecar bot play", "cablecar organiser create"} <= {p for p, _ in parsers}
    silent = [
        f"{path} {action.option_strings or action.dest}"
        for path, parser in parsers
        for action in parser._actions
        if not (action.help or "").strip() and not isinstance(action, argparse._SubParsersAction)
    ]
    assert silent == []


def test_enumerations_are_choices_and_help_shows_defaults(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["bot", "play", "--type", "chess"])
    err = capsys.readouterr().err
    assert exit_.value.code == 2 and "invalid choice: 'chess'" in err and "ttr-sf" in err and "Traceback" not in err
    with pytest.raises(SystemExit):
        cli.main(["bot", "play", "--help"])
    out = capsys.readouterr().out
    # the strategies are one per seat (a comma-separated list), so the help names them in words
    assert "(default: http://127.0.0.1:8000)" in out and "(default: planner)" in out
    assert all(name in out for name in [*STRATEGIES, "planner", "mcts"])
    with pytest.raises(SystemExit):
        cli.main(["serve", "--help"])
    assert "(default: 8000)" in capsys.readouterr().out


def test_version(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli.main(["--version"])
    assert exit_.value.code == 0 and capsys.readouterr().out.strip() == f"cablecar {cli.version()}"


def _refuse_everything(conn: socket.socket, stop: threading.Event) -> None:
    with conn:
        conn.recv(65536)
        body = json.dumps({"type": "x", "title": "Bad Request", "status": 400, "code": "invalid_request",
                           "detail": "unknown game type 'chess'"}).encode()
        conn.sendall(b"HTTP/1.1 400 Bad Request\r\nContent-Type: application/problem+json\r\n"
                     b"Content-Length: %d\r\nConnection: close\r\n\r\n%s" % (len(body), body))


def test_a_refusal_of_the_server_is_one_line_and_debug_shows_the_traceback(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with raw_server(_refuse_everything) as url:
        assert cli.main(["bot", "play", "--url", url]) == cli.FAILED
        err = capsys.readouterr().err
        assert err == "cablecar bot play: error: the server refused: 400 invalid_request: unknown game type 'chess'\n"
        with pytest.raises(cli.ApiProblem):
            cli.main(["bot", "play", "--url", url, "--debug"])


def test_an_unreachable_server_is_explained() -> None:
    refused = urllib.error.URLError(ConnectionRefusedError(111, "Connection refused"))
    said = cli.explain(refused, argparse.Namespace(url="http://127.0.0.1:9"))
    assert said.startswith("cannot reach the server at http://127.0.0.1:9: Connection refused")


def test_an_unreachable_database_is_one_line_without_its_password(capsys: pytest.CaptureFixture[str]) -> None:
    url = "postgresql://cc:hunter2@127.0.0.1:9/cablecar"
    assert cli.main(["migrate", "--database-url", url]) == cli.FAILED
    out, err = capsys.readouterr()
    assert "hunter2" not in out + err and "postgresql://127.0.0.1:9/cablecar" in out
    assert err.startswith("cablecar migrate: error: the event store cannot be reached") and err.count("\n") == 1
    with pytest.raises(Exception, match="PostgreSQL"):
        cli.main(["--debug", "migrate", "--database-url", url])


def test_serve_refuses_a_taken_port_before_saying_it_serves(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        assert cli.main(["serve", "--port", str(port), "--data-dir", str(tmp_path)]) == cli.FAILED
    out, err = capsys.readouterr()
    assert "serving" not in out
    assert err == (f"cablecar serve: error: port {port} on 127.0.0.1 is already in use (another cablecar serve?): "
                   "stop that server, or choose another port with --port\n")


def test_store_commands_say_where_the_data_is_and_when_it_is_new(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    (tmp_path / "data").mkdir()
    (tmp_path / "data" / DEFAULT_SQLITE_NAME).touch()  # where older versions kept it
    assert cli.main(["organiser", "create", "First"]) == 0
    err = capsys.readouterr().err
    home = tmp_path / "xdg" / "cablecar"
    assert f"no store in {home} yet: a new, empty one is created there" in err
    assert f"use it with --data-dir {tmp_path / 'data'}" in err
    assert f"data: SQLite {home / DEFAULT_SQLITE_NAME}; in-process cache" in err
    assert cli.main(["organiser", "create", "Second"]) == 0  # the same store, found again: no warning
    err = capsys.readouterr().err
    assert "no store" not in err and f"data: SQLite {home / DEFAULT_SQLITE_NAME}" in err
    assert cli.main(["organiser", "create", "Third", "--data-dir", str(tmp_path / "elsewhere")]) == 0
    assert f"data: SQLite {tmp_path / 'elsewhere' / DEFAULT_SQLITE_NAME}" in capsys.readouterr().err


def test_verify_names_what_is_not_an_export(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    problem = {"type": "https://cablecar.dev/errors/game_not_finished", "title": "Conflict", "status": 409,
               "code": "game_not_finished", "detail": "the game is not finished"}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(problem))
    assert cli.main(["verify", str(path)]) == cli.USAGE
    assert capsys.readouterr().err == (
        f"cablecar verify: {path}: this is an error answer of the server (409 game_not_finished: the game is "
        "not finished), not an export: a game can be exported once it is finished\n"
    )
    assert cli.main(["verify", str(tmp_path / "missing.json")]) == cli.USAGE
    assert "No such file or directory" in capsys.readouterr().err


@pytest.mark.parametrize(("text", "says"), [
    ("", "the file is empty"),
    ("<!doctype html><title>x</title>", "web page"),
    ("[1, 2]", "JSON list"),
    ('{"game": {"id": "g"}}', "no list of events"),
    ('{"kind": "event"}\n', "a header line, then event lines"),
    ("not json at all", "the first line is not JSON"),
])
def test_what_a_file_is_instead_of_an_export(text: str, says: str) -> None:
    with pytest.raises(NotAnExport, match=says):
        read_export(text)


def test_json_and_ndjson_exports_read_alike() -> None:
    header = {"game": {"id": "g1"}, "seed": "s"}
    events = [{"seq": 1, "type": "a"}, {"seq": 2, "type": "b"}]
    as_json = read_export(json.dumps({**header, "events": events}, indent=2))
    lines = [json.dumps({"kind": "header", **header})] + [json.dumps({"kind": "event", **e}) for e in events]
    as_ndjson = read_export("\n".join(lines) + "\n")
    assert as_json.export == as_ndjson.export == {**header, "events": events}
    assert (as_json.summary, as_ndjson.summary) == ("a JSON export of 2 events", "an NDJSON export of 2 events")
