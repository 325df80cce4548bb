"""One conclusion for ``/audit`` and ``cablecar verify`` (issue 48): a record with quarantines is never a
bare VALID, damaged-and-log-attested only when signatures alone fail and the log holds the record, and a
saved record against a later one (``verify --against``): continued, superseded by a quarantine listing its
events, or differing with nothing to say why."""

from __future__ import annotations

from events.integrity.supersede import against_later, superseded_verdict
from events.integrity.verdict import Check, Quarantine, Verdict
from events.records import StoredEvent

OK = (Check("chain", True, "3 events chained from genesis"), Check("signatures", True, "3 events signed"))


def _events(*hashes: str, game_id: str = "g1") -> list[StoredEvent]:
    return [StoredEvent(game_id, seq, seq, "t", 1, {}, "2026-01-01T00:00:00Z", None, None, "0" * 64, h)
            for seq, h in enumerate(hashes, 1)]


def _h(letter: str) -> str:
    return letter * 64


def _quarantine(seq: int, hashes: tuple[str, ...] | None, count: int = 2) -> Quarantine:
    return Quarantine(seq, seq, seq + count - 1, count, hashes, "2026-01-02T00:00:00Z")


def test_a_record_with_a_quarantine_is_never_a_bare_valid() -> None:
    plain = Verdict("g1", OK)
    assert (plain.outcome, plain.conclusion()) == ("valid", "is VALID")
    quarantined = Verdict("g1", OK, quarantines=(_quarantine(3, (_h("c"), _h("d"))),))
    assert quarantined.outcome == "valid" and quarantined.ok
    assert quarantined.conclusion().startswith("is VALID, with 1 QUARANTINE (seq 3..4 moved aside at seq 3)")
    assert quarantined.to_json()["quarantines"] == [{"seq": 3, "from_seq": 3, "to_seq": 4, "count": 2,
                                                     "hashes": [_h("c"), _h("d")],
                                                     "recorded_at": "2026-01-02T00:00:00Z"}]
    line = _quarantine(3, None).line()
    assert line.startswith("seq 3: events seq 3..4 (2) were moved aside") and "not listed" in line


def test_damaged_and_log_attested_only_when_signatures_alone_fail_and_the_log_holds_the_record() -> None:
    bad_signature = Check("signatures", False, "seq 7: the signature does not match the event's hash [x]")
    included = Check("inclusion", True, "last event (seq 9) is leaf 4 of the tree of 12 leaves")
    attested = Verdict("g1", (OK[0], bad_signature, included))
    assert (attested.outcome, attested.damaged_from, attested.failed) == ("damaged_attested", 7, True)
    assert attested.conclusion().startswith("is DAMAGED at seq 7 and LOG-ATTESTED")
    assert attested.conclusion().endswith("NOT VALID")
    assert Verdict("g1", (OK[0], bad_signature)).outcome == "not_valid"  # the log not consulted
    broken = Verdict("g1", (Check("chain", False, "seq 7: hash"), bad_signature, included))
    assert broken.outcome == "not_valid"  # a changed event is no signature's fault
    not_held = Verdict("g1", (OK[0], bad_signature, Check("inclusion", False, "not the leaf the log holds")))
    assert not_held.outcome == "not_valid"
    assert Verdict("g1", (OK[0], Check.not_made("signatures", "no keys"))).outcome == "not_verified"


def test_a_later_record_that_continues_this_one() -> None:
    later = Verdict("g1", OK)
    check, superseded = against_later(_events("a", "b"), _events("a", "b", "c"), later, "later.json")
    assert check.ok and superseded is None and "continues this record" in check.detail


def test_a_later_record_whose_quarantine_lists_this_records_tail_supersedes_it() -> None:
    earlier = _events(_h("a"), _h("b"), _h("c"))
    later_events = _events(_h("a"), _h("q"), _h("e"))
    later = Verdict("g1", OK, quarantines=(_quarantine(2, (_h("b"), _h("c"))),))
    check, superseded = against_later(earlier, later_events, later, "later.json")
    assert check.ok and superseded is not None and (superseded.from_seq, superseded.to_seq) == (2, 3)
    verdict = superseded_verdict(Verdict("g1", OK), check, superseded)
    assert verdict.outcome == "superseded" and not verdict.failed
    assert verdict.conclusion().startswith("is SUPERSEDED at seq 2: genuine")
    # a record failing its own checks is not valid, whatever came later
    assert superseded_verdict(Verdict("g1", (Check("chain", False, "x"),)), check, superseded).outcome == "not_valid"


def test_a_later_record_that_differs_without_a_quarantine_saying_why_fails() -> None:
    earlier = _events(_h("a"), _h("b"), _h("c"))
    for quarantines in ((), (_quarantine(2, (_h("x"), _h("c"))),), (_quarantine(3, (_h("c"), _h("d"))),)):
        check, superseded = against_later(earlier, _events(_h("a"), _h("q")), Verdict("g1", OK, quarantines=quarantines),
                                          "later.json")
        assert not check.ok and check.checked and superseded is None, quarantines
        assert "one of the two records was rewritten" in check.detail


def test_what_a_later_record_cannot_show() -> None:
    earlier = _events(_h("a"), _h("b"))
    v1 = Verdict("g1", OK, quarantines=(_quarantine(2, None, 1),))
    check, superseded = against_later(earlier, _events(_h("a"), _h("q")), v1, "old.json")
    assert not check.checked and superseded is None and "does not list their hashes" in check.detail
    unsigned = Verdict("g1", (OK[0], Check.not_made("signatures", "no keys")))
    check, _ = against_later(earlier, _events(_h("a"), _h("q")), unsigned, "later.json")
    assert not check.checked and "could be anyone's" in check.detail
    invalid = Verdict("g1", (Check("chain", False, "broken"),))
    check, _ = against_later(earlier, _events(_h("a")), invalid, "later.json")
    assert not check.ok and check.checked and "NOT VALID itself (chain failed)" in check.detail
    check, _ = against_later(earlier, _events(_h("a"), game_id="g2"), Verdict("g2", OK), "other.json")
    assert not check.ok and "a record of game g2, not g1" in check.detail
