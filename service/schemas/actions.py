"""Schemas of the action bodies of every game type.

The HTTP layer checks the *shape* of an action here (400 on a malformed
body); whether the rules allow it is the domain's business (422).
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate

SLOT = validate.Range(min=0, max=4)
SQUARE = validate.Range(min=1, max=12)


class _Action(Schema):
    type = fields.String(required=True)
    expected_version = fields.Integer(load_default=None, strict=True, validate=validate.Range(min=0, max=2**53))


# ---------------------------------------------------------------- ttr-sf
class PlaceSouvenirStackSchema(_Action):
    """``place_souvenir_stack``: put a set-aside stack on a location (setup)."""

    symbol = fields.String(required=True, validate=validate.Length(min=1, max=40))
    location = fields.String(required=True, validate=validate.Length(min=1, max=60))


class KeepTicketsSchema(_Action):
    """``keep_tickets``: choose the tickets to keep from the pending ones."""

    tickets = fields.List(
        fields.String(validate=validate.Length(min=1, max=10)), required=True, validate=validate.Length(min=1, max=3)
    )


class DrawCardSchema(_Action):
    """``draw_card``: from the deck, or a face-up slot 0..4."""

    source = fields.String(required=True, validate=validate.OneOf(["deck", "face_up"]))
    slot = fields.Integer(load_default=None, strict=True, validate=SLOT)


class ClaimRouteSchema(_Action):
    """``claim_route``: pay cards for a route, optionally naming a souvenir."""

    route = fields.String(required=True, validate=validate.Length(min=1, max=80))
    cards = fields.Dict(
        keys=fields.String(validate=validate.Length(min=1, max=20)),
        values=fields.Integer(strict=True, validate=validate.Range(min=0, max=44)),
        required=True,
    )
    souvenir = fields.String(load_default=None, validate=validate.Length(min=1, max=40))


class DrawTicketsSchema(_Action):
    """``draw_tickets``: draw the top two tickets."""


# ------------------------------------------------------------- cable-car
class PlacementSchema(Schema):
    """One tile placement (an exchange when the square is occupied)."""

    tile = fields.String(required=True, validate=validate.Length(min=1, max=40))
    row = fields.Integer(required=True, strict=True, validate=SQUARE)
    col = fields.Integer(required=True, strict=True, validate=SQUARE)
    rotation = fields.Integer(required=True, strict=True, validate=validate.Range(min=0, max=3))


class LayTilesSchema(_Action):
    """``lay_tiles``: one or two placements."""

    placements = fields.List(fields.Nested(PlacementSchema), required=True, validate=validate.Length(min=1, max=2))


class PathStepField(fields.Field):
    """One step of a ride path: a square ``[row, col]`` or a terminal loop's name
    (to drive over another line's terminal loop)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, str) and 1 <= len(value) <= 60:
            return value
        if (
            isinstance(value, list)
            and len(value) == 2
            and all(isinstance(v, int) and not isinstance(v, bool) and 1 <= v <= 12 for v in value)
        ):
            return value
        raise ValidationError("must be [row, col] with rows and columns 1-12, or a terminal name")


class StartRideSchema(_Action):
    """``start_ride``: reveal and start the inaugural ride."""

    from_ = fields.String(data_key="from", load_default=None, validate=validate.Length(min=1, max=60))
    path = fields.List(
        PathStepField(),
        load_default=None,
        validate=validate.Length(min=1, max=144),
    )


class RollSchema(_Action):
    """``roll``: roll the die and move the tram."""


ACTION_SCHEMAS: dict[str, dict[str, type[Schema]]] = {
    "ttr-sf": {
        "place_souvenir_stack": PlaceSouvenirStackSchema,
        "keep_tickets": KeepTicketsSchema,
        "draw_card": DrawCardSchema,
        "claim_route": ClaimRouteSchema,
        "draw_tickets": DrawTicketsSchema,
    },
    "cable-car": {
        "lay_tiles": LayTilesSchema,
        "start_ride": StartRideSchema,
        "roll": RollSchema,
    },
}


_INSTANCES: dict[type[Schema], Schema] = {}


def _instance(cls: type[Schema]) -> Schema:
    """One shared instance per schema class (building a Schema copies its fields)."""
    schema = _INSTANCES.get(cls)
    if schema is None:
        schema = _INSTANCES.setdefault(cls, cls())
    return schema


def load_action(game_type: str, body: Any) -> tuple[dict[str, Any], int | None]:
    """Validate an action body's shape; return (action body, expected_version)."""
    if not isinstance(body, dict):
        raise ValidationError({"body": ["an action must be a JSON object"]})
    schemas = ACTION_SCHEMAS.get(game_type, {})
    kind = body.get("type")
    if not isinstance(kind, str) or kind not in schemas:
        raise ValidationError({"type": [f"must be one of: {', '.join(sorted(schemas))}"]})
    data = _instance(schemas[kind]).load(body)
    expected = data.pop("expected_version", None)
    if "from_" in data:
        data["from"] = data.pop("from_")
    return {k: v for k, v in data.items() if v is not None}, expected
