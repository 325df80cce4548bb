"""The registry is complete the moment a worker can serve: many threads,
right after a fresh interpreter imports the app, see every game type and can
create games of each (issue 13: cable-car games answered 404 for about 100 ms
after start-up while the types were loaded lazily)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

#: runs in a fresh interpreter: nothing of the app is imported before it starts
FRESH_START = r"""
import json, sys, tempfile, threading

from service.api.app import create_app
from service.config import Settings

app = create_app(Settings(data_dir=tempfile.mkdtemp(), webhooks=False, create_rate_limit="off"))
start = threading.Barrier(32)
seen, created, failures = [], [], []

def worker(n):
    import domain.registry as registry
    start.wait()
    try:
        seen.append(sorted(registry.game_definition(t).type_id for t in ("cable-car", "ttr-sf")))
        game_type = ("cable-car", "ttr-sf")[n % 2]
        resp = app.test_client().post(
            "/v1/games", json={"type": game_type, "players": [{"name": "Ada"}, {"name": "Bo"}]})
        created.append((game_type, resp.status_code))
    except Exception as e:
        failures.append(repr(e))

threads = [threading.Thread(target=worker, args=(n,)) for n in range(32)]
for t in threads:
    t.start()
for t in threads:
    t.join()
app.extensions["cablecar"].stores.close()
print(json.dumps({"seen": seen, "created": created, "failures": failures}))
"""


@pytest.mark.parametrize("run", range(5))
def test_every_type_is_served_by_many_threads_right_after_start(run: int) -> None:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", FRESH_START], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    outcome = json.loads(done.stdout.strip().splitlines()[-1])
    assert outcome["failures"] == []
    assert outcome["seen"] == [["cable-car", "ttr-sf"]] * 32
    assert sorted(outcome["created"]) == sorted([["cable-car", 201], ["ttr-sf", 201]] * 16)

