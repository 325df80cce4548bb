"""The offline verifier of a game record (an export), trusting nobody.

Given a complete record (the JSON of ``GET /v1/games/{id}/export``), it checks
with no server and no database:

1. ``chain``: every event's SHA-256 hash, the ``prev_hash`` links, and ``seq``
   continuity (an edited, removed or reordered event breaks it);
   ``signatures``: every event's Ed25519 signature of its hash, against the
   server's public keys (``GET /v1/keys``, saved: ``cablecar verify --keys``).
   A chain anyone can recompute, a signature only the private key's holder:
   a record rebuilt or stripped of signatures fails here, as does an event
   recorded before its key was made or after it was retired, or before the
   game's own ``created_at`` (rules: :mod:`events.integrity.keyset`); without
   keys the check is not made (never ``ok``);
2. ``seed``: the revealed seed matches the commitment published at creation
   (the detail flags an open deal: the caller's seed alone made it);
3. ``setup``: the rules' setup, re-derived from the seed, produces exactly the
   recorded opening events, and the seed is the revealed server secret (mixed
   with the caller's seed, if any), or the caller's seed in an open deal;
4. ``moves``: every move (recovered from its first event) is accepted by the
   rules in the state before it and produces exactly the recorded events;
   every timeout (``seat_timed_out``, appended by the server) is one the
   clocks allow: the seat's deadline, derived from the recorded timestamps
   of the events before it, had passed when it was recorded, and its
   consequences are what the forfeit rules produce; a ``game_cancelled`` is
   accepted only before the end, a ``seat_token_rotated`` too (for a seat of
   the game), an ``events_quarantined`` anywhere, in the place of the first
   event it moved aside and with its range, count and hashes agreeing
   (:mod:`domain.custody`: neither changes the game); a ``game_scheduled`` only right after the
   setup, and then no seat acts and no clock runs until its one
   ``game_started`` (the clocks start from that event's time);
5. ``result``: the final state's status, version and result equal the record.

Each quarantine the record shows (its ``events_quarantined`` events: the seq
range and the hashes moved aside) is reported with the verdict
(:attr:`Verdict.quarantines`), whose conclusion never says a bare VALID for
such a record (:mod:`events.integrity.verdict`).

Messages name the event (``seq N (type)``) and the differing *field names*,
never their values, so the same checks can run on a game still in progress
without revealing its secrets.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from domain.core import JSON, GameDefinition
from domain.custody import EventsQuarantined
from domain.registry import game_definition
from events.encoding.codec import decode
from events.integrity.envelope import verify_events
from events.integrity.keyset import KeySet, signature_check
from events.integrity.record_shape import shape_problems
from events.integrity.replay import check_moves, check_result, check_setup
from events.integrity.seeds import is_open_deal, seed_commitment
from events.integrity.verdict import Check, Quarantine, Verdict
from events.records import IntegrityError, StoredEvent

ENVELOPE_FIELDS = ("game_id", "seq", "position", "type", "schema_version", "payload", "recorded_at", "seat",
                   "idempotency_key", "prev_hash", "hash")
#: envelope fields records written before signing lack
SIGNATURE_FIELDS = ("signature", "key_id")


def _seed_check(seed_info: Mapping[str, JSON], seed: str, salt: str, commitment: JSON) -> Check:
    """The seed against its commitment; the detail says whether the caller's
    seed alone made the deal (an open deal: predictable by whoever knew it)."""
    if seed_commitment(seed, salt) != commitment:
        return Check("seed", False, "the revealed seed does not match the published commitment")
    if is_open_deal(seed_info):
        return Check("seed", True, "the seed matches the commitment; OPEN DEAL: the caller chose the seed, "
                                   "so whoever knew it could predict every hand")
    return Check("seed", True, "the seed matches the commitment published at creation")


def parse_events(game_id: str, raw_events: Sequence[Mapping[str, JSON]]) -> tuple[list[StoredEvent], list[str]]:
    """Envelopes from export JSON; malformed entries are reported, not raised."""
    events: list[StoredEvent] = []
    problems: list[str] = []
    for i, raw in enumerate(raw_events):
        missing = [f for f in ENVELOPE_FIELDS if f not in raw]
        if missing:
            problems.append(f"event #{i + 1}: missing envelope fields {', '.join(missing)}")
            continue
        fields = {f: raw[f] for f in ENVELOPE_FIELDS}
        events.append(StoredEvent(**fields, **{f: raw.get(f) for f in SIGNATURE_FIELDS}))  # type: ignore[arg-type]
    return events, problems


def verify_record(
    header: Mapping[str, JSON],
    raw_events: Sequence[Mapping[str, JSON]],
    seed: str | None = None,
    salt: str | None = None,
    require_revealed_seed: bool = True,
    keys: KeySet | None = None,
    allow_unsigned: bool = False,
    unsigned_before: str | None = None,
) -> Verdict:
    """Verify a game record: ``header`` is the export without its events; ``keys``
    (None: not checked), ``allow_unsigned``, ``unsigned_before``: :func:`signature_check`'s.

    ``seed``/``salt`` override the header's (the server's own audit of a game
    in progress passes the secret seed; nothing of it appears in messages)."""
    game_info = header.get("game") or {}
    game_id = str(game_info.get("id", "?"))
    checks: list[Check] = []
    try:
        game = game_definition(str(game_info.get("type")))
    except KeyError:
        return Verdict(game_id, (Check("game_type", False, f"unknown game type {game_info.get('type')!r}"),))
    rules_version = game_info.get("rules_version")
    if rules_version not in (None, game.rules_version, *game.legacy_rules_versions):
        checks.append(Check("rules_version", False,
                            f"record made under rules {game_info.get('rules_version')!r}; "
                            f"this verifier implements {game.rules_version!r}"))

    # 1. the hash chain
    events, chain_check = _chain_check(header, game_info, game_id, raw_events)
    checks.append(chain_check)
    created_at = game_info.get("created_at")  # the header's date: no event of the game is older
    checks.append(signature_check(events, keys, allow_unsigned, unsigned_before,
                                  created_at if isinstance(created_at, str) else None))
    shown = quarantines_of(game, events)

    # 2. the seed against its commitment
    seed_info = header.get("seed") or {}
    seed = seed if seed is not None else seed_info.get("value")
    salt = salt if salt is not None else seed_info.get("salt")
    if seed is None or salt is None:
        checks.append(Check.not_made("seed", "the seed is not revealed in this record") if not require_revealed_seed
                      else Check("seed", False, "the seed is not revealed in this record"))
        return Verdict(game_id, tuple(checks), quarantines=shown)
    checks.append(_seed_check(seed_info, str(seed), str(salt), seed_info.get("commitment")))

    # 3. setup re-derived from the seed
    setup_check, state, opened = check_setup(game, game_info, seed_info, str(seed), events)
    checks.append(setup_check)
    if not setup_check.ok:
        return Verdict(game_id, tuple(checks), quarantines=shown)

    # 4. every move through the rules
    moves_check, state = check_moves(game, state, events, opened)
    checks.append(moves_check)
    if not moves_check.ok:
        return Verdict(game_id, tuple(checks), quarantines=shown)

    # 5. the final state against the record
    checks.append(check_result(game, state, header, game_info))
    return Verdict(game_id, tuple(checks), quarantines=shown)


def quarantines_of(game: GameDefinition[Any], events: Sequence[StoredEvent]) -> tuple[Quarantine, ...]:
    """The quarantines ``events`` record (their ``events_quarantined`` events,
    upcast; one that cannot be read is left to the ``moves`` check to name)."""
    shown: list[Quarantine] = []
    for stored in events:
        if stored.type != EventsQuarantined.TYPE:
            continue
        try:
            event = decode(game, stored)
        except IntegrityError:
            continue
        if isinstance(event, EventsQuarantined):
            shown.append(Quarantine(stored.seq, event.from_seq, event.to_seq, event.count, event.hashes,
                                    stored.recorded_at))
    return tuple(shown)


def _chain_check(
    header: Mapping[str, JSON], game_info: Mapping[str, JSON], game_id: str, raw_events: Sequence[Mapping[str, JSON]]
) -> tuple[list[StoredEvent], Check]:
    """The record's events, and the check of their hash chain (and of the published head)."""
    events, malformed = parse_events(game_id, raw_events)
    version = game_info.get("version")
    chain = verify_events(game_id, events, expected_count=version if isinstance(version, int) else None)
    chain_problems = [*malformed, *chain.problems]
    head = (header.get("chain") or {}).get("head")
    if head is not None and events and head != events[-1].hash:
        chain_problems.append("the chain head published in the record is not the last event's hash")
    return events, Check("chain", not chain_problems,
                         f"{len(events)} events chained from genesis" if not chain_problems
                         else "; ".join(chain_problems))


def verify_export(export: Mapping[str, JSON], keys: KeySet | None = None, allow_unsigned: bool = False) -> Verdict:
    """Verify a complete export document (``header`` fields plus ``events``),
    its signatures against ``keys`` if given (``allow_unsigned``: a record from before
    the server signed: unsigned events before its first signed one and its oldest key)."""
    header = {k: v for k, v in export.items() if k != "events"}
    events = export.get("events")
    game = export.get("game")
    game_id = str(game.get("id", "?")) if isinstance(game, dict) else "?"
    if not isinstance(events, list):
        return Verdict(game_id, (Check("format", False, "the record has no list of events"),))
    mistyped = shape_problems(export)
    if mistyped:
        return Verdict(game_id, (Check("format", False, "; ".join(mistyped)),))
    since = keys.signing_since() if keys is not None and allow_unsigned else None
    return verify_record(header, events, keys=keys, allow_unsigned=allow_unsigned, unsigned_before=since)
