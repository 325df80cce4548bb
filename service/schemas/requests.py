"""Schemas of request bodies and query strings (other than actions)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from domain.core import STATUSES
from service.text import has_control_characters, name_problem


def no_control_characters(value: str) -> None:
    """Refuse control characters (NUL cannot even be stored by PostgreSQL)."""
    if has_control_characters(value):
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


class PlayerName(fields.String):
    """A player's name: trimmed of surrounding white space, then 1 to 40
    characters with no control or format characters (a bidi override would
    make one name display as another)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        name = super()._deserialize(value, attr, data, **kwargs).strip()
        problem = name_problem(name)
        if problem is not None:
            raise ValidationError(problem)
        return name


class PlayerInSchema(Schema):
    """One player of a new game."""

    name = PlayerName(required=True, validate=NAME)
    # a server-side bot plays this seat (one of the type's ``bots`` in /v1/game-types)
    bot = fields.String(load_default=None, allow_none=True,
                        validate=validate.And(validate.Length(min=1, max=40), no_control_characters))


class PlayersSchema(Schema):
    """A schema with the players of one game: 1 to 8, with distinct names."""

    players = fields.List(
        fields.Nested(PlayerInSchema), required=True, validate=validate.Length(min=1, max=8)
    )

    @validates_schema
    def _distinct_names(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Two players of one game may not share a name, ignoring case."""
        seen: dict[str, int] = {}
        for index, player in enumerate(data.get("players", [])):
            first = seen.setdefault(player["name"].casefold(), index)
            if first != index:
                message = f"the same name as players[{first}] (names must differ, ignoring case)"
                raise ValidationError({"players": {index: {"name": [message]}}})


class CreateGameSchema(PlayersSchema):
    """Body of ``POST /v1/games``."""

    type = fields.String(required=True, validate=validate.Length(min=1, max=40))
    seed = fields.String(load_default=None, allow_none=True, validate=SEED)
    open_deal = StrictBoolean(load_default=False)
    start_seat = fields.Integer(load_default=0, strict=True, validate=validate.Range(min=0, max=7))
    # its fields and bounds are the domain's to check (domain.clocks.parse_time_control)
    time_control = fields.Dict(load_default=None, allow_none=True)


class ListGamesQuerySchema(Schema):
    """Query of ``GET /v1/games``."""

    status = fields.String(load_default=None, validate=validate.OneOf(list(STATUSES)))
    type = fields.String(load_default=None, validate=validate.Length(min=1, max=40))
    batch = fields.String(load_default=None, validate=validate.Length(min=1, max=80))
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    cursor = fields.String(load_default=None, validate=validate.Length(min=1, max=400))


class ViewQuerySchema(Schema):
    """Query of ``GET /v1/games/{id}``."""

    at = fields.Integer(load_default=None, validate=validate.Range(min=1, max=MAX_INT))


class SeqCursor(fields.Field):
    """A cursor of a list numbered from 0 (the events after a seq, the legal
    actions from an offset): opaque to clients, digits to the server; an
    integer sent by an older client is the same cursor."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        text = str(value)
        if not text.isascii() or not text.isdigit() or len(text) > 16 or int(text) > MAX_INT:
            raise ValidationError("not a cursor returned by this listing")
        return int(text)


class EventsQuerySchema(Schema):
    """Query of ``GET /v1/games/{id}/events`` (``after`` is the deprecated
    alias of ``cursor``)."""

    cursor = SeqCursor(load_default=None)
    after = fields.Integer(load_default=0, validate=validate.Range(min=0, max=MAX_INT))
    limit = fields.Integer(load_default=100, validate=validate.Range(min=1, max=1000))


class StreamQuerySchema(Schema):
    """Query of ``GET /v1/games/{id}/events/stream``."""

    after = fields.Integer(load_default=None, validate=validate.Range(min=0, max=MAX_INT))


class LegalActionsQuerySchema(Schema):
    """Query of ``GET /v1/games/{id}/legal-actions`` (cable-car openings have
    well over 100,000 legal tile pairs, so the list is paged)."""

    limit = fields.Integer(load_default=1000, validate=validate.Range(min=1, max=10000))
    cursor = SeqCursor(load_default=0)
