"""The store's interfaces stay narrow (eventsourcing's recorders are the
model): no recorder of ``events/recorders/`` has over 12 methods, no class of
``events/`` inherits from more than 3 bases, and ``open_store``'s ``Stores``
names each capability once, typed by its interface."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import inspect
from abc import ABC
from pathlib import Path

from events import Stores

ROOT = Path(__file__).resolve().parents[2]


def recorder_interfaces() -> list[type]:
    found = []
    for path in sorted((ROOT / "events" / "recorders").glob("*.py")):
        module = importlib.import_module(f"events.recorders.{path.stem}")
        for _, cls in inspect.getmembers(module, inspect.isclass):
            if cls.__module__ == module.__name__ and issubclass(cls, ABC) and getattr(cls, "__abstractmethods__", None):
                found.append(cls)
    return found


def test_no_recorder_has_over_12_methods() -> None:
    interfaces = recorder_interfaces()
    assert len(interfaces) >= 9
    wide = {cls.__name__: len(cls.__abstractmethods__) for cls in interfaces if len(cls.__abstractmethods__) > 12}
    assert not wide, f"recorders over 12 methods (split them by capability): {wide}"


def test_no_class_of_events_inherits_from_more_than_three_bases() -> None:
    many = []
    for path in sorted((ROOT / "events").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ClassDef) and len(node.bases) > 3:
                many.append(f"{path.relative_to(ROOT)}:{node.name} ({len(node.bases)} bases)")
    assert not many, f"classes with more than 3 bases: {many}"


def test_every_capability_of_stores_is_typed_by_its_interface() -> None:
    names = {cls.__name__ for cls in recorder_interfaces()}
    for field in dataclasses.fields(Stores):
        if field.name in ("backend", "also_closes"):
            continue
        typed = str(field.type).replace(" | None", "")
        assert typed in names, f"Stores.{field.name} is typed {field.type}, not by one recorder interface"
