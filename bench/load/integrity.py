"""After a phase: was any event lost or duplicated, and does every game audit?

For each scripted game the store's events are compared, one by one, with the
events the local script says the acknowledged actions made:

* **lost**: the client got a 201 for an action whose events are not stored;
* **duplicated**: more events are stored than the acknowledged actions (plus
  the one action whose answer the client never saw) can explain, or one
  Idempotency-Key was applied twice;
* **mismatched**: a stored event differs (type, seat, payload) from the
  script, or carries another action's Idempotency-Key;
* **gaps**: seq numbers that do not run 1, 2, 3, ...

and ``GET /v1/games/{id}/audit`` (the offline verifier's checks: hash chain,
seed commitment, setup, every move through the rules) must answer ``ok``.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from bench.load.clients import GameLedger
from bench.load.http import Connection, TransportFailure
from events.encoding.codec import dumps_payload
from events.recorders.event_log import EventStore
from events.records import StoredEvent
from service.usecases.commands import seat_key


@dataclass(frozen=True)
class GameCheck:
    """The verdict on one game."""

    game_id: str
    events: int
    lost: int
    duplicated: int
    mismatched: int
    gaps: int
    audit_ok: bool
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """Nothing lost, duplicated or changed, and the audit passed."""
        return not (self.lost or self.duplicated or self.mismatched or self.gaps) and self.audit_ok


@dataclass(frozen=True)
class IntegrityReport:
    """The verdict on every game of a phase."""

    games: int
    events: int
    acknowledged_actions: int
    in_doubt: int
    lost: int
    duplicated: int
    mismatched: int
    gaps: int
    audits_ok: int
    problems: tuple[str, ...]

    @property
    def ok(self) -> bool:
        """No game has a problem."""
        return not (self.lost or self.duplicated or self.mismatched or self.gaps) and self.audits_ok == self.games


def _key_groups(stored: Sequence[StoredEvent]) -> list[str]:
    """Idempotency keys in append order (consecutive equal keys are one append)."""
    keys: list[str] = []
    previous: str | None = None
    for e in stored:
        if e.idempotency_key is not None and e.idempotency_key != previous:
            keys.append(e.idempotency_key)
        previous = e.idempotency_key
    return keys


def check_game(store: EventStore, base_url: str, ledger: GameLedger, audit: bool = True) -> GameCheck:
    """Compare one game's stored events with its script, then audit it."""
    script = ledger.script
    stored = store.load(ledger.game_id)
    problems: list[str] = []
    gaps = sum(1 for i, e in enumerate(stored, 1) if e.seq != i)
    low = script.version_after(ledger.acked)
    high = script.version_after(min(len(script.actions), ledger.acked + (1 if ledger.in_doubt else 0)))
    lost = max(0, low - len(stored))
    extra = max(0, len(stored) - high)
    if len(stored) not in (low, high):
        problems.append(f"{ledger.game_id}: {len(stored)} events stored, acknowledged actions explain {low}..{high}")
    expected = script.expected_events(len(script.actions))
    mismatched = 0
    owner: list[int | None] = [None] * len(script.setup)
    for i, action in enumerate(script.actions):
        owner.extend([i] * len(action.events))
    for e, want, who in zip(stored, expected, owner, strict=False):
        key = None if who is None else seat_key(script.actions[who].seat, ledger.key(who))
        got = (e.type, e.seat, dumps_payload(e.payload), e.idempotency_key)
        if got != (want.type, want.seat, want.payload_json, key):
            mismatched += 1
            if len(problems) < 5:
                problems.append(f"{ledger.game_id} seq {e.seq}: stored {got[0]}/{got[3]}, script {want.type}/{key}")
    keys = _key_groups(stored)
    duplicated = extra + (len(keys) - len(set(keys)))
    audit_ok = True
    if audit:
        audit_ok, detail = audit_game(base_url, ledger.game_id)
        if not audit_ok:
            problems.append(f"{ledger.game_id}: audit failed: {detail}")
    return GameCheck(ledger.game_id, len(stored), lost, duplicated, mismatched, gaps, audit_ok, tuple(problems))


def audit_game(base_url: str, game_id: str) -> tuple[bool, str]:
    """``GET /v1/games/{id}/audit``: (ok, detail), retried through 503s."""
    conn = Connection(base_url, timeout=120)
    try:
        for _ in range(20):
            try:
                answer = conn.request("GET", f"/v1/games/{game_id}/audit")
            except TransportFailure as e:
                detail = str(e)
                continue
            if answer.status == 200 and isinstance(answer.body, dict):
                return bool(answer.body.get("ok")), "; ".join(answer.body.get("problems", []))[:300]
            detail = f"{answer.status} {answer.code}"
            if answer.status != 503:
                break
        return False, detail
    finally:
        conn.close()


def check_games(
    store: EventStore, base_url: str, ledgers: Sequence[GameLedger], audit: bool = True, parallel: int = 4
) -> IntegrityReport:
    """Check every game (``parallel`` audits at a time)."""
    with ThreadPoolExecutor(max_workers=parallel) as pool:
        checks = list(pool.map(lambda ledger: check_game(store, base_url, ledger, audit), ledgers))
    problems = [p for c in checks for p in c.problems]
    return IntegrityReport(
        games=len(checks),
        events=sum(c.events for c in checks),
        acknowledged_actions=sum(ledger.acked for ledger in ledgers),
        in_doubt=sum(1 for ledger in ledgers if ledger.in_doubt),
        lost=sum(c.lost for c in checks),
        duplicated=sum(c.duplicated for c in checks),
        mismatched=sum(c.mismatched for c in checks),
        gaps=sum(c.gaps for c in checks),
        audits_ok=sum(1 for c in checks if c.audit_ok),
        problems=tuple(problems[:20]),
    )
