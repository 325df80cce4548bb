"""The server's public keys as a verifier holds them, and the ``signatures``
check of a record: every event's Ed25519 signature of its hash (see
:mod:`events.verify`; the signing side is :mod:`events.signing`)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from domain.core import JSON
from events.signing import PublicKey, unb64url
from events.store import StoredEvent
from events.verdict import Check

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


def signature_check(events: Sequence[StoredEvent], keys: KeySet | None) -> Check:
    """The ``signatures`` check of a record (see the module docs)."""
    if keys is None:
        return Check("signatures", True, "NOT CHECKED: no public keys given "
                                         "(save GET /v1/keys and run cablecar verify --keys KEYS.json)")
    problems: list[str] = []
    unsigned = 0
    used: list[str] = []
    for event in events:
        why = keys.problem(event)
        if why == "unsigned":
            unsigned += 1
            if used:
                problems.append(f"seq {event.seq}: unsigned, after signed events")
        elif why is not None:
            problems.append(f"seq {event.seq}: {why}")
        elif event.key_id not in used:
            used.append(str(event.key_id))
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
