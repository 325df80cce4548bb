"""Schemas of request bodies and query strings (other than actions)."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from domain.body import integral
from domain.core import STATUSES
from domain.custody import STATUS_SCHEDULED
from service.api.schemas.names import blank_problem, normalised, skeleton
from service.api.text import has_control_characters, name_problem
from service.usecases.stream_tickets import TICKET_MAX


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


class IntegralNumber(fields.Integer):
    """An integer of a JSON body: any JSON number with an integral value
    (``1`` or ``1.0``, as JSON Schema counts them), not a boolean, a string or ``1.5``."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        number = integral(value)
        if number is None:
            raise self.make_error("invalid", input=value)
        return number


NAME = validate.And(validate.Length(min=1, max=40), no_control_characters)
#: a caller-chosen seed string
SEED = validate.And(validate.Length(min=1, max=200), no_control_characters)
#: a free-text label (organiser or batch name)
LABEL = validate.And(validate.Length(min=1, max=80), no_control_characters)


def printable(value: str) -> None:
    """Refuse characters that do not print (controls, format and separator characters but the space)."""
    if not value.isprintable():
        raise ValidationError("must hold printable characters only")


#: an organiser's own id of a batch, table or player: 1 to 128 printable characters, kept as sent
REF = validate.And(validate.Length(min=1, max=128), printable)
#: the largest integer accepted in a query (fits every database integer type)
MAX_INT = 2**53
#: the most legal actions one answer holds (a page or a sample)
MAX_PAGE = 10_000


class PlayerName(fields.String):
    """A player's name: NFKC-normalised and trimmed of surrounding white
    space, then 1 to 40 characters with no control or format characters (a
    bidi override would make one name display as another) and none that
    looks blank (``service.api.schemas.names``)."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> str:
        name = normalised(super()._deserialize(value, attr, data, **kwargs))
        problem = name_problem(name) or blank_problem(name)
        if problem is not None:
            raise ValidationError(problem)
        return name


class PlayerInSchema(Schema):
    """One player of a new game."""

    name = PlayerName(required=True, validate=NAME)
    # a server-side bot plays this seat (one of the type's ``bots`` in /v1/game-types)
    bot = fields.String(load_default=None, allow_none=True,
                        validate=validate.And(validate.Length(min=1, max=40), no_control_characters))
    # the organiser's own id of this player (unique in the game)
    ref = fields.String(load_default=None, allow_none=True, validate=REF)


class PlayersSchema(Schema):
    """A schema with the players of one game: 1 to 8, with distinct names."""

    players = fields.List(
        fields.Nested(PlayerInSchema), required=True, validate=validate.Length(min=1, max=8)
    )

    @validates_schema
    def _distinct_names(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Two players of one game may not share a name, ignoring case, nor
        have names that look alike (equal TR39 skeletons)."""
        seen: dict[str, int] = {}
        for index, player in enumerate(data.get("players", [])):
            first = seen.setdefault(skeleton(player["name"]), index)
            if first != index:
                message = (f"the same name as players[{first}], or one that looks like it "
                           "(names must differ, ignoring case and look-alike characters)")
                raise ValidationError({"players": {index: {"name": [message]}}})
        refs: dict[str, int] = {}
        for index, player in enumerate(data.get("players", [])):
            if player.get("ref") is not None and refs.setdefault(player["ref"], index) != index:
                message = f"the same ref as players[{refs[player['ref']]}] (a game's player refs must differ)"
                raise ValidationError({"players": {index: {"ref": [message]}}})


class CreateGameSchema(PlayersSchema):
    """Body of ``POST /v1/games``."""

    type = fields.String(required=True, validate=validate.Length(min=1, max=40))
    seed = fields.String(load_default=None, allow_none=True, validate=SEED)
    open_deal = StrictBoolean(load_default=False)
    start_seat = IntegralNumber(load_default=0, validate=validate.Range(min=0, max=7))
    # its fields and bounds are the domain's to check (domain.clocks.parse_time_control)
    time_control = fields.Dict(load_default=None, allow_none=True)
    # the organiser's own id of the game (organiser token only)
    ref = fields.String(load_default=None, allow_none=True, validate=REF)


class ListGamesQuerySchema(Schema):
    """Query of ``GET /v1/games``."""

    status = fields.String(load_default=None, validate=validate.OneOf([*STATUSES, STATUS_SCHEDULED]))
    type = fields.String(load_default=None, validate=validate.Length(min=1, max=40))
    batch = fields.String(load_default=None, validate=validate.Length(min=1, max=80))
    #: the games whose (table) ref is exactly this
    ref = fields.String(load_default=None, validate=REF)
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    cursor = fields.String(load_default=None, validate=validate.Length(min=1, max=400))


class ViewQuerySchema(Schema):
    """Query of ``GET /v1/games/{id}``."""

    at = fields.Integer(load_default=None, validate=validate.Range(min=1, max=MAX_INT))


class SeqCursor(fields.Field):
    """The cursor of the event log (the events after a seq): opaque to
    clients, digits to the server; an integer sent by an older client is the
    same cursor."""

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
    #: a seat's stream ticket (``POST /v1/games/{id}/stream-tickets``), for clients that cannot send a token
    ticket = fields.String(load_default=None, validate=validate.Length(min=1, max=TICKET_MAX))


class Square(fields.Field):
    """A board square in a query: ``row,col``, each 1 to 99."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> tuple[int, int]:
        parts = str(value).split(",")
        if len(parts) != 2 or not all(p.isascii() and p.isdigit() and 1 <= len(p) <= 2 for p in parts):
            raise ValidationError("must be a square written row,col (e.g. 3,4)")
        row, col = int(parts[0]), int(parts[1])
        if row < 1 or col < 1:
            raise ValidationError("rows and columns start at 1")
        return row, col


class LegalActionsQuerySchema(Schema):
    """Query of ``GET /v1/games/{id}/legal-actions`` (cable-car openings have
    well over 100,000 legal tile pairs, so the list is paged)."""

    limit = fields.Integer(load_default=1000, validate=validate.Range(min=1, max=MAX_PAGE))
    cursor = fields.String(load_default=None, validate=validate.Length(min=1, max=400))
    #: draw this many actions uniformly from the whole list instead of a page
    sample = fields.Integer(load_default=None, validate=validate.Range(min=1, max=MAX_PAGE))
    #: the sample's seed (the same sample for the same seed and version); a fresh one without
    seed = fields.String(load_default=None, validate=SEED)
    #: cable-car: only the actions whose first placement is on this square, ``row,col``
    square = Square(load_default=None)

    @validates_schema
    def _sample_or_page(self, data: dict[str, Any], **kwargs: Any) -> None:
        if data.get("sample") is not None and data.get("cursor") is not None:
            raise ValidationError("a sample has no pages: send sample or cursor, not both", "cursor")
        if data.get("seed") is not None and data.get("sample") is None:
            raise ValidationError("seed goes with sample", "seed")
