"""A saved record against a later record of the same game (``cablecar verify
--against LATER``): the later one continues it, or its signed quarantine moved
this one's tail aside (this one is then *superseded*: genuine, later
rewritten), or the two differ with no quarantine to say why (one of them was
rewritten).

A server moves aside only events no published checkpoint holds, and says so
in a signed ``events_quarantined`` event listing the hashes it moved
(:mod:`domain.custody`).  So a record saved before a quarantine is compared
with a later one event by event: they share every event before the
quarantine's ``from_seq``, and this record's events from there on are the
first hashes the quarantine lists.  Only a later record whose own checks pass
(its signatures checked, so that the quarantine is the server's) is taken
for evidence; a quarantine recorded before issue 48 lists no hashes, so it
cannot show which events it moved.
"""

from __future__ import annotations

from collections.abc import Sequence

from events.integrity.verdict import Check, Superseded, Verdict
from events.records import StoredEvent


def against_later(
    earlier: Sequence[StoredEvent], later: Sequence[StoredEvent], later_verdict: Verdict, source: str
) -> tuple[Check, Superseded | None]:
    """The ``later`` check of the record of ``earlier`` events against the
    record ``source`` (its events ``later``, verified as ``later_verdict``),
    and what superseded it (None: nothing did)."""
    if later_verdict.failed:
        failed = ", ".join(c.name for c in later_verdict.checks if c.checked and not c.ok)
        return Check("later", False, f"{source} is NOT VALID itself ({failed} failed): it shows nothing "
                                     "about this record"), None
    if "signatures" in later_verdict.not_checked:
        return Check.not_made("later", f"the signatures of {source} were not checked (--keys): its quarantines "
                                       "could be anyone's"), None
    earlier_id = earlier[0].game_id if earlier else None
    if later and earlier_id is not None and later[0].game_id != earlier_id:
        return Check("later", False, f"{source} is a record of game {later[0].game_id}, not {earlier_id}"), None
    common = 0
    for mine, theirs in zip(earlier, later, strict=False):
        if mine.hash != theirs.hash:
            break
        common += 1
    if common == len(earlier):
        return Check("later", True, f"{source} continues this record: its first {common} events are these "
                                    f"(it has {len(later)})"), None
    tail = tuple(e.hash for e in earlier[common:])
    for q in later_verdict.quarantines:
        if q.from_seq != common + 1:
            continue
        if q.hashes is None:
            return Check.not_made("later", f"the quarantine at seq {q.seq} of {source} moved events seq "
                                           f"{q.from_seq}..{q.to_seq} aside but does not list their hashes (a "
                                           "record from before issue 48): whether they are this record's "
                                           "cannot be checked"), None
        if q.hashes[:len(tail)] == tail:
            superseded = Superseded(q.from_seq, earlier[-1].seq, q.seq, source)
            return Check("later", True, f"{source} shares this record's first {common} events, and its "
                                        f"quarantine at seq {q.seq} moved this record's events seq "
                                        f"{q.from_seq}..{earlier[-1].seq} aside (their hashes listed)"), superseded
    return Check("later", False, f"{source} differs from this record from seq {common + 1} on, and no quarantine "
                                 "of it lists this record's events from there: one of the two records was "
                                 "rewritten"), None


def superseded_verdict(verdict: Verdict, check: Check, superseded: Superseded | None) -> Verdict:
    """``verdict`` with the ``later`` check, and superseded only when this record's own checks all passed."""
    own_ok = verdict.ok
    return Verdict(verdict.game_id, (*verdict.checks, check), verdict.problems, verdict.quarantines,
                   superseded if own_ok and check.ok else None)
