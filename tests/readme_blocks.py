"""The README's shell blocks, as the tests and scripts/check-prism.sh run them.

One reading of the README for everything that runs its blocks: ``tests/api/test_readme.py`` (the
curl walk-through against a live server), ``tests/api/test_readme_production.py`` (the Production
section) and ``scripts/check-prism.sh`` (the walk-through again, through Prism's validating proxy).

    python -m tests.readme_blocks walk-through URL   # prints the walk-through as one script, aimed at URL
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
WALK_THROUGH = "## A five-minute walk-through with curl"
# The base URL the walk-through is written for; a runner replaces it with its own server's.
DOCUMENTED_URL = "http://127.0.0.1:8000"


def shell_blocks(markdown: str, heading: str) -> list[str]:
    """The ```sh blocks of the section under ``heading``, list-item indentation removed."""
    section = markdown.split(f"\n{heading}\n", 1)[1].split("\n## ", 1)[0]
    blocks = []
    for indent, body in re.findall(r"^( *)```sh\n(.*?)^\1```$", section, flags=re.M | re.S):
        blocks.append("".join(line[len(indent):] for line in body.splitlines(keepends=True)))
    return blocks


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
