"""docs/tournaments.md's two-round event runs as written: its shell blocks,
pasted in order into one shell, against a live ``cablecar serve`` (only the
base URL is changed, to this test's port)."""

from __future__ import annotations

import csv
import io
import json
import os
import subprocess
import sys
from pathlib import Path

from service.config import SETTINGS
from tests.api.test_readme import _free_port, _wait_healthy
from tests.readme_blocks import DOCUMENTED_URL, ROOT, shell_blocks

DOC = ROOT / "docs" / "tournaments.md"
SECTION = "## A two-round event, start to finish"


def test_the_two_round_event_runs_as_written(tmp_path: Path) -> None:
    port = _free_port()
    url = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k not in {s.env for s in SETTINGS}}
    env.update(PYTHONPATH=str(ROOT))
    blocks = shell_blocks(DOC.read_text(encoding="utf-8"), SECTION)
    assert len(blocks) == 5 and DOCUMENTED_URL in blocks[0]
    log = tmp_path / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "cablecar.cli", "serve", "--port", str(port), "--workers", "1",
             "--data-dir", str(tmp_path / "data")],
            cwd=tmp_path, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    try:
        _wait_healthy(url, server, log)
        script = "\n".join(blocks).replace(DOCUMENTED_URL, url)
        run = subprocess.run(["bash", "-e", "-o", "pipefail", "-c", script], cwd=tmp_path,
                             capture_output=True, text=True, timeout=120, env={**env, "TMPDIR": str(tmp_path)})
    finally:
        server.terminate()
        server.wait(timeout=30)
    out = run.stdout
    assert run.returncode == 0, out + run.stderr
    lines = [line for line in out.splitlines() if line.strip()]
    listed = json.loads(lines[0])["games"][0]  # the game of match r1-m1, before its start
    assert (listed["status"], listed["ref"], listed["batch_ref"]) == ("scheduled", "r1-m1", "event-77/round-1")
    assert [p["ref"] for p in listed["players"]] == ["fide-1001", "fide-1002"] and listed["starts_at"]
    refused = json.loads(lines[1])
    assert refused["code"] == "not_started" and refused["starts_at"] == listed["starts_at"]
    assert lines[2] in ("['setup', 'setup']", "['playing', 'playing']")
    results = list(csv.DictReader(io.StringIO("\n".join(lines[3:8]))))
    assert [(r["table_ref"], r["player_ref"], r["winner"]) for r in results] == [
        ("r1-m1", "fide-1001", "true"), ("r1-m1", "fide-1002", "false"),
        ("r1-m2", "fide-1003", "true"), ("r1-m2", "fide-1004", "false")]
    assert lines[8] == "['event-77/round-1', 'event-77/round-2']"
    standings = json.loads(lines[9])["standings"]
    # Cy won both; Ada and Bo one each, ordered by points (a seat that resigned counts the tickets it was
    # dealt against it: the deal is random, so which of them is ahead is too); Di none
    assert [(p["player_ref"], p["wins"]) for p in standings][::3] == [("fide-1003", 2), ("fide-1004", 0)]
    middle = standings[1:3]
    assert {p["player_ref"] for p in middle} == {"fide-1001", "fide-1002"} and {p["wins"] for p in middle} == {1}
    assert middle[0]["points"] >= middle[1]["points"]
    assert [p["rank"] for p in standings] == [1, 2, 2 if middle[0]["points"] == middle[1]["points"] else 3, 4]
    rows = list(csv.DictReader(io.StringIO("\n".join(lines[10:]))))
    assert [(int(r["rank"]), r["player_ref"], r["name"], int(r["wins"]), int(r["points"])) for r in rows] == [
        (p["rank"], p["player_ref"], p["name"], p["wins"], p["points"]) for p in standings]
    assert "Traceback" not in log.read_text()
