"""events.integrity.checkpoint: C2SP tlog-checkpoint bodies and signed notes, against the
specifications' own examples and Go's golang.org/x/mod/sumdb/note test vectors."""

from __future__ import annotations

import base64
import hashlib

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from hypothesis import given, settings
from hypothesis import strategies as st

from events.integrity.checkpoint import (
    Checkpoint,
    NoteSignature,
    add_signature,
    key_hash,
    parse_note,
    parse_verifier_key,
    sign_note,
    verifier_key,
    verify_checkpoint,
    verify_note,
)

# golang.org/x/mod sumdb/note/example_test.go (ExampleSign, ExampleOpen, ExampleSign_add_signatures)
PETER_VKEY = "PeterNeumann+c74f20a3+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW"
PETER_SKEY = "PRIVATE+KEY+PeterNeumann+c74f20a3+AYEKFALVFGyNhPJEMzD1QIDr+Y7hfZx09iUvxdXHKDFz"
PETER_TEXT = ("If you think cryptography is the answer to your problem,\n"
              "then you don't know what your problem is.\n")
PETER_SIG = ("\u2014 PeterNeumann x08go/ZJkuBS9UG/SffcvIAQxVBtiFupLLr8pAcElZInNIuGUgYN1FFYC2pZSNXgKvqfq"
             "dngotpRZb6KE6RyyBwJnAM=\n")
# ... signed again by "EnochRoot", a key made from 32 zero bytes (the example's zeroReader)
ENOCH_SIG = ("\u2014 EnochRoot rwz+eBzmZa0SO3NbfRGzPCpDckykFXSdeX+MNtCOXm2/5n2tiOHp+vAF1aGrQ5ovTG01oOTG"
             "wnWLox33WWd1RvMc+QQ=\n")
# C2SP signed-note.md, "Verifier keys" / "Example"
FOO_VKEY = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"
FOO_NOTE = ("This is an example message.\n\n\u2014 example.com/foo Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppz"
            "i2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n")

ORIGIN = "cablecar.example/log"


def keypair(seed: bytes) -> tuple[Ed25519PrivateKey, bytes]:
    key = Ed25519PrivateKey.from_private_bytes(seed)
    return key, key.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)


SERVER, SERVER_PUB = keypair(hashlib.sha256(b"server").digest())
WITNESS, WITNESS_PUB = keypair(hashlib.sha256(b"witness").digest())
ROOT = hashlib.sha256(b"root").digest()


def signed_checkpoint(size: int = 7, origin: str = ORIGIN) -> str:
    return sign_note(Checkpoint(origin, size, ROOT).body(), ORIGIN, SERVER_PUB, SERVER.sign)


def test_go_notes_example_is_signed_and_verified_byte_for_byte() -> None:
    name, public = parse_verifier_key(PETER_VKEY)
    assert name == "PeterNeumann" and key_hash(name, public).hex() == "c74f20a3"
    note = PETER_TEXT + "\n" + PETER_SIG
    assert verify_note(note, name, public) == PETER_TEXT
    seed = base64.b64decode(PETER_SKEY.split("+", 4)[4])[1:]  # 0x01 || 32-byte seed
    private, derived = keypair(seed)
    assert derived == public and verifier_key(name, public) == PETER_VKEY
    assert sign_note(PETER_TEXT, name, public, private.sign) == note  # Ed25519 is deterministic
    enoch, enoch_pub = keypair(bytes(32))
    cosigned = add_signature(note, "EnochRoot", enoch_pub, enoch.sign)
    assert cosigned == note + ENOCH_SIG
    assert verify_note(cosigned, "EnochRoot", enoch_pub) == verify_note(cosigned, name, public)
    text, signatures = parse_note(cosigned)
    assert text == PETER_TEXT and [s.name for s in signatures] == ["PeterNeumann", "EnochRoot"]
    assert signatures[0].key_hash == bytes.fromhex("c74f20a3") and len(signatures[0].signature) == 64


def test_the_c2sp_signed_note_example_verifies() -> None:
    name, public = parse_verifier_key(FOO_VKEY)
    assert name == "example.com/foo"
    assert verify_note(FOO_NOTE, name, public) == "This is an example message.\n"
    with pytest.raises(ValueError, match="bad signature"):
        verify_note(FOO_NOTE.replace("example message", "example massage"), name, public)


def test_go_refuses_these_verifier_keys_and_so_do_we() -> None:
    for bad in ("PeterNeumann+cc469956+ARpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TWBADKEY==",
                "PeterNeumann+173116ae+ZRpc2QcUPDhMQegwxbzhKqiBfsVkmqq/LDE4izWy10TW",
                PETER_VKEY.replace("c74f20a3", "c74f20a4"), PETER_VKEY.replace("+ARp", "+ARq"),
                PETER_VKEY.replace("c74f20a3", "C74F20A3"), PETER_VKEY[:-1], "Peter Neumann" + PETER_VKEY[12:],
                PETER_VKEY + "+x", ""):
        with pytest.raises(ValueError):
            parse_verifier_key(bad)


def test_key_hash_is_the_specs() -> None:
    expected = hashlib.sha256(ORIGIN.encode() + b"\n\x01" + SERVER_PUB).digest()[:4]
    assert key_hash(ORIGIN, SERVER_PUB) == expected
    assert key_hash(ORIGIN + "2", SERVER_PUB) != expected
    for name, key in (("", SERVER_PUB), ("a b", SERVER_PUB), ("a+b", SERVER_PUB), (ORIGIN, SERVER_PUB[:31])):
        with pytest.raises(ValueError):
            key_hash(name, key)


def test_the_c2sp_checkpoint_example_parses() -> None:
    body = "example.com/behind-the-sofa\n20852163\nCsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=\n"
    checkpoint = Checkpoint.parse(body)
    assert checkpoint.origin == "example.com/behind-the-sofa" and checkpoint.size == 20852163
    assert checkpoint.root_hash == base64.b64decode("CsUYapGGPo4dkMgIAUqom/Xajj7h2fB2MPA3j2jxq2I=")
    assert checkpoint.body() == body
    assert Checkpoint.parse(body + "extension one\nanother\n") == checkpoint


@settings(max_examples=100, deadline=None)
@given(st.text(st.characters(min_codepoint=0x20, blacklist_categories=("Cs", "Zl", "Zp", "Cc", "Cf", "Co",
                                                                          "Cn", "Zs")), min_size=1),
       st.integers(0, 2**63), st.binary(min_size=32, max_size=32))
def test_checkpoints_round_trip(origin: str, size: int, root: bytes) -> None:
    checkpoint = Checkpoint(origin, size, root)
    assert Checkpoint.parse(checkpoint.body()) == checkpoint


@pytest.mark.parametrize(("body", "complaint"), [
    ("\n7\n" + base64.b64encode(ROOT).decode() + "\n", "origin"),
    (f"{ORIGIN}\n07\n{base64.b64encode(ROOT).decode()}\n", "leading zeros"),
    (f"{ORIGIN}\n-7\n{base64.b64encode(ROOT).decode()}\n", "decimal"),
    (f"{ORIGIN}\n\u0667\n{base64.b64encode(ROOT).decode()}\n", "decimal"),  # an Arabic-Indic seven
    (f"{ORIGIN}\n7 \n{base64.b64encode(ROOT).decode()}\n", "decimal"),
    (f"{ORIGIN}\n7\n{base64.b64encode(ROOT[:31]).decode()}\n", "31 bytes"),
    (f"{ORIGIN}\n7\n{base64.urlsafe_b64encode(ROOT + b'?').decode()}\n", "base64"),
    (f"{ORIGIN}\n7\n{base64.b64encode(ROOT).decode().rstrip('=')}\n", "base64"),
    (f"{ORIGIN}\n7\n", "three lines"),
    (f"{ORIGIN}\n7\n{base64.b64encode(ROOT).decode()}", "newline"),
    (f"{ORIGIN}\n7\n{base64.b64encode(ROOT).decode()}\n\nmore\n", "extension"),
    (f"{ORIGIN}\t\n7\n{base64.b64encode(ROOT).decode()}\n", "control"),
])
def test_malformed_checkpoints_say_what_is_wrong(body: str, complaint: str) -> None:
    with pytest.raises(ValueError, match=complaint):
        Checkpoint.parse(body)


def test_a_checkpoint_is_checked_when_made() -> None:
    for origin, size, root in (("", 1, ROOT), ("a\nb", 1, ROOT), (ORIGIN, -1, ROOT), (ORIGIN, True, ROOT),
                               (ORIGIN, 1, ROOT[:31]), (ORIGIN, 1, ROOT.hex())):
        with pytest.raises(ValueError):
            Checkpoint(origin, size, root)  # type: ignore[arg-type]


def test_a_signed_checkpoint_round_trips_and_witnesses_are_ignored() -> None:
    note = signed_checkpoint()
    assert note.startswith(Checkpoint(ORIGIN, 7, ROOT).body() + "\n\u2014 " + ORIGIN + " ")
    assert verify_checkpoint(note, ORIGIN, SERVER_PUB) == Checkpoint(ORIGIN, 7, ROOT)
    cosigned = add_signature(note, "witness.example/w1", WITNESS_PUB, WITNESS.sign)
    assert verify_checkpoint(cosigned, ORIGIN, SERVER_PUB) == Checkpoint(ORIGIN, 7, ROOT)
    assert verify_note(cosigned, "witness.example/w1", WITNESS_PUB) == Checkpoint(ORIGIN, 7, ROOT).body()
    # a witness listed first, and a signature line by a key this verifier does not know
    text, (mine,) = parse_note(note)
    stranger = f"\u2014 {ORIGIN} {base64.b64encode(b'ABCD' + bytes(64)).decode()}\n"
    assert verify_note(text + "\n" + stranger + cosigned[len(text) + 1:], ORIGIN, SERVER_PUB) == text
    assert mine == NoteSignature(ORIGIN, key_hash(ORIGIN, SERVER_PUB), mine.signature)
    with pytest.raises(ValueError, match="already signed"):
        add_signature(cosigned, "witness.example/w1", WITNESS_PUB, WITNESS.sign)


def test_a_tampered_body_fails() -> None:
    note = signed_checkpoint(7)
    with pytest.raises(ValueError, match="bad signature"):
        verify_checkpoint(note.replace("\n7\n", "\n8\n", 1), ORIGIN, SERVER_PUB)
    text, _ = parse_note(note)
    forged_root = base64.b64encode(hashlib.sha256(b"other").digest()).decode()
    tampered = note.replace(base64.b64encode(ROOT).decode(), forged_root, 1)
    with pytest.raises(ValueError, match="bad signature"):
        verify_checkpoint(tampered, ORIGIN, SERVER_PUB)


def test_a_signature_by_another_key_fails() -> None:
    by_witness = sign_note(Checkpoint(ORIGIN, 7, ROOT).body(), ORIGIN, WITNESS_PUB, WITNESS.sign)
    with pytest.raises(ValueError, match="unknown key"):
        verify_checkpoint(by_witness, ORIGIN, SERVER_PUB)
    # the right name and key hash but another key's signature: a bad signature, not ignored
    line = f"\u2014 {ORIGIN} " + base64.b64encode(key_hash(ORIGIN, SERVER_PUB) + WITNESS.sign(
        Checkpoint(ORIGIN, 7, ROOT).body().encode())).decode() + "\n"
    with pytest.raises(ValueError, match="bad signature"):
        verify_checkpoint(Checkpoint(ORIGIN, 7, ROOT).body() + "\n" + line, ORIGIN, SERVER_PUB)
    with pytest.raises(ValueError, match="bad signature"):  # a good signature does not excuse a bad one
        verify_checkpoint(signed_checkpoint() + line, ORIGIN, SERVER_PUB)
    with pytest.raises(ValueError, match="unknown key"):  # the same key under another name
        verify_note(signed_checkpoint(), "cablecar.example/other", SERVER_PUB)


def test_a_key_that_shares_only_the_name_or_only_the_key_hash_is_unknown() -> None:
    # signed-note: "Verifiers MUST ignore signatures from unknown keys, even if they share a
    # name or ID (but not both) with a known key"
    body = Checkpoint(ORIGIN, 7, ROOT).body()
    junk = bytes(64)  # checked, it would fail
    same_hash = f"\u2014 impostor.example {base64.b64encode(key_hash(ORIGIN, SERVER_PUB) + junk).decode()}\n"
    same_name = f"\u2014 {ORIGIN} {base64.b64encode(bytes(4) + junk).decode()}\n"
    for line in (same_hash, same_name):
        assert verify_checkpoint(signed_checkpoint() + line, ORIGIN, SERVER_PUB).size == 7
        with pytest.raises(ValueError, match="unknown key"):
            verify_note(body + "\n" + line, ORIGIN, SERVER_PUB)


def test_a_wrong_origin_fails() -> None:
    other = sign_note(Checkpoint("cablecar.example/other", 7, ROOT).body(), ORIGIN, SERVER_PUB, SERVER.sign)
    assert verify_note(other, ORIGIN, SERVER_PUB)  # signed all right ...
    with pytest.raises(ValueError, match="origin"):  # ... but not this log's checkpoint
        verify_checkpoint(other, ORIGIN, SERVER_PUB)
    with pytest.raises(ValueError, match="unknown key"):
        verify_checkpoint(signed_checkpoint(), "cablecar.example/other", SERVER_PUB)


def test_a_body_that_is_not_a_checkpoint_fails_after_its_signature() -> None:
    note = sign_note("hello\n", ORIGIN, SERVER_PUB, SERVER.sign)
    with pytest.raises(ValueError, match="three lines"):
        verify_checkpoint(note, ORIGIN, SERVER_PUB)


GOOD_LINE = PETER_SIG


@pytest.mark.parametrize(("note", "complaint"), [
    (PETER_TEXT + GOOD_LINE, "blank line"),
    (PETER_TEXT + "\n", "no signature line"),
    (PETER_TEXT + "\n" + GOOD_LINE.rstrip("\n"), "newline"),
    (PETER_TEXT + "\n" + GOOD_LINE.replace("\u2014", "-"), "em dash"),
    (PETER_TEXT + "\n" + GOOD_LINE.replace("\u2014 ", "\u2014"), "em dash"),
    (PETER_TEXT + "\n" + GOOD_LINE + "\n", "no signature line"),  # a blank line last
    (PETER_TEXT + "\n" + GOOD_LINE.replace("x08go", "x08g*"), "base64"),
    (PETER_TEXT + "\n" + GOOD_LINE.replace("nAM=", "nAM"), "base64"),
    (PETER_TEXT + "\n\u2014 PeterNeumann " + base64.b64encode(b"\xc7\x4f\x20\xa3").decode() + "\n", "shorter"),
    (PETER_TEXT + "\n\u2014 PeterNeumann\n", "shorter"),
    (PETER_TEXT + "\n\u2014 Peter+Neumann " + GOOD_LINE.split(" ")[2], "key name"),
    ("x\tz\n\n" + GOOD_LINE, "control"),
    (PETER_TEXT + "\n" + GOOD_LINE * 101, "more than 100"),
])
def test_malformed_notes_say_what_is_wrong(note: str, complaint: str) -> None:
    with pytest.raises(ValueError, match=complaint):
        parse_note(note)
    with pytest.raises(ValueError):
        verify_note(note, *parse_verifier_key(PETER_VKEY))


def test_signing_refuses_what_it_cannot_sign() -> None:
    with pytest.raises(ValueError, match="newline"):
        sign_note("no newline", ORIGIN, SERVER_PUB, SERVER.sign)
    with pytest.raises(ValueError, match="control"):
        sign_note("a\rb\n", ORIGIN, SERVER_PUB, SERVER.sign)
    with pytest.raises(ValueError, match="UTF-8"):
        sign_note("a\ud800b\n", ORIGIN, SERVER_PUB, SERVER.sign)
    with pytest.raises(ValueError, match="key name"):
        sign_note("text\n", "two words", SERVER_PUB, SERVER.sign)
    with pytest.raises(ValueError, match="does not verify"):  # a signer that is not that key's
        sign_note("text\n", ORIGIN, SERVER_PUB, WITNESS.sign)
    with pytest.raises(ValueError, match="64 bytes"):
        sign_note("text\n", ORIGIN, SERVER_PUB, lambda message: SERVER.sign(message)[:63])


def test_notes_whose_text_holds_blank_lines_split_at_the_last_one() -> None:
    text = "first\n\nsecond\n\n"
    note = sign_note(text, ORIGIN, SERVER_PUB, SERVER.sign)
    assert note.startswith(text + "\n\u2014 ")
    assert parse_note(note)[0] == text == verify_note(note, ORIGIN, SERVER_PUB)
