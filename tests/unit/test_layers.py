"""The packages' layers: imports point one way, from the top down, and no
module imports itself back through others (no import circles).

``cablecar`` (the command line that starts everything) → ``bots`` (players:
the reference client, the planning bots, the server's bot runner) →
``service`` (HTTP edge, use cases, adapters, serving) → ``events`` (event types,
codec, stores) → ``domain`` (pure rules).  Inside ``service`` the same holds for
its folders: ``serving`` → ``api`` → ``bootstrap`` (the one wiring place) →
``usecases`` → ``adapters`` → the shared vocabulary at its top (``config``,
``errors``, ``location``), and nothing else stands at its top.  Inside
``events``: ``factory`` → the backends (``sqlite``, ``postgres``, which never
import each other) → ``migrations`` → ``sql`` → ``recorders`` → ``integrity``
→ ``encoding`` → ``records``.  Read from the source with ``ast``, deferred imports inside
functions included.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ["domain", "events", "service", "bots", "cablecar"]
# service's own layers, lowest first; "" is its top level (the shared vocabulary)
SERVICE_LAYERS = ["", "adapters", "usecases", "bootstrap", "api", "serving"]
SERVICE_TOP = {"__init__.py", "config.py", "errors.py", "location.py", "bootstrap.py"}
# events' layers, lowest first; the folders and top modules of one rank never import each other
EVENTS_LAYERS = [{"records"}, {"encoding"}, {"integrity"}, {"recorders"}, {"sql"}, {"migrations"},
                 {"sqlite", "postgres"}, {"factory"}, {""}]


def imported_names(path: Path) -> set[str]:
    """Every dotted name ``path`` imports (``from a.b import c`` gives ``a.b`` and ``a.b.c``)."""
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def imported_packages(path: Path) -> set[str]:
    return {name.split(".")[0] for name in imported_names(path)}


def module_graph() -> dict[str, set[str]]:
    """Module → the project's modules it imports (a package's own ``__init__`` left out)."""
    modules: dict[str, Path] = {}
    for layer in LAYERS:
        for path in (ROOT / layer).rglob("*.py"):
            name = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            modules[name.removesuffix(".__init__")] = path

    def module_of(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets = {module_of(imported) for imported in imported_names(path)}
        graph[name] = {t for t in targets if t and t != name and not name.startswith(t + ".")}
    return graph


@pytest.mark.parametrize("layer", LAYERS)
def test_a_layer_imports_only_the_layers_below_it(layer: str) -> None:
    above = set(LAYERS[LAYERS.index(layer) + 1:])
    wrong = {
        str(path.relative_to(ROOT)): sorted(imported_packages(path) & above)
        for path in sorted((ROOT / layer).rglob("*.py"))
        if imported_packages(path) & above
    }
    assert not wrong, f"{layer} imports from a layer above it: {wrong}"


def test_no_module_imports_itself_back() -> None:
    graph = module_graph()
    circles: list[list[str]] = []
    finished: set[str] = set()

    def walk(path: list[str]) -> None:  # depth first; a step back onto the path is a circle
        for step in sorted(graph[path[-1]]):
            if step in path:
                circles.append(path[path.index(step):] + [step])
            elif step not in finished:
                walk([*path, step])
        finished.add(path[-1])

    for start in sorted(graph):
        if start not in finished:
            walk([start])
    assert not circles, "import circles: " + "; ".join(" → ".join(c) for c in circles[:5])


def service_layer(module: str) -> str:
    """``service.api.routes.games`` → ``api``; ``service.bootstrap`` → ``bootstrap``; ``service.config`` → ``""``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 2 or parts[1:] == ["bootstrap"] else ""


def events_part(module: str) -> str:
    """``events.sql.rows`` → ``sql``; ``events.records`` → ``records``; ``events`` → ``""``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def events_rank(part: str) -> int:
    return next(i for i, layer in enumerate(EVENTS_LAYERS) if part in layer)


def test_service_has_only_its_shared_vocabulary_at_its_top() -> None:
    top = {p.name for p in (ROOT / "service").glob("*.py")}
    folders = {p.name for p in (ROOT / "service").iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert top == SERVICE_TOP, f"modules at service/'s top besides its shared vocabulary: {sorted(top - SERVICE_TOP)}"
    assert folders == set(SERVICE_LAYERS) - {"", "bootstrap"}, f"service/'s folders: {sorted(folders)}"


def test_service_layers_import_only_the_layers_below_them() -> None:
    graph = module_graph()
    wrong = []
    for module, targets in sorted(graph.items()):
        if not module.startswith("service.") or service_layer(module) not in SERVICE_LAYERS:
            continue
        rank = SERVICE_LAYERS.index(service_layer(module))
        for target in sorted(targets):
            if target.startswith("service.") and SERVICE_LAYERS.index(service_layer(target)) > rank:
                wrong.append(f"{module} → {target}")
    assert not wrong, "service/ imports from a layer above: " + "; ".join(wrong)


def test_events_has_each_module_in_a_folder_named_by_its_job() -> None:
    parts = {p.stem if p.is_file() else p.name for p in (ROOT / "events").iterdir()
             if (p.suffix == ".py" and p.name != "__init__.py") or (p / "__init__.py").exists()}
    known = set().union(*EVENTS_LAYERS) - {""}
    assert parts == known, f"events/ holds {sorted(parts - known)} beside its layers (or lost {sorted(known - parts)})"
    assert len([p for p in (ROOT / "events").glob("*.py") if p.name != "__init__.py"]) <= 8


def test_events_layers_import_only_the_layers_below_them() -> None:
    wrong = []
    for module, targets in sorted(module_graph().items()):
        if not module.startswith("events."):
            continue  # the package's own __init__ only names what the factory hands out
        part = events_part(module)
        for target in sorted(targets):
            if not target.startswith("events"):
                continue
            other = events_part(target)
            if other != part and events_rank(other) >= events_rank(part):
                wrong.append(f"{module} → {target}")
    assert not wrong, "events/ imports from a layer above or beside it: " + "; ".join(wrong)
