"""The server's own stream read as a verifier reads it (:mod:`events.integrity.lifetimes`),
and the key entries' lifetime fields (:mod:`events.integrity.keyset`, :mod:`events.integrity.signing`)."""

from __future__ import annotations

import dataclasses

import pytest

from events.integrity.envelope import GENESIS_HASH
from events.integrity.keyset import KeySet
from events.integrity.lifetimes import SERVER_STREAM, key_added, key_retired, lifetimes, missing_events
from events.integrity.sealing import seal
from events.integrity.signing import PublicKey, Signer
from events.records import NewEvent, StoredEvent

OLD = Signer(bytes(range(32)), "2026-01-01T00:00:00.000000Z")
NEW = Signer(bytes(range(1, 33)), "2026-06-01T00:00:00.000000Z")
MALLORY = Signer(bytes(range(2, 34)), "2026-01-01T00:00:00.000000Z")


def _stream(*signed: tuple[NewEvent, Signer, str]) -> list[StoredEvent]:
    """The stream's events, each sealed at its time and signed by its key."""
    events: list[StoredEvent] = []
    for event, signer, at in signed:
        prev = events[-1].hash if events else GENESIS_HASH
        [sealed] = seal(SERVER_STREAM, len(events), prev, [event], at)
        stored = sealed.signed(signer).at(len(events) + 1)
        events.append(stored)
    return events


def test_a_rotation_is_a_chain_the_old_key_alone_can_follow() -> None:
    retired = OLD.public.retired("2026-06-02T00:00:00.000000Z")
    stream = _stream((key_added(OLD.public), OLD, "2026-01-01T00:00:01.000000Z"),
                     (key_added(NEW.public), OLD, "2026-06-01T00:00:01.000000Z"),  # introduced by the old key
                     (key_retired(retired), NEW, "2026-06-02T00:00:01.000000Z"))
    named = lifetimes(stream, KeySet([OLD.public]))  # a server that knows only the old key
    assert named[OLD.key_id].retired_seq == 3 and named[OLD.key_id].retired_at == retired.retired_at
    assert named[NEW.key_id].added_seq == 2 and named[NEW.key_id].created_at == NEW.public.created_at
    assert missing_events(named, NEW.public, [retired]) == []


def test_rows_signed_by_no_trusted_key_name_no_key() -> None:
    stream = _stream((key_added(OLD.public), OLD, "2026-01-01T00:00:01.000000Z"),
                     (key_added(MALLORY.public), MALLORY, "2026-02-01T00:00:00.000000Z"),  # introduces itself
                     (key_retired(OLD.public.retired("2026-02-01T00:00:00.000000Z")), MALLORY,
                      "2026-02-01T00:00:01.000000Z"))
    named = lifetimes(stream, KeySet([OLD.public]))
    assert list(named) == [OLD.key_id] and named[OLD.key_id].retired_seq is None
    # a forged signature under a trusted key's id counts no more than an unknown key
    forged = dataclasses.replace(stream[2], key_id=OLD.key_id)
    assert lifetimes([stream[0], forged], KeySet([OLD.public]))[OLD.key_id].retired_seq is None
    # an event the trusted key signed after its own retirement is not read either
    late = _stream((key_added(OLD.public), OLD, "2026-01-01T00:00:01.000000Z"),
                   (key_added(MALLORY.public), OLD, "2026-09-01T00:00:00.000000Z"))
    assert list(lifetimes(late, KeySet([OLD.public.retired("2026-06-01T00:00:00.000000Z")]))) == [OLD.key_id]


def test_what_a_start_appends_names_each_key_once_retired_keys_first() -> None:
    retired = OLD.public.retired("2026-06-02T00:00:00.000000Z")
    wanted = missing_events({}, NEW.public, [retired])
    assert [(e.type, e.payload["key_id"]) for e in wanted] == [
        ("key_added", OLD.key_id), ("key_retired", OLD.key_id), ("key_added", NEW.key_id)]
    stream = _stream(*((e, NEW, "2026-06-03T00:00:00.000000Z") for e in wanted))
    assert missing_events(lifetimes(stream, KeySet([NEW.public, retired])), NEW.public, [retired]) == []


def test_a_key_entry_s_lifetime_fields_are_checked_and_optional() -> None:
    entry = {**OLD.public.to_json(), "added_seq": 1, "retired_seq": 3, "retired_tree_size": 40}
    key = PublicKey.from_json(entry)
    assert (key.added_seq, key.retired_seq, key.retired_tree_size) == (1, 3, 40) and key.to_json() == entry
    assert PublicKey.from_json(OLD.public.file_json()).retired_tree_size is None  # a file saved before
    for bad in (0, -1, "3", True, 1.5):
        with pytest.raises(ValueError, match="retired_tree_size"):
            PublicKey.from_json({**entry, "retired_tree_size": bad})
    keys = KeySet([key])
    assert keys.checkpoint_problem(OLD.key_id, 40) is None
    assert "retired in the log's tree of 40 leaves" in str(keys.checkpoint_problem(OLD.key_id, 41))
    assert keys.checkpoint_problem(NEW.key_id, 10**6) is None
