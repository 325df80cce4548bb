"""Complete game records (exports) and audits of stored games."""

from __future__ import annotations

import time
from typing import Any

from domain.core import STATUS_CANCELLED, STATUS_FINISHED
from domain.rng import ALGORITHM
from events.integrity.seeds import DERIVATION, is_open_deal
from events.integrity.verdict import Check, Verdict
from events.integrity.verify import verify_record
from events.records import DamagedEvent, GameRecord, StoredEvent
from service.adapters.lru import LRU
from service.errors import BrokenGame, GameDamaged, GameNotFinished
from service.usecases.attested import log_inclusion
from service.usecases.bot_seats import METADATA_KEY as BOTS_KEY
from service.usecases.bot_seats import bot_seats
from service.usecases.loaded import Loaded
from service.usecases.queries import GameQueries

EXPORT_FORMAT = "cablecar-export/1"


def envelope_json(e: StoredEvent) -> dict[str, Any]:
    """A stored event with every envelope field, unredacted (``signature`` and
    ``key_id`` only on signed events: a record written before the server
    signed exports exactly as it did)."""
    out = {
        "game_id": e.game_id,
        "seq": e.seq,
        "position": e.position,
        "type": e.type,
        "schema_version": e.schema_version,
        "payload": dict(e.payload),
        "recorded_at": e.recorded_at,
        "seat": e.seat,
        "idempotency_key": e.idempotency_key,
        "prev_hash": e.prev_hash,
        "hash": e.hash,
    }
    if e.signature is not None or e.key_id is not None:
        out["signature"] = e.signature
        out["key_id"] = e.key_id
    return out


def export_header(loaded: Loaded) -> dict[str, Any]:
    """Everything of an export except the events."""
    header = record_header(loaded.record)
    game = header["game"]
    game.update(status=loaded.definition.status(loaded.state), version=loaded.version)
    game["rules_version"] = game["rules_version"] or loaded.definition.rules_version
    game["board_version"] = game["board_version"] or loaded.definition.board_version
    header["result"] = loaded.definition.result(loaded.state)
    return header


def record_header(record: GameRecord) -> dict[str, Any]:
    """What the game's row says of it, in the shape of an export's header
    (without the result, which needs the replayed state)."""
    meta = record.metadata
    header: dict[str, Any] = {
        "format": EXPORT_FORMAT,
        "game": {
            "id": record.game_id,
            "type": record.game_type,
            "status": record.status,
            "version": record.version,
            "created_at": record.created_at,
            "players": list(meta.get("players", [])),
            "start_seat": meta.get("start_seat", 0),
            "rules_version": meta.get("rules_version"),
            "board_version": meta.get("board_version"),
            "batch": meta.get("batch"),
        },
        "seed": {
            "value": meta.get("seed"),
            "salt": meta.get("salt"),
            "commitment": meta.get("seed_commitment"),
            "source": meta.get("seed_source"),
            "open_deal": is_open_deal(meta),
            "caller_seed": meta.get("caller_seed"),
            "server_secret": meta.get("server_secret"),
            "commitment_scheme": "sha256(salt + ':' + seed)",
            "derivation": DERIVATION,
            "rng": ALGORITHM,
        },
    }
    if BOTS_KEY in meta:  # only games with bot seats say so: older records export byte for byte as before
        header["game"]["bots"] = bot_seats(meta)
    # The organiser's refs (issue 40), only where given: facts of the game's row like its batch, fixed by the
    # database from creation on, but outside the signed chain (the verifier does not judge them).
    for name in ("ref", "batch_ref", "player_refs", "starts_at"):
        if name in meta:
            header["game"][name] = meta[name]
    return header


def export_game(queries: GameQueries, game_id: str) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """The complete record of a finished game: (header, events).  A damaged
    game's record is what is good of it, once that is finished, saying
    ``damaged_from`` (the first event left out); or, when the game ended and
    the transparency log holds its whole record as stored (no quarantine can
    move a logged event), that whole record, saying ``damaged_from`` (the
    first event whose signature fails), so that ``cablecar verify`` judges
    the record ``/audit`` judges (:func:`_logged_record`)."""
    loaded = queries.readable(game_id)
    if loaded.damaged_from is not None and not loaded.finished:
        logged = _logged_record(queries, loaded)
        if logged is not None:
            return logged
    if not loaded.finished:
        raise GameNotFinished("the export (with the seed) is available once the game is finished")
    limit = None if loaded.damaged_from is None else loaded.version
    events = [envelope_json(e) for e in queries.reader.load(game_id, 0, limit)]
    return _finished_header(loaded, events, loaded.damaged_from), events


def _finished_header(loaded: Loaded, events: list[dict[str, Any]], damaged_from: int | None) -> dict[str, Any]:
    header = export_header(loaded)
    header["chain"] = {"length": len(events), "head": events[-1]["hash"] if events else None}
    leaf_salt = loaded.record.metadata.get("leaf_salt")
    if leaf_salt is not None:  # the transparency log's salt of the game's leaves, secret until now
        header["leaf_salt"] = leaf_salt
    if damaged_from is not None:
        header["damaged_from"] = damaged_from
    return header


def _logged_record(queries: GameQueries, good: Loaded) -> tuple[dict[str, Any], list[dict[str, Any]]] | None:
    """The whole stored record of a damaged game whose row says it ended, when
    its rows chain, the rules accept every event and end the game, and the
    latest checkpoint holds its last event as stored: only signatures fail,
    and the log fixes the record as it is (issue 48).  None otherwise."""
    record = good.record
    if queries.log is None or record.status not in (STATUS_FINISHED, STATUS_CANCELLED):
        return None
    try:
        whole = queries.as_stored(record)
    except (GameDamaged, BrokenGame):
        return None
    stored = queries.reader.load(record.game_id, 0, whole.version)
    if not whole.finished or not stored or not log_inclusion(queries.log, record, stored[-1]).ok:
        return None
    events = [envelope_json(e) for e in stored]
    header = _finished_header(whole, events, good.damaged_from)
    verdict = verify_record(header, events)  # every check but the signatures (not made here)
    if any(not c.ok for c in verdict.checks if c.name != "signatures"):
        return None
    return header, events


def audit_game(queries: GameQueries, game_id: str) -> dict[str, Any]:
    """Run the offline verifier's checks on the stored game (hash chain, seed
    against its commitment, setup re-derived from the seed, every move through
    the rules, final result).  For a game in progress the server's secret seed
    is used but never shown: messages name events and fields, not values.

    Replaying every move costs tens of milliseconds of CPU, so the answer is
    kept per (game, version, status) in this process and given again for
    :data:`AUDIT_REUSE_SECONDS` (a new version is audited anew at once)."""
    try:
        loaded = queries.load(game_id)
    except GameDamaged as damaged:
        # What cannot be written to is still audited, from the rows as stored:
        # the verdict names the event that is not genuine, and whether the
        # transparency log holds the record as stored (damaged and log-attested).
        return {**_audit_damaged(queries, queries.record(game_id)), "damaged_from": damaged.seq,
                **quarantine_report(queries, game_id)}
    key = (game_id, loaded.version, loaded.record.version, loaded.record.status)
    kept = _AUDITS.get(key)
    if kept is not None and time.monotonic() - kept[0] < AUDIT_REUSE_SECONDS:
        return dict(kept[1])
    header = export_header(loaded)
    header["game"]["status"] = loaded.record.status
    header["game"]["version"] = loaded.record.version
    stored = queries.reader.load(game_id)
    events = [envelope_json(e) for e in stored]
    verdict = verify_record(header, events, require_revealed_seed=False, **signature_rules(queries))
    verdict = _with_log(queries, loaded.record, stored, verdict)
    named = {} if verdict.damaged_from is None else {"damaged_from": verdict.damaged_from}
    answer = {"version": loaded.version, **verdict.to_json(), **named, **quarantine_report(queries, game_id)}
    _AUDITS.put(key, (time.monotonic(), answer))
    return dict(answer)


def _with_log(queries: GameQueries, record: GameRecord, stored: list[StoredEvent], verdict: Verdict) -> Verdict:
    """A failed ``verdict`` with the server's ``inclusion`` check (whether the
    log holds the record as stored: :mod:`service.usecases.attested`), as
    ``cablecar verify --checkpoint`` adds it, once a published checkpoint
    holds the game's last event; any other verdict as it is."""
    if not verdict.failed or queries.log is None or not stored:
        return verdict
    inclusion = log_inclusion(queries.log, record, stored[-1])
    return verdict.with_checks(inclusion) if inclusion.checked else verdict


def signature_rules(queries: GameQueries) -> dict[str, Any]:
    """How the audit checks signatures: against the server's own keys, with
    unsigned events allowed only if recorded before its oldest key was made
    (records from before the server signed), never later ones."""
    keys = queries.keys
    since = keys.signing_since() if keys is not None else None
    return {"keys": keys, "allow_unsigned": since is not None, "unsigned_before": since}


#: seconds an audit answer is given again for the same game version (a row
#: changed behind the append path at that version shows after at most this)
AUDIT_REUSE_SECONDS = 30.0
#: audit answers of this process, by (game, version, row version, status)
_AUDITS: LRU[tuple[str, int, int, str], tuple[float, dict[str, Any]]] = LRU(512)


def _audit_damaged(queries: GameQueries, record: GameRecord) -> dict[str, Any]:
    try:
        stored = queries.reader.load(record.game_id)
    except DamagedEvent as e:
        unreadable = Check("chain", False, f"seq {e.seq}: the stored event cannot be read ({e.reason})")
        return {"version": record.version, **Verdict(record.game_id, (unreadable,)).to_json()}
    events = [envelope_json(e) for e in stored]
    verdict = verify_record(record_header(record), events, require_revealed_seed=False, **signature_rules(queries))
    return {"version": record.version, **_with_log(queries, record, stored, verdict).to_json()}


def quarantine_report(queries: GameQueries, game_id: str) -> dict[str, Any]:
    """``{"quarantined": [...]}``: each tail of the game an operator moved aside
    (``from_seq``, ``count``, ``quarantined_at``, ``reason``); empty for a
    game that never had one, or a store that keeps no quarantine."""
    runs = [] if queries.quarantine is None else queries.quarantine.quarantined(game_id)
    return {"quarantined": [run.to_json() for run in runs]} if runs else {}
