"""No module of the project does several jobs at once: every non-test module
(the packages and the benchmarks) stays at or under 400 lines, so that a file
found by its folder's name is one a reader can hold at once.  Complexity has
its own limit (ruff's C901 at 25, pyproject.toml)."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("domain", "events", "service", "bots", "cablecar", "bench")
LIMIT = 400


def test_no_module_is_over_400_lines() -> None:
    too_long = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if "tests" in path.relative_to(ROOT).parts:
                continue  # tests may be long: one scenario a function
            lines = len(path.read_text(encoding="utf-8").splitlines())
            if lines > LIMIT:
                too_long[str(path.relative_to(ROOT))] = lines
    assert not too_long, f"modules over {LIMIT} lines (split them by job): {too_long}"
