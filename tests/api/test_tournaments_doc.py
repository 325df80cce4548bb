"""docs/tournaments.md's two-round event runs as written: its shell blocks,
pasted in order into one shell under ``env -i`` (a fresh machine's environment), against a live
``cablecar serve`` (only the base URL is changed, to this test's port)."""

from __future__ import annotations

import csv
import io
import json
import subprocess
from pathlib import Path

from tests.readme_blocks import DOCUMENTED_URL, ROOT, fresh_env, serve, shell_blocks

DOC = ROOT / "docs" / "tournaments.md"
SECTION = "## A two-round event, start to finish"


def test_the_two_round_event_runs_as_written(tmp_path: Path) -> None:
    blocks = shell_blocks(DOC.read_text(encoding="utf-8"), SECTION)
    assert len(blocks) == 5 and DOCUMENTED_URL in blocks[0]
    with serve(tmp_path) as url:
        script = "\n".join(blocks).replace(DOCUMENTED_URL, url)
        env = fresh_env(tmp_path, TMPDIR=str(tmp_path), PYTHONPATH=str(ROOT))  # PYTHONPATH: this checkout's code
        run = subprocess.run(["env", "-i", *(f"{k}={v}" for k, v in env.items()),
                              "bash", "-e", "-o", "pipefail", "-c", script], cwd=tmp_path, capture_output=True, text=True, timeout=120)
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
