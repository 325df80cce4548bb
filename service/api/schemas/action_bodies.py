"""The action bodies of a game, as JSON Schema, derived from its moves.

This is the one translation of :mod:`domain.body` shapes into JSON Schema.
``GET /v1/game-types`` lists it for clients, and a test holds the
hand-written ``openapi.yaml`` to it, so the spec cannot drift from the rules.
Only the action's own fields are described here; ``type`` and
``expected_version`` belong to every body (:data:`domain.body.ENVELOPE_KEYS`).
"""

from __future__ import annotations

from typing import Any

from domain.body import AnyOf, BodyField, Integer, ListOf, MapOf, Record, Shape, Text, body_fields
from domain.core import JSON, GameDefinition


def shape_schema(shape: Shape) -> dict[str, JSON]:
    """The JSON Schema of the values ``shape`` accepts."""
    if isinstance(shape, Text):
        if shape.choices is not None:
            return {"type": "string", "enum": list(shape.choices)}
        return {"type": "string", "minLength": shape.min_length, "maxLength": shape.max_length}
    if isinstance(shape, Integer):
        return {"type": "integer", "minimum": shape.minimum, "maximum": shape.maximum}
    if isinstance(shape, ListOf):
        return {
            "type": "array",
            "items": shape_schema(shape.item),
            "minItems": shape.min_items,
            "maxItems": shape.max_items,
        }
    if isinstance(shape, MapOf):
        return {
            "type": "object",
            "propertyNames": shape_schema(shape.keys),
            "additionalProperties": shape_schema(shape.values),
            "maxProperties": shape.max_entries,
        }
    if isinstance(shape, Record):
        return record_schema(shape.cls)
    if isinstance(shape, AnyOf):
        # anyOf, not oneOf: the parser takes the first alternative that fits
        return {"anyOf": [shape_schema(option) for option in shape.options]}
    raise TypeError(f"no JSON Schema for shape {shape!r}")


def field_schema(f: BodyField) -> dict[str, JSON]:
    """The JSON Schema of one body field's value; an optional field may also be null
    (the parser reads null as absent)."""
    schema = shape_schema(f.shape)
    if f.required:
        return schema
    if "type" in schema:
        return {**schema, "type": [schema["type"], "null"]}
    return {"anyOf": [schema, {"type": "null"}]}


def record_schema(cls: type) -> dict[str, JSON]:
    """The JSON Schema of an object whose fields are the body fields of ``cls``."""
    fields = body_fields(cls)
    return {
        "type": "object",
        "required": [f.json_name for f in fields if f.required],
        "properties": {f.json_name: field_schema(f) for f in fields},
        "additionalProperties": False,
    }


def describe_field(f: BodyField) -> str:
    """A short sentence about one body field: its doc, if any, then its shape."""
    shape = f.shape.describe()
    return f"{f.doc} ({shape})" if f.doc else shape


def action_bodies(game: GameDefinition[Any]) -> list[dict[str, JSON]]:
    """Every move's action body (sorted by ``type``): its fields with their JSON
    name, whether required, a short description and a JSON Schema."""
    return [
        {
            "type": move.type,
            "body_fields": [
                {
                    "name": f.json_name,
                    "required": f.required,
                    "description": describe_field(f),
                    "json_schema": field_schema(f),
                }
                for f in body_fields(move.action)
            ],
        }
        for move in sorted(game.moves, key=lambda m: m.type)
    ]
