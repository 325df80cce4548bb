"""The README's and docs/'s code blocks, as the tests and scripts/check-prism.sh run them.

One reading of the documents for everything that runs their blocks: ``tests/api/test_readme.py`` (the
curl walk-through against a live server), ``tests/api/test_readme_production.py`` (the Production
section), ``tests/api/test_readme_clients.py`` (docs/clients.md's minimal bots),
``scripts/check-prism.sh`` (the walk-through again, through Prism's validating proxy), and the whole pages of
docs/ that ``tests/api/test_docs_pages.py`` and ``tests/api/test_readme_tournaments.py`` run. :func:`serve`
starts the live server they run against and :func:`fresh_env` is the environment of a fresh machine's
shell they run in (``env -i``: no locale, no activated virtualenv).

    python -m tests.readme_blocks walk-through URL   # prints the walk-through as one script, aimed at URL
"""

from __future__ import annotations

import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
WALK_THROUGH = "## A five-minute walk-through with curl"
# The base URL the walk-through is written for; a runner replaces it with its own server's.
DOCUMENTED_URL = "http://127.0.0.1:8000"


def shell_blocks(markdown: str, heading: str, language: str = "sh") -> list[str]:
    """The ```sh blocks (or ``language``'s) of the section under ``heading``, list-item indentation removed."""
    section = markdown.split(f"\n{heading}\n", 1)[1].split("\n## ", 1)[0]
    blocks = []
    for indent, body in re.findall(rf"^( *)```{re.escape(language)}\n(.*?)^\1```$", section, flags=re.M | re.S):
        blocks.append("".join(line[len(indent):] for line in body.splitlines(keepends=True)))
    return blocks


def document_blocks(markdown: str, language: str = "sh") -> list[str]:
    """Every ```sh block (or ``language``'s) of a whole document, in the order printed."""
    return shell_blocks("\n## all\n" + markdown.split("\n", 1)[1].replace("\n## ", "\n### "), "## all", language)


#: the PATH of a fresh Debian shell (root's or a user's): the system's commands, no virtualenv
FRESH_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def fresh_env(home: Path, **extra: str) -> dict[str, str]:
    """What ``env -i HOME=home PATH=…`` leaves a block: no LANG, no VIRTUAL_ENV, no CABLECAR_* setting."""
    return {"HOME": str(home), "PATH": FRESH_PATH, **extra}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextmanager
def serve(folder: Path, **settings: str) -> Iterator[str]:
    """A ``cablecar serve`` of its own (embedded store in ``folder``, one worker, ``settings`` as its
    environment on top of this one's, minus every CABLECAR_ setting); yields its base URL."""
    from service.config import SETTINGS

    port = free_port()
    url = f"http://127.0.0.1:{port}"
    env = {k: v for k, v in os.environ.items() if k not in {s.env for s in SETTINGS}}
    env.update(PYTHONPATH=str(ROOT), **settings)
    log = folder / "server.log"
    with log.open("wb") as out:
        server = subprocess.Popen(
            [sys.executable, "-m", "cablecar.cli", "serve", "--port", str(port), "--workers", "1",
             "--data-dir", str(folder / "data")],
            cwd=folder, env=env, stdout=out, stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + 60
        while True:
            assert server.poll() is None, log.read_text()
            try:
                with urllib.request.urlopen(url + "/v1/health", timeout=2) as resp:
                    if resp.status == 200:
                        break
            except OSError:
                assert time.monotonic() < deadline, "the server did not start:\n" + log.read_text()
                time.sleep(0.2)
        yield url
    finally:
        server.terminate()
        server.wait(timeout=30)
    assert "Traceback" not in log.read_text(), log.read_text()[-4000:]


def walk_through_blocks() -> list[str]:
    """The walk-through's blocks as written; only the first may name the base URL (it sets ``API``)."""
    blocks = shell_blocks(README.read_text(encoding="utf-8"), WALK_THROUGH)
    if len(blocks) < 3 or any(DOCUMENTED_URL in b for b in blocks[1:]) or DOCUMENTED_URL not in blocks[0]:
        raise ValueError(f"the README's walk-through no longer sets API={DOCUMENTED_URL} once, in its first block")
    return blocks


def walk_through_script(url: str) -> str:
    """The walk-through's blocks pasted in order into one shell, aimed at ``url`` instead."""
    return "\n".join(walk_through_blocks()).replace(DOCUMENTED_URL, url)


def main(argv: list[str]) -> int:
    if len(argv) != 2 or argv[0] != "walk-through" or not re.fullmatch(r"https?://[\w.:\[\]-]+", argv[1]):
        print("usage: python -m tests.readme_blocks walk-through http://HOST:PORT", file=sys.stderr)
        return 2
    sys.stdout.write(walk_through_script(argv[1]) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
