"""docs/tournaments.md works as written (issue 37): its shell blocks, pasted in the documented order into
one shell started at the root of the clone, run against a live ``cablecar serve`` in a fresh machine's
environment (``env -i``: no locale, no activated virtualenv; the first block activates the clone's).

Only the base URL changes, to this test's server. Between step 4 and step 5 the round's players play
their games to the end (step 5 says "once a game is finished"), with the tokens the document left them:
``round1.json``'s, and for the seat whose token step 3 rotated, the one ``seat1.json`` saved; then, as
step 6 says, the test waits for the checkpoint that covers them."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

from tests.readme_blocks import DOCUMENTED_URL, ROOT, fresh_env, serve, shell_blocks

TOURNAMENTS = ROOT / "docs" / "tournaments.md"

# The players of the round (not part of the document): standard library only, run by the document's shell.
PLAYERS = r'''
import json, sys, time, urllib.request

API = sys.argv[1]


def call(path, token=None, body=None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    data = None if body is None else json.dumps(body).encode()
    with urllib.request.urlopen(urllib.request.Request(API + path, data, headers), timeout=30) as answer:
        return json.load(answer)


events = 0
for table, game in enumerate(json.load(open("round1.json"))["games"]):
    tokens = {seat["seat"]: seat["token"] for seat in game["seats"]}
    if table == 0:  # the seat whose token step 3 rotated
        tokens[1] = json.load(open("seat1.json"))["token"]
    for _ in range(3000):
        view = call(f"/v1/games/{game['id']}")
        if view["status"] == "finished":
            break
        seat = view["active_seats"][0]
        action = call(f"/v1/games/{game['id']}/legal-actions?limit=1", tokens[seat])["actions"][0]
        call(f"/v1/games/{game['id']}/actions", tokens[seat], action)
    assert view["status"] == "finished", view["status"]
    events += view["version"]
deadline = time.monotonic() + 60
while call("/v1/log/checkpoint")["tree_size"] < events:
    assert time.monotonic() < deadline, "no checkpoint covers the round"
    time.sleep(0.2)
print(f"the round's {table + 1} games are over, and a checkpoint covers them")
'''


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
    text = TOURNAMENTS.read_text(encoding="utf-8")
    blocks = shell_blocks("\n## all\n" + text.split("\n", 1)[1].replace("\n## ", "\n### "), "## all")
    assert blocks[0].startswith(". .venv/bin/activate") and DOCUMENTED_URL in blocks[0]
    step5 = next(i for i, b in enumerate(blocks) if "cablecar verify --keys keys.json export.json" in b)
    (tmp_path / "players.py").write_text(PLAYERS, encoding="utf-8")
    (tmp_path / "heard.py").write_text(HEARD, encoding="utf-8")
    with serve(tmp_path, CABLECAR_LOG_INTERVAL="0.5") as url:
        script = "\n".join([*blocks[:step5], f'cp organiser.json {tmp_path / "org1.json"}',
                            f'python3 {tmp_path / "players.py"} "$API"', *blocks[step5:],
                            f'python3 {tmp_path / "heard.py"} "$API" {tmp_path / "org1.json"}'])
        env = fresh_env(tmp_path, TMPDIR=str(tmp_path), PYTHONPATH=str(ROOT))  # PYTHONPATH: this checkout's code
        run = subprocess.run(["env", "-i", *(f"{k}={v}" for k, v in env.items()),
                              "bash", "-e", "-o", "pipefail", "-c", script.replace(DOCUMENTED_URL, url)],
                             cwd=ROOT, capture_output=True, text=True, timeout=600)
    said = run.stdout + run.stderr
    assert run.returncode == 0, said
    assert "a checkpoint covers them" in run.stdout
    # step 5 (verify) and step 6 (verify with the checkpoint, and the consistency of two checkpoints)
    assert run.stdout.count("is VALID") == 2 and "NOT VERIFIED" not in run.stdout and "ok   inclusion" in run.stdout, said
    assert "consistent" in run.stdout.lower(), said
    # the webhook of step 2, registered before the round, heard every game of it start and finish
    heard = json.loads(run.stdout.strip().splitlines()[-1])
    assert heard["game.started"] == heard["game.finished"] == 2 and len(heard["games"]) == 2, heard
