"""The event catalogue: the JSON Schema of every event payload a game writes
or reads, derived from its event classes.

This is the one translation of event dataclass annotations into JSON Schema
(2020-12), like :mod:`service.api.schemas.action_bodies` is for action bodies.
The current schema version of an event is its class; each older version a
game still reads is the newer one changed as its upcaster declares
(:attr:`domain.core.Upcast.older`).  A field with a default may be absent
(payloads stored before it existed, ``time_control`` of an untimed game).
``redacted_fields`` are the event class' :attr:`~domain.core.Event.REDACTED`.
``GET /v1/game-types/{type}/events`` serves it; a test holds ``openapi.yaml``'s
copies and every event of played games to it.
"""

from __future__ import annotations

import dataclasses
import json
import types
import typing
from collections.abc import Mapping
from typing import Any

from domain.core import JSON, Event, GameDefinition

DIALECT = "https://json-schema.org/draft/2020-12/schema"


def annotation_schema(tp: Any) -> dict[str, JSON]:
    """The JSON Schema of the JSON values a field annotated ``tp`` holds."""
    if tp is Any:
        return {}
    for python, json_type in ((bool, "boolean"), (int, "integer"), (str, "string"), (type(None), "null")):
        if tp is python:
            return {"type": json_type}
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        parts = [annotation_schema(a) for a in args]
        plain = [p for p in parts if p != {"type": "null"}]
        if len(plain) == 1 and len(parts) == 2 and isinstance(plain[0].get("type"), str):
            return {**plain[0], "type": [plain[0]["type"], "null"]}  # T | None
        return {"anyOf": parts}
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return {"type": "array", "items": annotation_schema(args[0])}
        return {"type": "array", "prefixItems": [annotation_schema(a) for a in args], "items": False,
                "minItems": len(args), "maxItems": len(args)}
    if origin in (Mapping, dict):
        values = annotation_schema(args[1]) if args else {}
        return {"type": "object", "additionalProperties": values} if values else {"type": "object"}
    raise TypeError(f"no JSON Schema for the annotation {tp!r}")


#: a payload's fields: name -> (annotation, required)
Fields = dict[str, tuple[Any, bool]]


def _fields(cls: type[Event]) -> Fields:
    hints = typing.get_type_hints(cls)
    return {
        f.name: (hints[f.name], f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING)
        for f in dataclasses.fields(cls)
    }


def _schema(game: GameDefinition[Any], cls: type[Event], version: int, fields: Fields) -> dict[str, JSON]:
    summary = (cls.__doc__ or "").strip().split("\n\n")[0]
    return {
        "$schema": DIALECT,
        "title": f"{game.type_id} {cls.TYPE} payload, schema version {version}",
        "description": " ".join(summary.replace("``", "`").split()),
        "type": "object",
        "properties": {name: annotation_schema(tp) for name, (tp, _) in fields.items()},
        "required": [name for name, (_, required) in fields.items() if required],
        "additionalProperties": False,
    }


def _redacted(cls: type[Event], fields: Fields) -> list[str]:
    return [r for r in cls.REDACTED if r.removesuffix("[]") in fields]


def event_catalogue(game: GameDefinition[Any]) -> list[dict[str, JSON]]:
    """One entry per event type and schema version ``game`` writes or reads,
    in declaration order, oldest version first."""
    older = {(u.event_type, u.from_version): u for u in game.upcasters}
    out: list[dict[str, JSON]] = []
    for cls in game.events:
        fields = _fields(cls)
        entries = [(cls.SCHEMA_VERSION, fields)]
        for version in range(cls.SCHEMA_VERSION - 1, 0, -1):
            upcast = older.get((cls.TYPE, version))
            if upcast is None:
                break  # not read any more
            fields = dict(fields)
            for name, tp in upcast.older:
                if tp is None:
                    fields.pop(name, None)
                else:
                    fields[name] = (tp, fields.get(name, (None, True))[1])
            entries.append((version, fields))
        for version, these in reversed(entries):
            out.append({
                "event_type": cls.TYPE,
                "schema_version": version,
                "schema": _schema(game, cls, version, these),
                "redacted_fields": _redacted(cls, these),
            })
    return out


def catalogue_examples_yaml() -> str:
    """The catalogues of every game served, as ``components/examples`` entries
    of ``openapi.yaml`` (JSON flow style: one line per entry, stable order)."""
    from domain.registry import all_games

    lines: list[str] = []
    for game in sorted(all_games(), key=lambda g: g.type_id):
        name = "".join(part.capitalize() for part in game.type_id.replace("-", " ").split()) + "EventCatalogue"
        lines += [f"    {name}:", f"      summary: Every {game.type_id} event type and schema version",
                  "      value:", f"        type: {game.type_id}", "        events:"]
        lines += [f"          - {json.dumps(entry, ensure_ascii=False)}" for entry in event_catalogue(game)]
    return "\n".join(lines) + "\n"
