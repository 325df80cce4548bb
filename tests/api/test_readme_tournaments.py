"""docs/tournaments.md works as written (issue 37): its shell blocks, pasted in the documented order into
one shell started at the root of the clone, run against a live ``cablecar serve`` in a fresh machine's
environment (``env -i``: no locale, no activated virtualenv; the first block activates the clone's).

Only the base URL changes, to this test's server, and nothing runs between the blocks but a copy of step
1's organiser token, kept to read step 2's deliveries at the end (issue 55: the document itself plays the
round, with the token step 3 rotated, before steps 5 and 6 need it finished, and waits for the checkpoint
that covers it)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.readme_blocks import DOCUMENTED_URL, ROOT, document_blocks, fresh_env, serve

TOURNAMENTS = ROOT / "docs" / "tournaments.md"

# What step 2's webhook was given to deliver (read back with the organiser token the document saved).
HEARD = r'''
import collections, json, sys, time, urllib.request

API, token = sys.argv[1], json.load(open(sys.argv[2]))["token"]


def call(path):
    request = urllib.request.Request(API + path, headers={"Authorization": f"Bearer {token}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.load(answer)


hook = next(h for h in call("/v1/webhooks")["webhooks"] if h["url"].endswith("/cablecar"))
deadline = time.monotonic() + 30  # the dispatcher reads the log in the background
while True:
    deliveries = call(f"/v1/webhooks/{hook['id']}/deliveries?limit=100")["deliveries"]
    counts = collections.Counter(d["event"] for d in deliveries)
    if counts["game.finished"] >= 2 or time.monotonic() > deadline:
        break
    time.sleep(0.2)
print(json.dumps({**counts, "games": sorted({d["game_id"] for d in deliveries})}))
'''

def test_the_tournament_steps_run_as_written(tmp_path: Path) -> None:
    blocks = document_blocks(TOURNAMENTS.read_text(encoding="utf-8"))
    assert blocks[0].startswith(". .venv/bin/activate") and DOCUMENTED_URL in blocks[0]
    step5 = next(i for i, b in enumerate(blocks) if "cablecar verify --keys keys.json export.json" in b)
    (tmp_path / "heard.py").write_text(HEARD, encoding="utf-8")
    with serve(tmp_path, CABLECAR_LOG_INTERVAL="0.5") as url:
        # pasted in the order printed, nothing in between; the organiser token of step 1 kept aside at step 5
        # (the section at the end makes an organiser of its own), to read step 2's deliveries at the end
        script = "\n".join([*blocks[:step5], f'cp organiser.json {tmp_path / "org1.json"}', *blocks[step5:],
                            f'python3 {tmp_path / "heard.py"} "$API" {tmp_path / "org1.json"}'])
        env = fresh_env(tmp_path, TMPDIR=str(tmp_path), PYTHONPATH=str(ROOT))  # PYTHONPATH: this checkout's code
        run = subprocess.run(["env", "-i", *(f"{k}={v}" for k, v in env.items()),
                              "bash", "-e", "-o", "pipefail", "-c", script.replace(DOCUMENTED_URL, url)],
                             cwd=ROOT, capture_output=True, text=True, timeout=600)
    said = run.stdout + run.stderr
    assert run.returncode == 0, said
    # the round is played (its seats but one resign) before its results are collected and checked
    assert "['finished', 'finished']" in run.stdout.splitlines(), said
    # step 5 (verify) and step 6 (verify with the checkpoint, and the consistency of two checkpoints)
    assert run.stdout.count("is VALID") == 2 and "NOT VERIFIED" not in run.stdout and "ok   inclusion" in run.stdout, said
    assert "consistent" in run.stdout.lower(), said
    # the webhook of step 2, registered before the round, heard every game of it start and finish
    heard = json.loads(run.stdout.strip().splitlines()[-1])
    assert heard["game.started"] == heard["game.finished"] == 2 and len(heard["games"]) == 2, heard
