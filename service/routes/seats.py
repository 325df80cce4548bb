"""Host management endpoints (host token): rotate a seat's lost token."""

from __future__ import annotations

from typing import Any

from flask import Blueprint

from service.auth import game_caller, require_host
from service.routes.edge import authorization
from service.runtime import runtime
from service.schemas.tournament import SeatTokenRotatedSchema
from service.seat_tokens import rotate_seat_token

bp = Blueprint("seats", __name__, url_prefix="/v1")


@bp.post("/games/<game_id>/seats/<int:seat>/token")
def rotate_token(game_id: str, seat: int) -> dict[str, Any]:
    """Give a seat a new token (the old one stops working); host token only."""
    rt = runtime()
    record = rt.store.get_game(game_id)
    require_host(game_caller(rt.store, record, authorization()))
    rotated = rotate_seat_token(rt.store, game_id, seat)
    body = {"game_id": rotated.game_id, "seat": rotated.seat, "name": rotated.name, "token": rotated.token}
    return SeatTokenRotatedSchema().dump(body)
