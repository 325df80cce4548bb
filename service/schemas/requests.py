"""Schemas of request bodies and query strings (other than actions)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate


def no_control_characters(value: str) -> None:
    """Refuse control characters (NUL cannot even be stored by PostgreSQL)."""
    if any(ord(c) < 32 or ord(c) == 127 for c in value):
        raise ValidationError("must not contain control characters")


class StrictBoolean(fields.Boolean):
    """JSON ``true`` or ``false`` only (not 1, "yes" or "true")."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> bool:
        if not isinstance(value, bool):
            raise self.make_error("invalid", input=value)
        return value


NAME = validate.And(validate.Length(min=1, max=40), no_control_characters)
#: a caller-chosen seed string
SEED = validate.And(validate.Length(min=1, max=200), no_control_characters)
#: a free-text label (organiser or batch name)
LABEL = validate.And(validate.Length(min=1, max=80), no_control_characters)
#: the largest integer accepted in a query (fits every database integer type)
MAX_INT = 2**53


class PlayerInSchema(Schema):
    """One player of a new game."""

    name = fields.String(required=True, validate=NAME)


class CreateGameSchema(Schema):
    """Body of ``POST /v1/games``."""

    type = fields.String(required=True, validate=validate.Length(min=1, max=40))
    players = fields.List(fields.Nested(PlayerInSchema), required=True, validate=validate.Length(min=1, max=8))
    seed = fields.String(load_default=None, validate=SEED)
    open_deal = StrictBoolean(load_default=False)
    start_seat = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0, max=7))


class ListGamesQuerySchema(Schema):
    """Query of ``GET /v1/games``."""

    status = fields.String(load_default=None, validate=validate.OneOf(["setup", "playing", "last_round", "finished"]))
    type = fields.String(load_default=None, validate=validate.Length(min=1, max=40))
    batch = fields.String(load_default=None, validate=validate.Length(min=1, max=80))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    cursor = fields.String(load_default=None, validate=validate.Length(min=1, max=400))


class ViewQuerySchema(Schema):
    """Query of ``GET /v1/games/{id}``."""

    at = fields.Integer(load_default=None, validate=validate.Range(min=1, max=MAX_INT))


class EventsQuerySchema(Schema):
    """Query of ``GET /v1/games/{id}/events``."""

    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_INT))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class StreamQuerySchema(Schema):
    """Query of ``GET /v1/games/{id}/events/stream``."""

    after = fields.Integer(load_default=None, validate=validate.Range(min=0, max=MAX_INT))


class LegalActionsQuerySchema(Schema):
    """Query of ``GET /v1/games/{id}/legal-actions`` (cable-car openings have
    well over 100,000 legal tile pairs, so the list is paged)."""

    limit = fields.Integer(load_default=1000, validate=validate.Range(min=1, max=10000))
    cursor = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_INT))
