"""docs/architecture.md names every module of every package (``domain/``,
``events/``, ``service/``, ``bots/``, ``cablecar/``) with its job, and names no module that is gone: a newcomer who reads it finds
every file, and a file added or moved without a word fails here."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "architecture.md"
PACKAGES = ("domain", "events", "service", "bots", "cablecar")


def modules() -> set[str]:
    return {str(p.relative_to(ROOT)) for package in PACKAGES for p in (ROOT / package).rglob("*.py")}


def indexed() -> dict[str, str]:
    """The module index's rows: path → its job."""
    rows = re.findall(r"^\| `((?:domain|events|service|bots|cablecar)/[\w/]+\.py)` \| (.+) \|$", DOC.read_text(encoding="utf-8"), re.M)
    return dict(rows)


def test_every_module_is_in_the_index_with_its_job() -> None:
    rows = indexed()
    missing = sorted(modules() - set(rows))
    assert not missing, f"docs/architecture.md does not name these modules with their job: {missing}"
    assert all(len(job.strip()) >= 10 for job in rows.values()), "a module's job is more than a word or two"


@pytest.mark.parametrize("package", PACKAGES)
def test_the_document_names_no_module_that_is_gone(package: str) -> None:
    named = set(re.findall(rf"(?<![\w/]){package}/[\w/]+\.py", DOC.read_text(encoding="utf-8")))
    gone = sorted(n for n in named if not (ROOT / n).exists())
    assert not gone, f"docs/architecture.md names modules that do not exist: {gone}"
