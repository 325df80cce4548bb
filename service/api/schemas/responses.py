"""Schemas of response bodies.

Game views are produced by the pure ``view`` function of each game type;
:class:`GameViewSchema` fixes the fields every view shares and keeps the
game-specific ones (documented per type in openapi.yaml) as they are.
"""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, post_dump


class BodyFieldSchema(Schema):
    """One field of an action body."""

    name = fields.String(required=True)
    required = fields.Boolean(required=True)
    description = fields.String(required=True)
    json_schema = fields.Dict(required=True, data_key="schema")


class ActionBodySchema(Schema):
    """The body of one action type."""

    type = fields.String(required=True)
    body_fields = fields.List(fields.Nested(BodyFieldSchema), required=True, data_key="fields")


class GameTypeSchema(Schema):
    """One served game type."""

    type = fields.String(required=True)
    title = fields.String(required=True)
    min_players = fields.Integer(required=True)
    max_players = fields.Integer(required=True)
    rules_version = fields.String(required=True)
    board_version = fields.String(required=True)
    actions = fields.List(fields.String(), required=True)
    bots = fields.List(fields.String(), required=True)
    action_bodies = fields.List(fields.Nested(ActionBodySchema), required=True)


class GameTypesSchema(Schema):
    """``GET /v1/game-types``."""

    types = fields.List(fields.Nested(GameTypeSchema), required=True)


class SeatTokenSchema(Schema):
    """A seat of a new game with its secret token."""

    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    # null for a bot seat (the server plays it)
    token = fields.String(required=True, allow_none=True)
    bot = fields.String(allow_none=True)
    ref = fields.String(allow_none=True)


class NewGameSchema(Schema):
    """A game just created, with its tokens (shown only in this answer)."""

    id = fields.String(required=True)
    status = fields.String(required=True)
    version = fields.Integer(required=True)
    seed_commitment = fields.String(required=True)
    seed_source = fields.String(required=True)
    open_deal = fields.Boolean(required=True)
    seats = fields.List(fields.Nested(SeatTokenSchema), required=True)
    host_token = fields.String(required=True)
    ref = fields.String(allow_none=True)
    starts_at = fields.String(allow_none=True)


class GameCreatedSchema(NewGameSchema):
    """``POST /v1/games`` answer: the only time tokens are shown."""

    type = fields.String(required=True)
    time_control = fields.Dict(required=True)


class StreamTicketSchema(Schema):
    """A seat's stream ticket (``POST /v1/games/{id}/stream-tickets``)."""

    ticket = fields.String(required=True)
    expires_at = fields.String(required=True)


class SeatSchema(Schema):
    """A seat in a game summary."""

    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    bot = fields.String(allow_none=True)
    ref = fields.String(allow_none=True)


class GameSummarySchema(Schema):
    """A game in the listing."""

    id = fields.String(required=True)
    type = fields.String(required=True)
    status = fields.String(required=True)
    version = fields.Integer(required=True)
    created_at = fields.String(required=True)
    updated_at = fields.String(required=True)
    players = fields.List(fields.Nested(SeatSchema), required=True)
    seed_commitment = fields.String(required=True)
    open_deal = fields.Boolean(required=True)
    batch = fields.String(allow_none=True)
    ref = fields.String(allow_none=True)
    batch_ref = fields.String(allow_none=True)
    starts_at = fields.String(allow_none=True)
    damaged_from = fields.Integer()  # only for a damaged game: its first bad event


class GamesPageSchema(Schema):
    """``GET /v1/games``."""

    games = fields.List(fields.Nested(GameSummarySchema), required=True)
    next_cursor = fields.String(allow_none=True, required=True)


class GameViewSchema(Schema):
    """``GET /v1/games/{id}``: the fields every game type's view has; the
    game-specific fields pass through unchanged."""

    id = fields.String(required=True)
    type = fields.String(required=True)
    status = fields.String(required=True)
    version = fields.Integer(required=True)
    active_seats = fields.List(fields.Integer(), required=True)
    players = fields.List(fields.Dict(), required=True)
    open_deal = fields.Boolean(required=True)

    @post_dump(pass_original=True)
    def _keep_game_fields(self, data: dict[str, Any], original: dict[str, Any], **_: Any) -> dict[str, Any]:
        return {**original, **data}


class EventSchema(Schema):
    """One event as the caller may see it."""

    seq = fields.Integer(required=True)
    type = fields.String(required=True)
    schema_version = fields.Integer(required=True)
    seat = fields.Integer(allow_none=True, required=True)
    recorded_at = fields.String(required=True)
    payload = fields.Dict(required=True)
    prev_hash = fields.String()
    hash = fields.String()
    signature = fields.String()
    key_id = fields.String()


class EventEntrySchema(EventSchema):
    """An entry of the event page: the event, then the game's version and whose turn it is."""

    version = fields.Integer(required=True)
    active_seats = fields.List(fields.Integer(), required=True)


class ActionResultSchema(Schema):
    """``POST /v1/games/{id}/actions`` answer."""

    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(EventSchema), required=True)
    replayed = fields.Boolean(required=True)


class EventsPageSchema(Schema):
    """``GET /v1/games/{id}/events``."""

    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    events = fields.List(fields.Nested(EventEntrySchema), required=True)
    next_cursor = fields.String(allow_none=True, required=True)
    next_after = fields.Integer(allow_none=True, required=True)  # deprecated alias of next_cursor
    damaged_from = fields.Integer()  # only for a damaged game: its first bad event


class LegalActionsSchema(Schema):
    """``GET /v1/games/{id}/legal-actions``."""

    game_id = fields.String(required=True)
    version = fields.Integer(required=True)
    seat = fields.Integer(required=True)
    total = fields.Integer(required=True)
    next_cursor = fields.String(allow_none=True, required=True)
    actions = fields.List(fields.Dict(), required=True)


class ComponentHealthSchema(Schema):
    """Health of the store or the cache."""

    backend = fields.String(required=True)
    ok = fields.Boolean(required=True)
    detail = fields.String(required=True)


class SigningKeySchema(Schema):
    """One key of ``GET /v1/keys``."""

    key_id = fields.String(required=True)
    algorithm = fields.String(required=True)
    public_key = fields.String(required=True)
    created_at = fields.String(required=True, allow_none=True)
    retired_at = fields.String(required=True, allow_none=True)
    added_seq = fields.Integer(required=True, allow_none=True)
    retired_seq = fields.Integer(required=True, allow_none=True)
    retired_tree_size = fields.Integer(required=True, allow_none=True)


class SigningKeysSchema(Schema):
    """``GET /v1/keys``: the keys the server's records are signed with."""

    keys = fields.List(fields.Nested(SigningKeySchema), required=True)


class BotsHealthSchema(Schema):
    """``GET /v1/health``'s ``bots``: the bot runners alive now."""

    runners = fields.Integer(required=True)
    ok = fields.Boolean(required=True)


class LogHealthSchema(Schema):
    """``GET /v1/health``'s ``log``: how current the transparency log's latest checkpoint is."""

    ok = fields.Boolean(required=True)
    checkpoint_age_s = fields.Float(required=True, allow_none=True)
    tree_size = fields.Integer(required=True)
    detail = fields.String(required=True)


class HealthSchema(Schema):
    """``GET /v1/health``."""

    status = fields.String(required=True)
    store = fields.Nested(ComponentHealthSchema, required=True)
    cache = fields.Nested(ComponentHealthSchema, required=True)
    bots = fields.Nested(BotsHealthSchema, required=True)
    log = fields.Nested(LogHealthSchema, required=True)
    version = fields.String(required=True)
