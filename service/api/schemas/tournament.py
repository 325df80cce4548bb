"""Schemas of the organiser endpoints: organisers, batches, webhooks, and the
host's seat-token rotation."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from domain.forfeits import STANDINGS
from service.adapters.webhooks.hmac import GAME_EVENTS, WEBHOOK_EVENTS
from service.api.schemas.requests import LABEL, SEED, IntegralNumber, PlayersSchema, StrictBoolean
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


class CreateBatchSchema(Schema):
    """Body of ``POST /v1/batches``."""

    type = fields.String(required=True, validate=validate.Length(min=1, max=40))
    tables = fields.List(
        fields.Nested(TableInSchema), required=True, validate=validate.Length(min=1)
    )
    name = fields.String(load_default=None, allow_none=True, validate=LABEL)
    # every table's time control unless the table names its own
    time_control = fields.Dict(load_default=None, allow_none=True)


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
    games = fields.List(fields.Nested(BatchGameCreatedSchema), required=True)


class BatchSummarySchema(Schema):
    """A batch in the organiser's listing."""

    id = fields.String(required=True)
    name = fields.String(allow_none=True, required=True)
    type = fields.String(required=True)
    tables = fields.Integer(required=True)
    created_at = fields.String(required=True)


class BatchesPageSchema(Schema):
    """``GET /v1/batches``."""

    batches = fields.List(fields.Nested(BatchSummarySchema), required=True)
    next_cursor = fields.String(allow_none=True, required=True)


class BatchPlayerSchema(Schema):
    """A seat of a batch game."""

    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    bot = fields.String(allow_none=True)


class BatchGameSchema(Schema):
    """One game of a batch and how far it is."""

    table = fields.Integer(required=True)
    id = fields.String(required=True)
    status = fields.String(required=True)
    version = fields.Integer(required=True)
    updated_at = fields.String(required=True)
    players = fields.List(fields.Nested(BatchPlayerSchema), required=True)


class BatchSchema(Schema):
    """``GET /v1/batches/{batch_id}``."""

    id = fields.String(required=True)
    name = fields.String(allow_none=True, required=True)
    type = fields.String(required=True)
    created_at = fields.String(required=True)
    finished = fields.Boolean(required=True)
    status_counts = fields.Dict(keys=fields.String(), values=fields.Integer(), required=True)
    games = fields.List(fields.Nested(BatchGameSchema), required=True)


class PlayerResultSchema(Schema):
    """One player's line of a batch result."""

    seat = fields.Integer(required=True)
    name = fields.String(required=True)
    score = fields.Integer(allow_none=True, required=True)
    rank = fields.Integer(allow_none=True, required=True)
    winner = fields.Boolean(required=True)
    completed_tickets = fields.Integer(allow_none=True, required=True)
    standing = fields.String(required=True, validate=validate.OneOf(STANDINGS))


class TableResultSchema(Schema):
    """One table of a batch result."""

    table = fields.Integer(required=True)
    game_id = fields.String(required=True)
    status = fields.String(required=True)
    winners = fields.List(fields.Integer(), required=True)
    reason = fields.String(allow_none=True, required=True)
    players = fields.List(fields.Nested(PlayerResultSchema), required=True)


class BatchResultsSchema(Schema):
    """``GET /v1/batches/{batch_id}/results`` as JSON."""

    batch = fields.String(required=True)
    type = fields.String(required=True)
    finished = fields.Boolean(required=True)
    tables = fields.List(fields.Nested(TableResultSchema), required=True)


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
