"""The hash chain as pure functions (no database), plus cursors and timestamps."""

from __future__ import annotations

import dataclasses
import hashlib
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import given
from hypothesis import strategies as st

from events.encoding.canonical import canonical_json
from events.encoding.cursor import decode_cursor, encode_cursor
from events.encoding.timestamps import format_timestamp, parse_timestamp
from events.integrity.envelope import GENESIS_HASH, event_hash, recompute_hash, verify_events
from events.integrity.sealing import hash_document_parts, seal, validate_new_event
from events.records import InvalidCursor, NewEvent, StoredEvent
from events.sql.rows import event_from_row

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=12,
)


def test_hash_matches_a_hand_written_canonical_document() -> None:
    document = (
        '{"game_id":"g-1","idempotency_key":null,"payload":{"cards":{"red":2},"route":"a--b","x":"é"},'
        f'"prev_hash":"{"0" * 64}","recorded_at":"2024-01-01T00:00:00.000000Z","schema_version":2,'
        '"seat":0,"seq":1,"type":"route_claimed"}'
    )
    expected = hashlib.sha256(document.encode("utf-8")).hexdigest()
    assert (
        event_hash(
            game_id="g-1",
            seq=1,
            type="route_claimed",
            schema_version=2,
            payload={"x": "é", "route": "a--b", "cards": {"red": 2}},
            recorded_at="2024-01-01T00:00:00.000000Z",
            seat=0,
            idempotency_key=None,
            prev_hash=GENESIS_HASH,
        )
        == expected
    )


def test_canonical_json_rules() -> None:
    assert canonical_json({"b": [1, (2, 3)], "a": "ü"}) == '{"a":"ü","b":[1,[2,3]]}'
    for bad in (float("nan"), {1, 2}, object()):
        with pytest.raises((TypeError, ValueError)):
            canonical_json({"x": bad})


def test_validate_new_event_names_the_problem() -> None:
    assert validate_new_event(NewEvent("t", {"a": (1,)})) == '{"a":[1]}'
    bad = [
        NewEvent("", {}),
        NewEvent("t", {}, schema_version=0),
        NewEvent("t", {}, schema_version=True),
        NewEvent("t", {}, seat=True),
        NewEvent("t", {}, seat="0"),  # type: ignore[arg-type]
        NewEvent("t", [1]),  # type: ignore[arg-type]
        NewEvent("t", {"x": float("inf")}),
    ]
    for event in bad:
        with pytest.raises(ValueError):
            validate_new_event(event)


def chain(n: int, game_id: str = "g") -> list[StoredEvent]:
    events = [NewEvent("e", {"i": i}, seat=i % 2) for i in range(n)]
    return [s.at(10 * s.seq) for s in seal(game_id, 0, GENESIS_HASH, events, "2024-01-01T00:00:00.000000Z")]


@given(st.lists(json_values.map(lambda v: {"v": v}), min_size=1, max_size=6), st.text(max_size=8))
def test_sealed_chains_verify_and_any_edit_is_caught(payloads: list[dict[str, object]], key: str) -> None:
    events = [NewEvent("e", p, seat=None) for p in payloads]
    stored = [s.at(i + 1) for i, s in enumerate(seal("g", 0, GENESIS_HASH, events, "t", key))]
    assert verify_events("g", stored, expected_count=len(stored)).ok
    assert all(recompute_hash(e) == e.hash for e in stored)
    edited = dataclasses.replace(stored[-1], payload={"v": ["edited", stored[-1].payload]})
    report = verify_events("g", [*stored[:-1], edited])
    assert not report.ok and report.first_bad_seq == len(stored)


def test_verify_events_reports_each_kind_of_tampering() -> None:
    good = chain(5)
    assert verify_events("g", good, expected_count=5) == verify_events("g", good)
    assert verify_events("g", good).ok and verify_events("g", good).checked == 5

    removed = [good[0], good[1], good[3], good[4]]
    assert verify_events("g", removed).first_bad_seq == 3

    swapped = [good[0], good[2], good[1], good[3], good[4]]
    assert verify_events("g", swapped).first_bad_seq == 2

    renumbered = [dataclasses.replace(e, seq=e.seq + 1) for e in good]
    assert verify_events("g", renumbered).first_bad_seq == 1

    moved = [*good[:3], dataclasses.replace(good[3], position=1), good[4]]
    report = verify_events("g", moved)
    assert not report.ok and report.first_bad_seq == 4 and any("position" in p for p in report.problems)

    tail = verify_events("g", good[:4], expected_count=5)
    assert not tail.ok and tail.first_bad_seq == 5

    foreign = verify_events("other", good)
    assert not foreign.ok and foreign.first_bad_seq == 1

    rehashed = dataclasses.replace(good[2], payload={"i": 99})
    rehashed = dataclasses.replace(rehashed, hash=recompute_hash(rehashed))
    relinked = verify_events("g", [*good[:2], rehashed, *good[3:]])
    assert not relinked.ok and relinked.first_bad_seq == 4  # the next link breaks


@given(st.integers(min_value=0, max_value=2**62))
def test_cursors_round_trip(game_no: int) -> None:
    assert decode_cursor(encode_cursor(game_no)) == game_no


def test_foreign_cursors_are_refused() -> None:
    for bad in ("", "!!!", "Zzz", "ZzE6", "ZzE6LTE", "eDox"):
        with pytest.raises(InvalidCursor):
            decode_cursor(bad)


def test_timestamps_are_utc_microsecond_text() -> None:
    moment = datetime(2024, 5, 1, 14, 34, 56, 123456, tzinfo=timezone(timedelta(hours=2)))
    text = format_timestamp(moment)
    assert text == "2024-05-01T12:34:56.123456Z"
    assert parse_timestamp(text) == moment
    assert parse_timestamp(text).tzinfo == UTC
    with pytest.raises(ValueError):
        format_timestamp(datetime(2024, 1, 1))


@given(
    game_id=st.text(min_size=1, max_size=12),
    seq=st.integers(min_value=1, max_value=2**53),
    type_=st.text(min_size=1, max_size=12),
    schema_version=st.integers(min_value=1, max_value=99),
    payload=st.dictionaries(st.text(max_size=5), json_values, max_size=4),
    recorded_at=st.text(max_size=30),
    seat=st.none() | st.integers(min_value=0, max_value=9),
    key=st.none() | st.text(max_size=12),
    prev_hash=st.text(alphabet="0123456789abcdef", min_size=64, max_size=64),
)
def test_split_hash_document_is_the_canonical_document(
    game_id: str,
    seq: int,
    type_: str,
    schema_version: int,
    payload: dict[str, object],
    recorded_at: str,
    seat: int | None,
    key: str | None,
    prev_hash: str,
) -> None:
    """PostgreSQL finishes hashes from (head, tail): they must rebuild the
    canonical document exactly, whatever the strings hold."""
    head, tail = hash_document_parts(
        game_id=game_id,
        seq=seq,
        type=type_,
        schema_version=schema_version,
        payload_json=canonical_json(payload),
        recorded_at=recorded_at,
        seat=seat,
        idempotency_key=key,
    )
    document = {
        "game_id": game_id,
        "seq": seq,
        "type": type_,
        "schema_version": schema_version,
        "payload": payload,
        "recorded_at": recorded_at,
        "seat": seat,
        "idempotency_key": key,
        "prev_hash": prev_hash,
    }
    assert head + prev_hash + tail == canonical_json(document)
    assert hashlib.sha256((head + prev_hash + tail).encode()).hexdigest() == event_hash(**document)  # type: ignore[arg-type]


def test_rows_become_the_same_envelopes_as_the_constructor_builds() -> None:
    row = ("g", 3, 17, "t", 2, '{"a":1}', "2024-01-01T00:00:00.000000Z", None, "k", "p" * 64, "h" * 64, "s", "i")
    built = event_from_row(row, {"a": 1})
    expected = StoredEvent(
        "g", 3, 17, "t", 2, {"a": 1}, "2024-01-01T00:00:00.000000Z", None, "k", "p" * 64, "h" * 64, "s", "i"
    )
    assert built == expected and repr(built) == repr(expected)
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.seq = 4  # type: ignore[misc]
    assert not hasattr(StoredEvent, "__post_init__")  # nothing is skipped by the fast path
