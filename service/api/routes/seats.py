"""Host management endpoints (host token): rotate a seat's lost token, cancel the game."""

from __future__ import annotations

from typing import Any

from flask import Blueprint, Response, json

from service.api.routes.edge import authorization, empty_body
from service.api.runtime import runtime
from service.api.schemas.responses import GameViewSchema
from service.api.schemas.tournament import SeatTokenRotatedSchema
from service.usecases.auth import game_caller, require_host
from service.usecases.presentation import game_view
from service.usecases.seat_tokens import rotate_seat_token

bp = Blueprint("seats", __name__, url_prefix="/v1")
_GAME_VIEW = GameViewSchema()


@bp.post("/games/<game_id>/seats/<int:seat>/token")
def rotate_token(game_id: str, seat: int) -> dict[str, Any]:
    """Give a seat a new token (the old one stops working); host token only."""
    empty_body()
    rt = runtime()
    record = rt.stores.events.get_game(game_id)
    require_host(game_caller(rt.tokens, record, authorization()))
    rotated = rotate_seat_token(rt.commands, game_id, seat)
    body = {"game_id": rotated.game_id, "seat": rotated.seat, "name": rotated.name, "token": rotated.token}
    return SeatTokenRotatedSchema().dump(body)


@bp.post("/games/<game_id>/cancel")
def cancel_game(game_id: str) -> Response:
    """End the game with no result (status ``cancelled``); host token only;
    409 ``game_finished`` once it is over.  Answers the game as a spectator sees it."""
    empty_body()
    rt = runtime()
    loaded = rt.commands.cancel(game_id, authorization())
    body = _GAME_VIEW.dump(game_view(loaded, None))
    resp = Response(json.dumps(body), mimetype="application/json")
    resp.headers["ETag"] = f'"{loaded.version}"'
    return resp
