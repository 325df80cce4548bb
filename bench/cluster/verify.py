"""After the run: every acknowledged action against the primary's log, every
game audited through the load balancer, every stream against the log."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from bench.cluster.clients import GamePlay, Spectator
from bench.load.http import Connection, TransportFailure
from events.recorders.event_log import EventStore
from events.records import StoredEvent


@dataclass
class Verdict:
    games: int = 0
    events: int = 0
    acknowledged: int = 0
    lost: int = 0
    duplicated: int = 0
    #: acknowledged actions stored with other contents (seq, type or hash) than their answer showed
    changed: int = 0
    gaps: int = 0
    unacknowledged_applied: int = 0
    audits_ok: int = 0
    audits_failed: int = 0
    streams: int = 0
    streams_matching: int = 0
    stream_events: int = 0
    problems: list[str] = field(default_factory=list)

    def note(self, text: str) -> None:
        if len(self.problems) < 20:
            self.problems.append(text)


def _groups(stored: list[StoredEvent]) -> list[str]:
    """Idempotency keys in log order, one per append (consecutive events share it)."""
    keys: list[str] = []
    previous: str | None = None
    for e in stored:
        if e.idempotency_key is not None and e.idempotency_key != previous:
            keys.append(e.idempotency_key)
        previous = e.idempotency_key
    return keys


def check_games(primary: EventStore, plays: list[GamePlay], verdict: Verdict) -> dict[str, list[StoredEvent]]:
    """Each game's log on the primary against what its writer was acknowledged."""
    logs: dict[str, list[StoredEvent]] = {}
    for play in plays:
        stored = primary.load(play.game_id)
        logs[play.game_id] = stored
        verdict.games += 1
        verdict.events += len(stored)
        verdict.acknowledged += len(play.acked)
        if [e.seq for e in stored] != list(range(1, len(stored) + 1)):
            verdict.gaps += 1
            verdict.note(f"{play.game_id}: seqs are not 1..{len(stored)}")
        by_key: dict[str, list[StoredEvent]] = {}
        for e in stored:
            if e.idempotency_key is not None:
                by_key.setdefault(e.idempotency_key, []).append(e)
        groups = Counter(_groups(stored))
        verdict.duplicated += sum(n - 1 for n in groups.values())
        for key, acked in play.acked.items():
            events = by_key.get(key)
            hashed = any(shown[4] for shown in acked.events)  # shown once the game is over
            found = None if events is None else [
                (e.seq, e.type, e.seat, e.recorded_at, e.hash if hashed else "") for e in events]
            if found is None:
                verdict.lost += 1
                verdict.note(f"{play.game_id}: acknowledged action {key} (version {acked.version}) is not in the log")
            elif found != acked.events:
                verdict.changed += 1
                verdict.note(f"{play.game_id}: action {key} acknowledged as {acked.events}, stored as {found}")
        verdict.unacknowledged_applied += len(set(groups) - set(play.acked))
    return logs


def audit_all(base_url: str, game_ids: list[str], verdict: Verdict) -> None:
    """``GET /v1/games/{id}/audit`` of every game, through the load balancer."""
    conn = Connection(base_url, timeout=60)
    try:
        for game_id in game_ids:
            ok, detail = False, ""
            for _ in range(5):
                try:
                    answer = conn.request("GET", f"/v1/games/{game_id}/audit")
                except TransportFailure as e:
                    detail = str(e)
                    continue
                if answer.status == 200 and isinstance(answer.body, dict):
                    ok = bool(answer.body.get("ok"))
                    detail = "; ".join(str(p) for p in answer.body.get("problems", []))[:200]
                    break
                detail = f"{answer.status} {answer.code}"
            if ok:
                verdict.audits_ok += 1
            else:
                verdict.audits_failed += 1
                verdict.note(f"{game_id}: audit failed: {detail}")
    finally:
        conn.close()


def check_streams(spectators: list[Spectator], logs: dict[str, list[StoredEvent]], verdict: Verdict) -> None:
    """Every stream must be the log itself: seq 1, 2, 3... each once, same types, to the end."""
    for s in spectators:
        verdict.streams += 1
        verdict.stream_events += len(s.events)
        log = [(e.seq, e.type) for e in logs[s.game_id]]
        if s.events == log:
            verdict.streams_matching += 1
        else:
            seqs = [seq for seq, _ in s.events]
            verdict.note(f"stream of {s.game_id}: {len(seqs)} events (first {seqs[:3]}, last {seqs[-3:]}), "
                         f"log has {len(log)}; reconnections {s.connections}")
