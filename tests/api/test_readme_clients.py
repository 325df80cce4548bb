"""docs/clients.md's minimal bots work as written (issue 38): the Python and the JavaScript block are
saved as the document says (``bot.py``, ``bot.mjs``), each under 80 lines, and its shell block runs
against a live ``cablecar serve`` in a fresh machine's environment (``env -i``: the system's ``python3``
and ``node``, no locale, no virtualenv); then each bot plays the other game type too. Only the base URL
changes, to this test's server."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.readme_blocks import DOCUMENTED_URL, ROOT, fresh_env, serve, shell_blocks

CLIENTS = ROOT / "docs" / "clients.md"
SECTION = "## A minimal bot, by hand"
FINISHED = re.compile(r"^game [0-9a-f]+\nfinished after \d+ moves at version \d+; winners: ", re.M)


def _blocks() -> tuple[str, str, str]:
    text = CLIENTS.read_text(encoding="utf-8")
    (python,), (js,), (sh,) = (shell_blocks(text, SECTION, lang) for lang in ("python", "js", "sh"))
    return python, js, sh


def test_each_bot_is_under_80_lines_and_only_uses_what_ships() -> None:
    python, js, _ = _blocks()
    assert len(python.splitlines()) < 80 and len(js.splitlines()) < 80
    imported = set(re.findall(r"^import (\w+)|^from (\w+)", python, flags=re.M))
    assert {name for pair in imported for name in pair if name} <= {"json", "random", "sys", "urllib", "uuid"}
    assert re.findall(r'from "([^"]+)"', js) == ["node:crypto"] and "require(" not in js


@pytest.mark.skipif(shutil.which("node", path="/usr/bin:/bin") is None, reason="needs the system's node")
def test_the_minimal_bots_play_whole_games_as_written(tmp_path: Path) -> None:
    python, js, sh = _blocks()
    (tmp_path / "bot.py").write_text(python, encoding="utf-8")
    (tmp_path / "bot.mjs").write_text(js, encoding="utf-8")
    assert "python3 bot.py " in sh and "node bot.mjs " in sh and DOCUMENTED_URL in sh
    with serve(tmp_path) as url:
        # as written; then the other game type for each
        script = sh.replace(DOCUMENTED_URL, url) + (
            f"\npython3 bot.py {url} cable-car\nnode bot.mjs {url} ttr-sf\n")
        run = subprocess.run(["env", "-i", *(f"{k}={v}" for k, v in fresh_env(tmp_path).items()),
                              "bash", "-e", "-o", "pipefail", "-c", script],
                             cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert len(FINISHED.findall(run.stdout)) == 4, run.stdout
