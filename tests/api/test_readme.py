"""The README's curl walk-through works as written: its shell blocks, pasted in
order into one shell, run against a live ``cablecar serve`` in a fresh machine's
environment (``env -i``: no locale, no virtualenv; only the base URL is changed,
to this test's port). docs/bots.md's block, which sets the same ``$API`` (its page runs alone too:
tests/api/test_docs_pages.py), runs after them."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from tests.readme_blocks import DOCUMENTED_URL, ROOT, fresh_env, serve, shell_blocks, walk_through_script


def test_the_walk_through_runs_as_written(tmp_path: Path) -> None:
    # The stream of step 7 ends by itself after 2 s here, where a reader presses Ctrl-C.
    with serve(tmp_path, CABLECAR_SSE_MAX_SECONDS="2", CABLECAR_SSE_HEARTBEAT_SECONDS="1") as url:
        bots = shell_blocks((ROOT / "docs" / "bots.md").read_text(encoding="utf-8"), "## Time controls, resigning, cancelling")
        script = walk_through_script(url) + "\n" + "\n".join(bots).replace(DOCUMENTED_URL, url)
        # errexit and pipefail: any step that fails (curl -f on an error answer) fails the test
        env = fresh_env(tmp_path, TMPDIR=str(tmp_path))
        run = subprocess.run(["env", "-i", *(f"{k}={v}" for k, v in env.items()),
                              "bash", "-e", "-o", "pipefail", "-c", script],
                             cwd=tmp_path, capture_output=True, text=True, timeout=120)
    said = run.stdout + run.stderr
    assert run.returncode == 0, said
    assert "ttr-sf 2 to " in run.stdout  # step 0 lists the game types
    assert run.stdout.count('"replayed":true') == 1  # step 5's retry got the first answer again
    assert '"code":"illegal_action"' in run.stdout and '"reason":' in run.stdout  # step 6
    assert re.search(r"^id: \d+\ndata: \{", run.stdout, flags=re.M)  # step 7 streamed the events
    assert "1 Robo planner no token" in run.stdout and "the bots have chosen" in run.stdout  # step 8
    assert run.stdout.rstrip().endswith('"time_control":{"kind":"per_turn","seconds":60}}')  # docs/bots.md
