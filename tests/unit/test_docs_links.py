"""The README stays a five-minute read (at most 12 KB; the rest lives in docs/), and every relative link
of the README and of docs/ leads to a file that exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def test_the_readme_is_at_most_12_kb() -> None:
    size = len((ROOT / "README.md").read_bytes())
    assert size <= 12 * 1024, f"README.md is {size} bytes: move a section to docs/ and link it"


@pytest.mark.parametrize("document", DOCUMENTS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_leads_to_a_file(document: Path) -> None:
    text = document.read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", text)
    broken = [t for t in targets if not re.match(r"(https?:|mailto:|#)", t)
              and not (document.parent / t.split("#", 1)[0]).exists()]
    assert not broken, f"{document.relative_to(ROOT)} links to files that do not exist: {broken}"
