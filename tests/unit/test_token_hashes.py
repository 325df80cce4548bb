"""Keyed token hashes (service/adapters/tokens.py) and the keying of plain
ones (events/migrations/tokenkeys.py): the keyed hash is computed from the plain one, so
a token in use matches after its hash is keyed; nothing else matches it."""

from __future__ import annotations

from service.adapters.tokens import HOST, TokenHasher, epoch_of, new_token, plain_hash

HASHER = TokenHasher(b"k" * 32)


def test_the_keyed_hash_is_made_from_the_plain_one_and_matches_only_its_token() -> None:
    token = new_token("st", "g1")
    stored = HASHER.rekey(plain_hash(token), "g1", "0")
    assert stored == HASHER.stored(token, "g1", 0) and epoch_of(stored) == 0
    assert HASHER.matches(token, "g1", 0, stored)
    assert not HASHER.matches(new_token("st", "g1"), "g1", 0, stored)
    assert not TokenHasher(b"another key, 32 bytes long!!!!!").matches(token, "g1", 0, stored)
    assert not HASHER.matches(token, "g1", HOST, stored)


def test_only_a_well_formed_keyed_hash_has_an_epoch() -> None:
    good = HASHER.stored("ht_g_" + "x" * 43, "g", HOST, epoch=12)
    assert epoch_of(good) == 12
    for bad in (None, 7, "", plain_hash("x"), "k1:x:" + "a" * 64, "k2:0:" + "a" * 64, "k1:0:" + "a" * 63,
                "k1:-1:" + "a" * 64):
        assert epoch_of(bad) is None, bad
