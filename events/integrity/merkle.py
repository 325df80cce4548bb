"""The Merkle tree of the transparency log (RFC 9162 §2.1): hashes, proofs, their checks.

Pure arithmetic over raw 32-byte SHA-256 hashes; no I/O, no clock.

    leaf hash = SHA-256(0x00 || leaf input)      node hash = SHA-256(0x01 || left || right)
    MTH({}) = SHA-256("")   MTH({d}) = leaf hash of d
    MTH(D[n]) = node hash(MTH(D[0:k]), MTH(D[k:n]))  with k the largest power of two < n

A store keeps only the *perfect* subtrees: the node ``(level, index)`` covers the
leaves ``[index * 2**level, (index + 1) * 2**level)``; level 0 holds the leaf
hashes.  :func:`new_nodes` lists the nodes an append creates, in an order a store
can hash them in; every MTH a proof needs is a subtree of RFC 9162's recursion,
which :func:`range_nodes` splits into at most ~2·log2(n) perfect nodes and
:func:`range_hash` folds back into the MTH.  The proofs are lists of MTHs of leaf
ranges (:func:`inclusion_ranges`, :func:`consistency_ranges`) so that the store
answers them with a handful of node reads; the checks (:func:`verify_inclusion`,
:func:`verify_consistency`) are RFC 9162 §2.1.3.2 and §2.1.4.2 and never raise.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence

#: bytes of every hash
HASH_BYTES = 32
#: MTH of the empty tree: SHA-256 of the empty string
EMPTY_ROOT = hashlib.sha256(b"").digest()

Node = tuple[int, int]  # (level, index)
Range = tuple[int, int]  # leaves [start, end)


def leaf_hash(data: bytes) -> bytes:
    """SHA-256(0x00 || data)."""
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """SHA-256(0x01 || left || right)."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def _split(n: int) -> int:
    """The largest power of two smaller than ``n`` (``n`` >= 2): RFC 9162's k."""
    return 1 << ((n - 1).bit_length() - 1)


def root(leaf_hashes: Sequence[bytes]) -> bytes:
    """MTH of the leaves given by their leaf hashes (EMPTY_ROOT for none).

    Level by level: pairs are hashed, an odd last node moves up unchanged, which
    is the same tree as RFC 9162's recursion.
    """
    level = list(leaf_hashes)
    if not level:
        return EMPTY_ROOT
    while len(level) > 1:
        paired = [node_hash(level[i], level[i + 1]) for i in range(0, len(level) - 1, 2)]
        if len(level) % 2:
            paired.append(level[-1])
        level = paired
    return level[0]


def _check_range(start: int, end: int) -> None:
    if not 0 <= start <= end:
        raise ValueError(f"not a leaf range: [{start}, {end})")
    if end - start >= 2 and start % _split(end - start):
        raise ValueError(f"[{start}, {end}) is not a subtree of RFC 9162's recursion: its start "
                         f"is not a multiple of {_split(end - start)} (the largest power of two "
                         f"below its length)")


def range_nodes(start: int, end: int) -> list[Node]:
    """The perfect nodes ``(level, index)``, left to right, whose hashes fold
    (:func:`range_hash`) into MTH(D[start:end]).

    Supported ranges: ``0 <= start <= end`` and, when ``end - start >= 2``,
    ``start`` a multiple of k, the largest power of two smaller than
    ``end - start`` (then RFC 9162 splits the range into the perfect aligned
    subtree ``[start, start + k)`` and a rest that again qualifies).  Every range
    with ``start == 0`` does, and so does every MTH that an inclusion or
    consistency proof holds.  Anything else is a ValueError.  The empty range
    has no nodes (its MTH is EMPTY_ROOT).
    """
    _check_range(start, end)
    nodes: list[Node] = []
    while end > start:
        n = end - start
        if n & (n - 1) == 0 and start % n == 0:  # one perfect aligned subtree
            level = n.bit_length() - 1
            nodes.append((level, start >> level))
            break
        k = _split(n)
        level = k.bit_length() - 1
        nodes.append((level, start >> level))
        start += k
    return nodes


def range_hash(hashes: Sequence[bytes]) -> bytes:
    """MTH of a range from the hashes of its :func:`range_nodes` (left to right):
    folded from the right with :func:`node_hash`; EMPTY_ROOT for none."""
    if not hashes:
        return EMPTY_ROOT
    result = hashes[-1]
    for left in reversed(hashes[:-1]):
        result = node_hash(left, result)
    return result


def tree_nodes(size: int) -> list[Node]:
    """The nodes whose hashes make the root of a tree of ``size`` leaves."""
    return range_nodes(0, size)


def new_nodes(old_size: int, new_size: int) -> list[Node]:
    """Every perfect node (leaves included) of a tree of ``new_size`` leaves that a
    tree of ``old_size`` leaves lacks, in append order: each leaf, then the nodes
    it completes, lowest first, so each node comes after its two children."""
    if not 0 <= old_size <= new_size:
        raise ValueError(f"cannot grow a tree of {old_size} leaves to {new_size}")
    nodes: list[Node] = []
    for leaf in range(old_size, new_size):
        nodes.append((0, leaf))
        level, done = 0, leaf + 1
        while done % (2 << level) == 0:  # the leaf completes a node one level up
            level += 1
            nodes.append((level, (done >> level) - 1))
    return nodes


def inclusion_ranges(index: int, size: int) -> list[Range]:
    """The leaf ranges whose MTHs make the inclusion proof of leaf ``index`` in a
    tree of ``size`` leaves, in proof order (RFC 9162 PATH: deepest first)."""
    if not 0 <= index < size:
        raise ValueError(f"no leaf {index} in a tree of {size} leaves")
    start, end, siblings = 0, size, []
    while end - start > 1:
        middle = start + _split(end - start)
        if index < middle:
            siblings.append((middle, end))
            end = middle
        else:
            siblings.append((start, middle))
            start = middle
    return siblings[::-1]


def consistency_ranges(first: int, second: int) -> list[Range]:
    """The leaf ranges whose MTHs make the consistency proof from a tree of
    ``first`` leaves to one of ``second`` (RFC 9162 PROOF/SUBPROOF, in proof
    order); none when the sizes are equal.  ``0 < first <= second``."""
    if not 0 < first <= second:
        raise ValueError(f"no consistency proof from {first} leaves to {second}")
    start, end, m = 0, second, first  # m: how many of the range's leaves the old tree holds
    known = True  # while the range starts at 0, its old part's MTH is the old root
    siblings: list[Range] = []
    while m != end - start:
        k = _split(end - start)
        if m <= k:
            siblings.append((start + k, end))
            end = start + k
        else:
            siblings.append((start, start + k))
            start, m, known = start + k, m - k, False
    head = [] if known else [(start, end)]
    return head + siblings[::-1]


def inclusion_proof(index: int, size: int, mth: Callable[[int, int], bytes]) -> list[bytes]:
    """The inclusion proof of leaf ``index`` in a tree of ``size`` leaves;
    ``mth(a, b)`` answers MTH(D[a:b])."""
    return [mth(a, b) for a, b in inclusion_ranges(index, size)]


def consistency_proof(first: int, second: int, mth: Callable[[int, int], bytes]) -> list[bytes]:
    """The consistency proof from a tree of ``first`` leaves to one of ``second``;
    ``mth(a, b)`` answers MTH(D[a:b])."""
    return [mth(a, b) for a, b in consistency_ranges(first, second)]


def _is_size(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and value >= 0


def _is_hash(value: object) -> bool:
    return isinstance(value, bytes) and len(value) == HASH_BYTES


def _are_hashes(proof: object) -> bool:
    return isinstance(proof, Sequence) and not isinstance(proof, (bytes, str)) and all(
        _is_hash(h) for h in proof)


def verify_inclusion(leaf: bytes, index: int, size: int, proof: Sequence[bytes], root: bytes) -> bool:
    """Whether ``proof`` shows the leaf hash ``leaf`` at ``index`` in the tree of
    ``size`` leaves whose MTH is ``root`` (RFC 9162 §2.1.3.2).  Any malformed
    input is False."""
    if not (_is_size(index) and _is_size(size) and index < size and _is_hash(leaf)
            and _is_hash(root) and _are_hashes(proof)):
        return False
    fn, sn, result = index, size - 1, leaf
    for sibling in proof:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            result = node_hash(sibling, result)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            result = node_hash(result, sibling)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and result == root


def verify_consistency(first: int, second: int, proof: Sequence[bytes],
                       first_root: bytes, second_root: bytes) -> bool:
    """Whether ``proof`` shows that the tree of ``second`` leaves with MTH
    ``second_root`` extends the tree of ``first`` leaves with MTH ``first_root``
    (RFC 9162 §2.1.4.2).  ``0 < first <= second``; any malformed input is False."""
    if not (_is_size(first) and _is_size(second) and 0 < first <= second and _is_hash(first_root)
            and _is_hash(second_root) and _are_hashes(proof)):
        return False
    if first == second:
        return len(proof) == 0 and first_root == second_root
    if not proof:
        return False
    path = list(proof)
    if first & (first - 1) == 0:  # an exact power of two: the old root is a node of the new tree
        path.insert(0, first_root)
    fn, sn = first - 1, second - 1
    while fn & 1:
        fn, sn = fn >> 1, sn >> 1
    old, new = path[0], path[0]
    for sibling in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            old, new = node_hash(sibling, old), node_hash(sibling, new)
            while not fn & 1 and fn != 0:
                fn, sn = fn >> 1, sn >> 1
        else:
            new = node_hash(new, sibling)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and old == first_root and new == second_root
