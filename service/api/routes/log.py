"""The transparency log (issue 35): signed checkpoints, consistency proofs
between them, and a finished game's inclusion proof (the logic is
:mod:`service.usecases.checkpoints`'s)."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, request

from events.integrity.checkpoint import b64
from service.api.runtime import runtime
from service.api.schemas.log_schemas import (
    CheckpointQuerySchema,
    CheckpointSchema,
    ConsistencyQuerySchema,
    ConsistencySchema,
    InclusionSchema,
)
from service.usecases.checkpoints import checkpoint_json

bp = Blueprint("log", __name__)

_CHECKPOINT_QUERY = CheckpointQuerySchema()
_CONSISTENCY_QUERY = ConsistencyQuerySchema()
_CHECKPOINT = CheckpointSchema()
_CONSISTENCY = ConsistencySchema()
_INCLUSION = InclusionSchema()


@bp.get("/v1/log/checkpoint")
def checkpoint() -> dict[str, Any]:
    """The latest signed checkpoint, or the one of ``tree_size``."""
    q = _CHECKPOINT_QUERY.load(request.args.to_dict())
    return _CHECKPOINT.dump(checkpoint_json(runtime().log.checkpoint(q["tree_size"])))


@bp.get("/v1/log/consistency")
def consistency() -> dict[str, Any]:
    """The consistency proof between two published checkpoints."""
    q = _CONSISTENCY_QUERY.load(request.args.to_dict())
    proof = runtime().log.consistency(q["first"], q["second"])
    return _CONSISTENCY.dump({"first": q["first"], "second": q["second"], "proof": [b64(h) for h in proof]})


@bp.get("/v1/games/<game_id>/inclusion")
def inclusion(game_id: str) -> dict[str, Any]:
    """The inclusion proof of a finished game's last event in a published tree."""
    q = _CHECKPOINT_QUERY.load(request.args.to_dict())
    cp, leaf, proof = runtime().log.inclusion(game_id, q["tree_size"])
    return _INCLUSION.dump({"tree_size": cp.tree_size, "leaf_index": leaf.leaf_index, "seq": leaf.seq,
                            "proof": [b64(h) for h in proof]})
