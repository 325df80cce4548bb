"""What clients are shown of a game: its summary, its view and its events,
each as a given seat (``None``: a spectator) may see them."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from domain.core import JSON
from domain.custody import STATUS_SCHEDULED
from events.encoding.codec import decode
from events.encoding.timestamps import format_timestamp
from events.integrity.seeds import is_open_deal
from events.records import GameRecord, StoredEvent
from service.usecases.bot_seats import bot_seats
from service.usecases.loaded import Loaded


def player_refs(meta: Mapping[str, JSON], seats: int) -> list[str | None]:
    """Each seat's player ref, as the organiser gave it (None: none)."""
    refs = meta.get("player_refs")
    listed = list(refs) if isinstance(refs, list) else []
    return [str(listed[i]) if i < len(listed) and listed[i] is not None else None for i in range(seats)]


def ref_fields(meta: Mapping[str, JSON]) -> dict[str, JSON]:
    """A game's refs: its own (its table's) and its batch's, as the organiser gave them (None: none)."""
    return {"ref": meta.get("ref"), "batch_ref": meta.get("batch_ref")}


def game_summary(record: GameRecord) -> dict[str, JSON]:
    """The public summary of a game record."""
    meta = record.metadata
    refs = player_refs(meta, len(meta.get("players", [])))
    return {
        "id": record.game_id,
        "type": record.game_type,
        "status": record.status,
        "version": record.version,
        "created_at": record.created_at,
        "updated_at": record.updated_at,
        "players": [
            {"seat": i, "name": n, "bot": b, "ref": refs[i]}
            for i, (n, b) in enumerate(zip(meta.get("players", []), bot_seats(meta), strict=False))
        ],
        "seed_commitment": meta.get("seed_commitment", ""),
        "open_deal": is_open_deal(meta),
        "batch": meta.get("batch"),
        **ref_fields(meta),
        "starts_at": meta.get("starts_at") if record.status == STATUS_SCHEDULED else None,
    }


def game_view(loaded: Loaded, seat: int | None) -> dict[str, JSON]:
    """The view of a loaded game for ``seat`` with the shared top-level fields."""
    view = dict(loaded.definition.view(loaded.state, seat))
    view.update(
        id=loaded.record.game_id,
        type=loaded.record.game_type,
        version=loaded.version,
        seed_commitment=loaded.record.metadata.get("seed_commitment"),
        # every seat must be able to see that the caller's seed alone made the deal
        open_deal=is_open_deal(loaded.record.metadata),
        **clock_fields(loaded),
        **ref_fields(loaded.record.metadata),
    )
    if loaded.scheduled:  # nobody may act before the start: the view says when it is
        view.update(status=STATUS_SCHEDULED, active_seats=[], starts_at=loaded.starts_at)
    if loaded.damaged_from is not None:  # served up to the event before the first bad one
        view["damaged_from"] = loaded.damaged_from
    bots = bot_seats(loaded.record.metadata)
    players = view.get("players")
    if isinstance(players, list):
        # which seats the server plays and the organiser's refs: the same for every caller
        refs = player_refs(loaded.record.metadata, len(players))
        view["players"] = [
            {**p, "bot": bots[i] if i < len(bots) else None, "ref": refs[i]} if isinstance(p, dict) else p
            for i, p in enumerate(players)
        ]
    return view


def clock_fields(loaded: Loaded) -> dict[str, JSON]:
    """``time_control``, ``clocks`` (each seat's time left at the view's
    version) and ``deadline`` (ISO-8601 UTC of the earliest running deadline)."""
    clocks = loaded.clocks
    due = None if loaded.finished else clocks.deadline()
    return {
        "time_control": clocks.control.to_json(),
        "clocks": [
            {"seat": r.seat, "remaining_seconds": round(r.remaining_seconds, 3), "running": r.running}
            for r in clocks.readings()
        ] if not loaded.finished else [
            {"seat": r.seat, "remaining_seconds": round(r.remaining_seconds, 3), "running": False}
            for r in clocks.readings()
        ],
        "deadline": None if due is None else format_timestamp(datetime.fromtimestamp(due, UTC)),
    }


def render_event(loaded: Loaded, stored: StoredEvent, seat: int | None, domain_event: Any = None) -> dict[str, JSON]:
    """One stored event as ``seat`` may see it (hashes and signatures only
    once finished: a hash over a redacted secret could be brute-forced, and a
    signature confirms a guessed hash).  ``domain_event``
    is the event ``stored`` holds, when the caller has it (saves decoding)."""
    definition = loaded.definition
    if domain_event is None:
        domain_event = decode(definition, stored)
    finished = loaded.finished
    payload = dict(domain_event.to_payload()) if finished else definition.redact(loaded.state, domain_event, seat)
    out: dict[str, JSON] = {
        "seq": stored.seq,
        "type": stored.type,
        "schema_version": domain_event.SCHEMA_VERSION,
        "seat": stored.seat,
        "recorded_at": stored.recorded_at,
        "payload": payload,
    }
    if stored.key_id is not None:
        out["key_id"] = stored.key_id
    if finished:
        out["prev_hash"] = stored.prev_hash
        out["hash"] = stored.hash
        # like the hash: a signature confirms a guessed hash, so it waits for the end too
        if stored.signature is not None:
            out["signature"] = stored.signature
    return out
