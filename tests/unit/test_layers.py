"""The packages' layers: imports point one way, from the top down.

``cablecar`` (the command line that starts everything) → ``bots`` (players:
the reference client, the planning bots, the server's bot runner) →
``service`` (HTTP edge, use cases, infrastructure) → ``events`` (event types,
codec, stores) → ``domain`` (pure rules).  Read from the source with ``ast``,
deferred imports inside functions included.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ["domain", "events", "service", "bots", "cablecar"]


def imported_packages(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("layer", LAYERS)
def test_a_layer_imports_only_the_layers_below_it(layer: str) -> None:
    above = set(LAYERS[LAYERS.index(layer) + 1:])
    wrong = {
        str(path.relative_to(ROOT)): sorted(imported_packages(path) & above)
        for path in sorted((ROOT / layer).rglob("*.py"))
        if imported_packages(path) & above
    }
    assert not wrong, f"{layer} imports from a layer above it: {wrong}"
