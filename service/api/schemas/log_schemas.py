"""Schemas of the transparency log's endpoints (issue 35): their queries and answers."""

from __future__ import annotations

from marshmallow import Schema, fields, validate

from service.api.schemas.requests import MAX_INT

_SIZE = validate.Range(min=1, max=MAX_INT)


class CheckpointQuerySchema(Schema):
    """Query of ``GET /v1/log/checkpoint`` and ``GET /v1/games/{id}/inclusion``."""

    tree_size = fields.Integer(load_default=None, validate=_SIZE)


class ConsistencyQuerySchema(Schema):
    """Query of ``GET /v1/log/consistency``."""

    first = fields.Integer(required=True, validate=_SIZE)
    second = fields.Integer(required=True, validate=_SIZE)


class CheckpointSchema(Schema):
    """``GET /v1/log/checkpoint``: a published signed checkpoint."""

    origin = fields.String(required=True)
    tree_size = fields.Integer(required=True)
    root_hash = fields.String(required=True)
    note = fields.String(required=True)
    key_id = fields.String(required=True)


class ConsistencySchema(Schema):
    """``GET /v1/log/consistency``: RFC 9162 §2.1.4's proof between two published sizes."""

    first = fields.Integer(required=True)
    second = fields.Integer(required=True)
    proof = fields.List(fields.String(), required=True)


class InclusionSchema(Schema):
    """``GET /v1/games/{id}/inclusion``: RFC 9162 §2.1.3's proof of a finished game's last event."""

    tree_size = fields.Integer(required=True)
    leaf_index = fields.Integer(required=True)
    seq = fields.Integer(required=True)
    proof = fields.List(fields.String(), required=True)
