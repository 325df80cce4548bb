"""The server's public keys as a verifier holds them, and the ``signatures``
check of a record: every event's Ed25519 signature of its hash (see
:mod:`events.integrity.verify`; the signing side is :mod:`events.integrity.signing`).

The check cannot be talked out of signatures: a record stripped of them
fails (an unsigned event is allowed only when the caller says the record
predates signing, and never after a signed one), and so does an event
recorded outside its key's lifetime: before its ``created_at`` or after its
``retired_at`` (the keys' lifetimes, which the server's own stream also
records: :mod:`events.integrity.lifetimes`).  Every event's date is checked
against the record's own header too: an event recorded before its game was
created (a record backdated, say, to before the server signed) fails.  Reads
that fold stored events use the lighter :func:`first_bad_signature` (a wrong
signature or an unknown key).

A checkpoint note signed by a retired key counts only for a tree no larger
than the one whose last leaf is that key's ``key_retired`` event
(``retired_tree_size`` in the key's entry, :meth:`KeySet.checkpoint_problem`):
checkpoints carry no time, so a key's retirement is placed in the log itself."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from domain.core import JSON
from events.encoding.timestamps import epoch_seconds
from events.integrity.signing import PublicKey, is_timestamp, unb64url
from events.integrity.verdict import Check
from events.records import StoredEvent

#: signatures a KeySet remembers having checked (a server re-reads the same events: pages, rebuilds)
VERIFIED_MEMO = 65536


class KeySet:
    """Public keys by id, checking events' signatures (see the module docs).
    A check costs about 0.15 ms of CPU, so the ``(key_id, hash, signature)``
    triples found good are remembered (bounded; a triple found good stays good)."""

    def __init__(self, keys: Iterable[PublicKey]) -> None:
        self.keys = tuple(keys)
        self._verifiers = {
            k.key_id: Ed25519PublicKey.from_public_bytes(unb64url(k.public_key)).verify for k in self.keys
        }
        self._good: dict[tuple[str, str, str], None] = {}
        self._lifetimes = {k.key_id: k for k in self.keys}

    def signing_since(self) -> str | None:
        """When the oldest of these keys was made (None: no key says): a
        server's events recorded before it predate signing."""
        made = [k.created_at for k in self.keys if k.created_at is not None]
        return min(made, key=epoch_seconds) if made else None

    def lifetime_problem(self, event: StoredEvent) -> str | None:
        """Why ``event`` (validly signed) was signed with a key not alive when
        it was recorded: before the key's ``created_at`` or after its
        ``retired_at`` (None: it was alive)."""
        key = self._lifetimes.get(str(event.key_id))
        if key is None:
            return None
        try:
            at = epoch_seconds(event.recorded_at)
        except (TypeError, ValueError):
            return "its recorded_at is not a timestamp"
        if key.created_at is not None and at < epoch_seconds(key.created_at):
            return f"signed by key {event.key_id}, recorded before that key was made ({key.created_at})"
        if key.retired_at is not None and at > epoch_seconds(key.retired_at):
            return f"signed by key {event.key_id}, recorded after that key was retired ({key.retired_at})"
        return None

    def checkpoint_problem(self, key_id: str, tree_size: int) -> str | None:
        """Why a checkpoint of ``tree_size`` leaves signed by ``key_id`` does not
        count (None: it does): the key was retired at a smaller tree (see the module docs)."""
        key = self._lifetimes.get(key_id)
        if key is None or key.retired_tree_size is None or tree_size <= key.retired_tree_size:
            return None
        return (f"key {key_id} was retired in the log's tree of {key.retired_tree_size} leaves "
                f"({key.retired_at}); a checkpoint it signs of a larger tree ({tree_size}) is not the log's")

    @classmethod
    def from_json(cls, document: JSON) -> KeySet:
        """The keys of a ``GET /v1/keys`` answer; ValueError naming a bad entry."""
        entries = document.get("keys") if isinstance(document, dict) else None
        if not isinstance(entries, list):
            raise ValueError('expected {"keys": [...]} as GET /v1/keys answers')
        keys = []
        for i, entry in enumerate(entries):
            try:
                keys.append(PublicKey.from_json(entry))
            except ValueError as e:
                raise ValueError(f"key #{i + 1}: {e}") from None
        return cls(keys)

    def problem(self, event: StoredEvent) -> str | None:
        """Why ``event``'s signature does not hold (None: it does; "unsigned" without one)."""
        if event.signature is None and event.key_id is None:
            return "unsigned"
        verify = self._verifiers.get(event.key_id) if isinstance(event.key_id, str) else None
        if verify is None:
            return f"signed by key {event.key_id!r}, which is not one of the server's keys"
        triple = (str(event.key_id), str(event.hash), str(event.signature))
        if triple in self._good:
            return None
        try:
            verify(unb64url(event.signature or ""), event.hash.encode("ascii"))
        except (InvalidSignature, ValueError, AttributeError):
            return "the signature does not match the event's hash"
        if len(self._good) >= VERIFIED_MEMO:
            self._good.clear()  # simple and bounded: a cleared memo only costs re-checks
        self._good[triple] = None
        return None


def first_bad_signature(events: Sequence[StoredEvent], keys: KeySet, signed_before: bool = False) -> int | None:
    """The seq of the first event whose signature fails (an unsigned event
    counts only after a signed one: ``signed_before`` if one came before
    ``events``), None if there is none."""
    signed = signed_before
    for event in events:
        why = keys.problem(event)
        if why == "unsigned":
            if signed:
                return event.seq
        elif why is not None:
            return event.seq
        else:
            signed = True
    return None


def signature_check(
    events: Sequence[StoredEvent], keys: KeySet | None, allow_unsigned: bool = False,
    unsigned_before: str | None = None, created_at: str | None = None,
) -> Check:
    """The ``signatures`` check of a record (see the module docs).

    Every event must carry a valid signature by one of ``keys``, made while
    that key was alive (recorded at or after its ``created_at`` and at or
    before its ``retired_at``).  An unsigned event fails unless
    ``allow_unsigned`` (a record that predates signing) and no signed event
    came before it, and, with ``unsigned_before`` (when the server began
    signing: its oldest key's ``created_at``), it was recorded before that
    moment.  With ``created_at`` (the record's header: when its game was
    created), an event recorded before it fails.  Without keys the check is
    not made (and so never ok)."""
    if keys is None:
        return Check.not_made("signatures", "no public keys given (save GET /v1/keys and run "
                                            "cablecar verify --keys KEYS.json)")
    problems: list[str] = []
    if created_at is not None and not is_timestamp(created_at):
        problems.append(f"the record's header created_at {created_at!r} is not a timestamp")
        created_at = None
    unsigned = 0
    used: list[str] = []
    signed_seen = False
    for event in events:
        why = keys.problem(event)
        if why == "unsigned":
            why = _unsigned_problem(event, signed_seen, allow_unsigned, unsigned_before)
            if why is None:
                unsigned += 1
        else:
            signed_seen = True
            why = why or keys.lifetime_problem(event)
            if why is None and event.key_id not in used:
                used.append(str(event.key_id))
        if why is None and created_at is not None and _earlier(event.recorded_at, created_at):
            why = f"recorded before its game was created ({created_at}, the record's header says)"
        if why is not None:
            problems.append(f"seq {event.seq}: {why} [{event.type}]")
    if problems:
        more = f" (and {len(problems) - 5} more)" if len(problems) > 5 else ""
        return Check("signatures", False, "; ".join(problems[:5]) + more)
    if events and unsigned == len(events):
        return Check("signatures", True, f"UNSIGNED: these {unsigned} events were written before the server "
                                         "signed its records; only the chain vouches for them")
    signed = len(events) - unsigned
    detail = f"{signed} events signed by key {', '.join(used)}" if signed else "no events"
    if unsigned:
        detail += f"; the first {unsigned} are UNSIGNED (written before the server signed its records)"
    return Check("signatures", True, detail)


def _unsigned_problem(
    event: StoredEvent, signed_seen: bool, allow_unsigned: bool, unsigned_before: str | None
) -> str | None:
    """Why the unsigned ``event`` fails the record (None: allowed, see :func:`signature_check`)."""
    if signed_seen:
        return "unsigned, after signed events"
    if not allow_unsigned:
        return "unsigned"
    if unsigned_before is not None and not _earlier(event.recorded_at, unsigned_before):
        return f"unsigned, recorded after the server began signing ({unsigned_before})"
    return None


def _earlier(recorded_at: str, moment: str) -> bool:
    """Whether ``recorded_at`` is before ``moment`` (False if it is no timestamp)."""
    try:
        return epoch_seconds(recorded_at) < epoch_seconds(moment)
    except (TypeError, ValueError):
        return False
