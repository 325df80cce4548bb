"""Schemas of the organiser endpoints: organisers, batches, webhooks, and the
host's seat-token rotation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

from marshmallow import Schema, ValidationError, fields, validate, validates_schema

from domain.forfeits import STANDINGS
from service.adapters.webhooks.hmac import GAME_EVENTS, WEBHOOK_EVENTS
from service.api.schemas.requests import LABEL, REF, SEED, IntegralNumber, PlayersSchema, StrictBoolean
from service.api.schemas.responses import NewGameSchema

ID = validate.Length(min=1, max=80)

# ------------------------------------------------------------------- requests


class CreateOrganiserSchema(Schema):
    """Body of ``POST /v1/organisers``."""

    name = fields.String(required=True, validate=LABEL)


class TableInSchema(PlayersSchema):
    """One table of a new batch (the fields of ``POST /v1/games`` but ``type``)."""
    seed = fields.String(load_default=None, allow_none=True, validate=SEED)
    open_deal = StrictBoolean(load_default=False)
    start_seat = IntegralNumber(load_default=0, validate=validate.Range(min=0, max=7))
    # this table's time control (default: the batch's); checked by domain.clocks
    time_control = fields.Dict(load_default=None, allow_none=True)
    # the organiser's own id of this table (unique in the batch)
    ref = fields.String(load_default=None, allow_none=True, validate=REF)


class UtcTime(fields.Field):
    """An ISO-8601 UTC time (``2026-05-01T18:00:00Z``; ``+00:00`` too), loaded as a datetime."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> datetime:
        try:
            if not isinstance(value, str) or len(value) > 40:
                raise ValueError(value)
            text = value
            moment = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
        except ValueError as e:
            raise ValidationError("must be an ISO-8601 time in UTC, e.g. 2026-05-01T18:00:00Z") from e
        if moment.utcoffset() != timedelta(0):
            raise ValidationError("must be a time in UTC (ending in Z or +00:00)")
        return moment.astimezone(UTC)


class CreateBatchSchema(Schema):
    """Body of ``POST /v1/batches``."""

    type = fields.String(required=True, validate=validate.Length(min=1, max=40))
    tables = fields.List(
        fields.Nested(TableInSchema), required=True, validate=validate.Length(min=1)
    )
    name = fields.String(load_default=None, allow_none=True, validate=LABEL)
    # every table's time control unless the table names its own
    time_control = fields.Dict(load_default=None, allow_none=True)
    # the organiser's own id of the batch (e.g. "event-77/round-1")
    ref = fields.String(load_default=None, allow_none=True, validate=REF)
    # when every table starts (at most 7 days ahead; default: now)
    start_at = UtcTime(load_default=None, allow_none=True)

    @validates_schema
    def _distinct_table_refs(self, data: dict[str, Any], **kwargs: Any) -> None:
        """Two tables of one batch may not share a ref."""
        seen: dict[str, int] = {}
        for index, table in enumerate(data.get("tables", [])):
            if table.get("ref") is not None and seen.setdefault(table["ref"], index) != index:
                message = f"the same ref as tables[{seen[table['ref']]}] (a batch's table refs must differ)"
                raise ValidationError({"tables": {index: {"ref": [message]}}})


class CreateWebhookSchema(Schema):
    """Body of ``POST /v1/webhooks``."""

    url = fields.Url(
        required=True, schemes={"http", "https"}, require_tld=False, validate=validate.Length(max=2000)
    )
    batch = fields.String(load_default=None, allow_none=True, validate=ID)
    events = fields.List(
        fields.String(validate=validate.OneOf(WEBHOOK_EVENTS)),
        load_default=lambda: list(GAME_EVENTS),  # log.checkpoint only when asked for
        validate=validate.Length(min=1, max=len(WEBHOOK_EVENTS)),
    )


class DeliveriesQuerySchema(Schema):
    """Query of ``GET /v1/webhooks/{webhook_id}/deliveries``."""

    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    cursor = fields.String(load_default=None, validate=validate.Length(min=1, max=400))


class BatchesQuerySchema(Schema):
    """Query of ``GET /v1/batches``."""

    #: only the batches whose ref starts with this (an event's rounds: ``event-77/``)
    ref_prefix = fields.String(load_default=None, validate=REF)
    limit = fields.Integer(load_default=50, validate=validate.Range(min=1, max=200))
    cursor = fields.String(load_default=None, validate=validate.Length(min=1, max=400))


class ResultsQuerySchema(Schema):
    """Query of ``GET /v1/batches/{batch_id}/results``."""

    format = fields.String(load_default=None, validate=validate.OneOf(["json", "csv"]))


# ------------------------------------------------------------------ responses


class OrganiserSchema(Schema):
    """An organiser (``GET /v1/organisers/me``)."""

    id = fields.String(required=True)
    name = fields.String(required=True)
    created_at = fields.String(required=True)


class OrganiserCreatedSchema(OrganiserSchema):
    """``POST /v1/organisers`` answer: the only time the token is shown."""

    token = fields.String(required=True)


class BatchGameCreatedSchema(NewGameSchema):
    """One game of a new batch, with its tokens."""

    table = fields.Integer(required=True)


class BatchCreatedSchema(Schema):
    """``POST /v1/batches`` answer: the only time the games' tokens are shown."""

    id = fields.String(required=True)
    name = fields.String(allow_none=True, required=True)
    type = fields.String(required=True)
    created_at = fields.String(required=True)
    ref = fields.String(allow_none=True, required=True)
    starts_at = fields.String(allow_none=True, required=True)
    games = fields.List(fields.Nested(BatchGameCreatedSchema), required=True)


class BatchSummarySchema(Schema):
    """A batch in the organiser's listing."""

    id = fields.String(required=True)
    name = fields.String(allow_none=True, required=True)
    type = fields.String(required=True)
    tables = fields.Integer(required=True)
    created_at = fields.String(required=True)
    ref = fields.String(allow_none=True, required=True)
    starts_at = fields.String(allow_none=True, required=True)


class BatchesPageSchema(Schema):
    """``GET /v1/batches``."""

    batches = fields.List(fields.Nested(BatchSummarySchema), required=True)
    next_cursor = fields.String(allow_none=True, required=True)


class BatchPlayerSchema(Schema):
    """A seat of a batch game."""

    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    bot = fields.String(allow_none=True)
    ref = fields.String(allow_none=True, required=True)


class BatchGameSchema(Schema):
    """One game of a batch and how far it is."""

    table = fields.Integer(required=True)
    ref = fields.String(allow_none=True, required=True)
    id = fields.String(required=True)
    status = fields.String(required=True)
    version = fields.Integer(required=True)
    updated_at = fields.String(required=True)
    players = fields.List(fields.Nested(BatchPlayerSchema), required=True)
    damaged_from = fields.Integer()  # only for a damaged game: its first bad event


class BatchSchema(Schema):
    """``GET /v1/batches/{batch_id}``."""

    id = fields.String(required=True)
    name = fields.String(allow_none=True, required=True)
    type = fields.String(required=True)
    created_at = fields.String(required=True)
    ref = fields.String(allow_none=True, required=True)
    starts_at = fields.String(allow_none=True, required=True)
    finished = fields.Boolean(required=True)
    status_counts = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    games = fields.List(fields.Nested(BatchGameSchema), required=True)


class PlayerResultSchema(Schema):
    """One player's line of a batch result."""

    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    ref = fields.String(allow_none=True, required=True)
    score = fields.Integer(allow_none=True, required=True)
    rank = fields.Integer(allow_none=True, required=True)
    winner = fields.Boolean(required=True)
    completed_tickets = fields.Integer(allow_none=True, required=True)
    standing = fields.String(required=True, validate=validate.OneOf(STANDINGS))


class TableResultSchema(Schema):
    """One table of a batch result."""

    table = fields.Integer(required=True)
    ref = fields.String(allow_none=True, required=True)
    game_id = fields.String(required=True)
    status = fields.String(required=True)
    winners = fields.List(fields.Integer(), required=True)
    reason = fields.String(allow_none=True, required=True)
    players = fields.List(fields.Nested(PlayerResultSchema), required=True)
    damaged_from = fields.Integer()  # only for a damaged table: its game's first bad event


class BatchResultsSchema(Schema):
    """``GET /v1/batches/{batch_id}/results`` as JSON."""

    batch = fields.String(required=True)
    ref = fields.String(allow_none=True, required=True)
    type = fields.String(required=True)
    finished = fields.Boolean(required=True)
    tables = fields.List(fields.Nested(TableResultSchema), required=True)


class StandingsQuerySchema(Schema):
    """Query of ``GET /v1/organisers/me/standings``: the rounds to sum (``batch`` repeated)."""

    batch = fields.List(fields.String(validate=validate.Length(min=1, max=80)), required=True,
                        validate=validate.Length(min=1, max=50))


class PlayerStandingSchema(Schema):
    """One player's totals over the rounds named."""

    rank = fields.Integer(required=True)
    player_ref = fields.String(required=True)
    name = fields.String(required=True)
    games = fields.Integer(required=True)
    finished = fields.Integer(required=True)
    wins = fields.Integer(required=True)
    points = fields.Integer(allow_none=True, required=True)
    completed_tickets = fields.Integer(allow_none=True, required=True)
    damaged_games = fields.Integer(required=True)


class DamagedTableSchema(Schema):
    """A damaged table of the rounds named."""

    batch = fields.String(required=True)
    table = fields.Integer(required=True)
    game_id = fields.String(required=True)
    damaged_from = fields.Integer(required=True)


class StandingsSchema(Schema):
    """``GET /v1/organisers/me/standings`` as JSON."""

    type = fields.String(required=True)
    batches = fields.List(fields.String(), required=True)
    finished = fields.Boolean(required=True)
    tie_breaks = fields.List(fields.String(), required=True)
    unreferenced_seats = fields.Integer(required=True)
    standings = fields.List(fields.Nested(PlayerStandingSchema), required=True)
    damaged_tables = fields.List(fields.Nested(DamagedTableSchema), required=True)


class WebhookSchema(Schema):
    """A registered webhook (never with its secret, except once at creation)."""

    id = fields.String(required=True)
    url = fields.String(required=True)
    batch = fields.String(allow_none=True, required=True)
    events = fields.List(fields.String(), required=True)
    created_at = fields.String(required=True)


class WebhookCreatedSchema(WebhookSchema):
    """``POST /v1/webhooks`` answer: the only time the signing secret is shown."""

    secret = fields.String(required=True)


class WebhooksSchema(Schema):
    """``GET /v1/webhooks``."""

    webhooks = fields.List(fields.Nested(WebhookSchema), required=True)


class DeliveryAttemptSchema(Schema):
    """One attempt of a delivery."""

    attempt = fields.Integer(required=True)
    at = fields.String(required=True)
    status_code = fields.Integer(allow_none=True, required=True)
    error = fields.String(allow_none=True, required=True)
    duration_ms = fields.Integer(required=True)


class DeliverySchema(Schema):
    """One delivery of a webhook, with its attempts."""

    id = fields.String(required=True)
    event = fields.String(required=True)
    game_id = fields.String(allow_none=True, required=True)  # null: a log.checkpoint delivery
    state = fields.String(required=True)
    attempts = fields.Integer(required=True)
    created_at = fields.String(required=True)
    next_attempt_at = fields.String(allow_none=True, required=True)
    delivered_at = fields.String(allow_none=True, required=True)
    last_status_code = fields.Integer(allow_none=True, required=True)
    last_error = fields.String(allow_none=True, required=True)
    history = fields.List(fields.Nested(DeliveryAttemptSchema), required=True)
    payload = fields.Dict(required=True)


class DeliveriesPageSchema(Schema):
    """``GET /v1/webhooks/{webhook_id}/deliveries``."""

    webhook_id = fields.String(required=True)
    deliveries = fields.List(fields.Nested(DeliverySchema), required=True)
    next_cursor = fields.String(allow_none=True, required=True)


class SeatTokenRotatedSchema(Schema):
    """``POST /v1/games/{id}/seats/{seat}/token`` answer: the seat's new token."""

    game_id = fields.String(required=True)
    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    token = fields.String(required=True)
