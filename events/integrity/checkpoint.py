"""Signed checkpoints of the transparency log: C2SP tlog-checkpoint bodies in C2SP signed notes.

A checkpoint body is three lines, each ending in a newline::

    <origin>
    <tree size, decimal>
    <root hash, standard base64>

A note is a text ending in a newline, a blank line, then one or more signature
lines ``— <key name> <base64(key hash || Ed25519 signature of the text)>``, the
key hash being the first 4 bytes of SHA-256(key name || "\\n" || 0x01 || public
key).  The server's key name is the log's origin.  Verifier keys are written
``<name>+<hex key hash>+<base64(0x01 || public key)>``.  Pure: the private key
stays with the caller, who passes a ``sign`` function.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Callable
from dataclasses import dataclass

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from events.integrity.merkle import HASH_BYTES
from events.integrity.signing import KEY_BYTES, SIGNATURE_BYTES

#: what starts a signature line: U+2014 EM DASH and a space
SIGNATURE_PREFIX = "\u2014 "
#: the signed-note signature type of Ed25519
ED25519_TYPE = b"\x01"
#: at most this many signature lines are read (the spec asks for at least 16)
MAX_SIGNATURES = 100

_SIZE = re.compile(r"0|[1-9][0-9]*")


def b64(data: bytes) -> str:
    """Standard base64 with padding."""
    return base64.b64encode(data).decode("ascii")


def unb64(text: str, what: str) -> bytes:
    """The bytes of standard, padded, canonical base64; ValueError naming ``what`` if not."""
    try:
        data = base64.b64decode(text.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        raise ValueError(f"{what} is not standard base64") from None
    if b64(data) != text:
        raise ValueError(f"{what} is not canonical standard base64")
    return data


def _check_name(name: str) -> None:
    """Key names: non-empty, no Unicode space, no '+', no control character."""
    if (not isinstance(name, str) or not name or "+" in name
            or any(c.isspace() or ord(c) < 0x20 for c in name)):
        raise ValueError(f"key name {name!r} must be non-empty, without spaces or '+'")


def _check_text(text: str, what: str) -> None:
    if not isinstance(text, str) or not text.endswith("\n"):
        raise ValueError(f"{what} must end in a newline")
    if any(ord(c) < 0x20 and c != "\n" for c in text):
        raise ValueError(f"{what} holds a control character other than newline")
    if any("\ud800" <= c <= "\udfff" for c in text):
        raise ValueError(f"{what} is not valid UTF-8 (a lone surrogate)")


@dataclass(frozen=True)
class Checkpoint:
    """A tree head: the log's origin, its size and its root hash (raw 32 bytes)."""

    origin: str
    size: int
    root_hash: bytes

    def __post_init__(self) -> None:
        if not isinstance(self.origin, str) or not self.origin or not self.origin.isprintable():
            raise ValueError(f"origin {self.origin!r} must be non-empty printable text on one line")
        if not isinstance(self.size, int) or isinstance(self.size, bool) or self.size < 0:
            raise ValueError(f"tree size {self.size!r} must be a whole number >= 0")
        if not isinstance(self.root_hash, bytes) or len(self.root_hash) != HASH_BYTES:
            raise ValueError(f"root hash must be {HASH_BYTES} bytes")

    def body(self) -> str:
        """The checkpoint's note text: origin, size and base64 root hash, one per line."""
        return f"{self.origin}\n{self.size}\n{b64(self.root_hash)}\n"

    @classmethod
    def parse(cls, body: str) -> Checkpoint:
        """The checkpoint of a note text; ValueError naming what is wrong.  Extension
        lines after the third are allowed (and ignored) but, as the spec says,
        must not be empty."""
        _check_text(body, "a checkpoint")
        lines = body[:-1].split("\n")
        if len(lines) < 3:
            raise ValueError("a checkpoint has three lines: origin, tree size, root hash")
        origin, size, root_hash, *extensions = lines
        if not origin:
            raise ValueError("the checkpoint's origin line is empty")
        if not _SIZE.fullmatch(size):
            raise ValueError(f"tree size {size!r} is not a decimal number without leading zeros")
        raw = unb64(root_hash, "the root hash")
        if len(raw) != HASH_BYTES:
            raise ValueError(f"the root hash is {len(raw)} bytes, not {HASH_BYTES}")
        if any(not line for line in extensions):
            raise ValueError("a checkpoint's extension line is empty")
        return cls(origin, int(size), raw)


@dataclass(frozen=True)
class NoteSignature:
    """One signature line of a note."""

    name: str
    key_hash: bytes  # 4 bytes
    signature: bytes  # without the key hash


def key_hash(name: str, public_key: bytes) -> bytes:
    """The 4-byte key hash of an Ed25519 key: SHA-256(name || "\\n" || 0x01 || key)[:4]."""
    _check_name(name)
    if not isinstance(public_key, bytes) or len(public_key) != KEY_BYTES:
        raise ValueError(f"an Ed25519 public key is {KEY_BYTES} bytes")
    return hashlib.sha256(name.encode("utf-8") + b"\n" + ED25519_TYPE + public_key).digest()[:4]


def verifier_key(name: str, public_key: bytes) -> str:
    """The verifier key ``<name>+<hex key hash>+<base64(0x01 || key)>``."""
    return f"{name}+{key_hash(name, public_key).hex()}+{b64(ED25519_TYPE + public_key)}"


def parse_verifier_key(vkey: str) -> tuple[str, bytes]:
    """``(name, public key)`` of an Ed25519 verifier key; ValueError if it is
    malformed, of another type, or its key hash is not its key's."""
    parts = vkey.split("+") if isinstance(vkey, str) else []
    if len(parts) != 3 or not re.fullmatch(r"[0-9a-f]{8}", parts[1]):
        raise ValueError("a verifier key is <name>+<8 hex digits>+<base64 key>")
    name, hex_hash, encoded = parts
    raw = unb64(encoded, "the verifier key")
    if raw[:1] != ED25519_TYPE or len(raw) != 1 + KEY_BYTES:
        raise ValueError("not an Ed25519 verifier key (type 0x01 and 32 bytes)")
    if key_hash(name, raw[1:]).hex() != hex_hash:
        raise ValueError(f"key hash {hex_hash} is not that of the verifier key's name and key")
    return name, raw[1:]


def _signature_line(text: str, name: str, public_key: bytes, sign: Callable[[bytes], bytes]) -> str:
    kh = key_hash(name, public_key)
    message = text.encode("utf-8")
    signature = sign(message)
    if not isinstance(signature, bytes) or len(signature) != SIGNATURE_BYTES:
        raise ValueError(f"an Ed25519 signature is {SIGNATURE_BYTES} bytes")
    if not _valid(public_key, signature, message):
        raise ValueError(f"the signature does not verify with the public key given for {name!r}")
    return f"{SIGNATURE_PREFIX}{name} {b64(kh + signature)}\n"


def sign_note(text: str, name: str, public_key: bytes, sign: Callable[[bytes], bytes]) -> str:
    """The note of ``text`` (ending in a newline) signed once: ``sign`` signs the
    text's UTF-8 bytes with the private key of ``public_key``."""
    _check_text(text, "a note's text")
    return f"{text}\n{_signature_line(text, name, public_key, sign)}"


def add_signature(note: str, name: str, public_key: bytes, sign: Callable[[bytes], bytes]) -> str:
    """``note`` with one more signature line (a cosignature); ValueError if that
    key has already signed it."""
    text, signatures = parse_note(note)
    kh = key_hash(name, public_key)
    if any(s.name == name and s.key_hash == kh for s in signatures):
        raise ValueError(f"the note is already signed by {name} ({kh.hex()})")
    return note + _signature_line(text, name, public_key, sign)


def parse_note(note: str) -> tuple[str, list[NoteSignature]]:
    """A note's text and signatures, unverified; ValueError if it is malformed."""
    _check_text(note, "a note")
    split = note.rfind("\n\n")
    if split < 0:
        raise ValueError("a note has no blank line before its signatures")
    text, block = note[:split + 1], note[split + 2:]
    if not block:
        raise ValueError("a note has no signature line")
    lines = block[:-1].split("\n")
    if len(lines) > MAX_SIGNATURES:
        raise ValueError(f"a note has more than {MAX_SIGNATURES} signatures")
    signatures = []
    for number, line in enumerate(lines, 1):
        if not line.startswith(SIGNATURE_PREFIX):
            raise ValueError(f"signature line {number} does not start with an em dash and a space")
        name, _, encoded = line[len(SIGNATURE_PREFIX):].partition(" ")
        _check_name(name)
        raw = unb64(encoded, f"signature line {number}")
        if len(raw) < 5:
            raise ValueError(f"signature line {number} is shorter than a key hash and a signature")
        signatures.append(NoteSignature(name, raw[:4], raw[4:]))
    return text, signatures


def _valid(public_key: bytes, signature: bytes, message: bytes) -> bool:
    try:
        Ed25519PublicKey.from_public_bytes(public_key).verify(signature, message)
    except (InvalidSignature, ValueError):
        return False
    return True


def verify_note(note: str, name: str, public_key: bytes) -> str:
    """The note's text if it carries a valid signature by ``(name, public_key)``;
    ValueError otherwise (malformed, not signed by that key, a bad signature by
    it).  Signatures by other keys (cosignatures) are ignored."""
    text, signatures = parse_note(note)
    kh = key_hash(name, public_key)
    mine = [s for s in signatures if s.name == name and s.key_hash == kh]
    if not mine:
        raise ValueError(f"the note is not signed by the key {name}+{kh.hex()} (unknown key)")
    for s in mine:
        if len(s.signature) != SIGNATURE_BYTES or not _valid(public_key, s.signature,
                                                              text.encode("utf-8")):
            raise ValueError(f"bad signature by {name}+{kh.hex()}")
    return text


def verify_checkpoint(note: str, origin: str, public_key: bytes) -> Checkpoint:
    """The checkpoint of a note signed by the log ``origin`` (key name = origin)
    with ``public_key``; ValueError if the note does not verify, its body is not a
    checkpoint, or the body names another origin."""
    checkpoint = Checkpoint.parse(verify_note(note, origin, public_key))
    if checkpoint.origin != origin:
        raise ValueError(f"the checkpoint's origin {checkpoint.origin!r} is not {origin!r}")
    return checkpoint
