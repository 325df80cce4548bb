"""What a creation answers: a new game's or a new batch's body, with the
seats' tokens and the host token (shown only there, once)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from domain.core import JSON
from events.recorders.tournaments import BatchRecord
from service.usecases.batches import CreatedBatch
from service.usecases.bot_seats import bot_seats
from service.usecases.creation import CreatedGame
from service.usecases.presentation import player_refs


def _seats(meta: Mapping[str, JSON], seat_tokens: Sequence[str | None]) -> list[dict[str, JSON]]:
    return [
        {"seat": seat, "name": name, "token": token, "bot": bot, "ref": ref}
        for seat, (name, token, bot, ref) in enumerate(
            zip(meta["players"], seat_tokens, bot_seats(meta), player_refs(meta, len(seat_tokens)),
                strict=True)
        )
    ]


def _game(meta: Mapping[str, JSON], seat_tokens: Sequence[str | None], host_token: str) -> dict[str, JSON]:
    return {
        "seed_commitment": meta["seed_commitment"],
        "seed_source": meta["seed_source"],
        "open_deal": meta["open_deal"],
        "seats": _seats(meta, seat_tokens),
        "host_token": host_token,
    }


def created_game(created: CreatedGame) -> dict[str, JSON]:
    """The answer of ``POST /v1/games``."""
    meta = created.record.metadata
    return {
        "id": created.record.game_id,
        "type": created.record.game_type,
        "status": created.status,
        "version": created.version,
        **_game(meta, created.seat_tokens, created.host_token),
        "ref": meta.get("ref"),
        "time_control": meta.get("time_control", {"kind": "none"}),
    }


def created_batch(created: CreatedBatch) -> dict[str, JSON]:
    """The answer of ``POST /v1/batches``: the batch and its games in table order."""
    batch = created.batch
    games: list[JSON] = [
        {
            "table": index,
            "ref": game.metadata.get("ref"),
            "starts_at": game.metadata.get("starts_at"),
            "id": game.game_id,
            "status": game.status,
            "version": game.version,
            **_game(game.metadata, game.seat_tokens, game.host_token),
        }
        for index, game in enumerate(created.games)
    ]
    return {**batch_fields(batch), "games": games}


def batch_fields(batch: BatchRecord) -> dict[str, JSON]:
    """What every answer about a batch says of it first (its creation's, its own)."""
    return {
        "id": batch.batch_id,
        "name": batch.name,
        "type": batch.game_type,
        "created_at": batch.created_at,
        "ref": batch.ref,
        "starts_at": batch.starts_at,
    }
