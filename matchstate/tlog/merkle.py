"""RFC 6962 (section 2.1) Merkle hash trees over SHA-256: leaf and node hashes, the root of a tree of n
leaves, inclusion and consistency proofs, and their verification (as RFC 9162 section 2.1.3.2 and 2.1.4.2
give the algorithms).

A leaf's hash is ``SHA-256(0x00 || data)``, a node's ``SHA-256(0x01 || left || right)``; the prefixes keep a
leaf from passing for a node. A tree of n leaves splits at k, the largest power of two below n, so every
tree of a log's past is a prefix of its present one. Proofs are lists of 32-byte hashes, from the leaf's (or
the old tree's) side up to the root's child.

The proof makers take the leaves' hashes as a :class:`Subtrees`, which answers the hash of any range of
leaves; :class:`Leaves` is the simple one over a list, and a store gives one over its own rows.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from typing import Protocol

HASH_SIZE = 32
EMPTY_ROOT = hashlib.sha256(b"").digest()  # the root of a tree of no leaves


def leaf_hash(data: bytes) -> bytes:
    """The hash of a leaf holding ``data``."""
    return hashlib.sha256(b"\x00" + data).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """The hash of an inner node over its children's hashes."""
    return hashlib.sha256(b"\x01" + left + right).digest()


def split(size: int) -> int:
    """The largest power of two below ``size`` (at least 2): where RFC 6962 splits a tree of ``size`` leaves."""
    return 1 << ((size - 1).bit_length() - 1)


class Subtrees(Protocol):
    """The hashes of a log's leaves, asked for by range."""

    def range_hash(self, start: int, end: int) -> bytes:
        """The root hash of the tree over leaves ``start`` to ``end`` (excluded); ``end > start``."""


class Leaves:
    """:class:`Subtrees` over a list of leaf hashes, in memory, remembering each complete subtree it computes
    (a range whose size is a power of two and whose start is a multiple of it), which never changes."""

    def __init__(self, hashes: Sequence[bytes] = ()) -> None:
        self.hashes = list(hashes)
        self._complete: dict[tuple[int, int], bytes] = {}

    def __len__(self) -> int:
        return len(self.hashes)

    def append(self, hashed: bytes) -> None:
        self.hashes.append(hashed)

    def range_hash(self, start: int, end: int) -> bytes:
        size = end - start
        if size == 1:
            return self.hashes[start]
        complete = size & (size - 1) == 0 and start % size == 0
        if complete and (known := self._complete.get((start, end))) is not None:
            return known
        k = split(size)
        hashed = node_hash(self.range_hash(start, start + k), self.range_hash(start + k, end))
        if complete:
            self._complete[(start, end)] = hashed
        return hashed


def root(leaves: Subtrees, size: int) -> bytes:
    """The root hash of the tree of the first ``size`` leaves."""
    return EMPTY_ROOT if size == 0 else leaves.range_hash(0, size)


def inclusion_proof(leaves: Subtrees, index: int, size: int) -> list[bytes]:
    """RFC 6962's PATH: the proof that leaf ``index`` is in the tree of the first ``size`` leaves."""
    if not 0 <= index < size:
        raise ValueError(f"leaf {index} is not in a tree of {size} leaves")
    proof: list[bytes] = []
    start, end = 0, size
    while end - start > 1:
        k = split(end - start)
        if index < start + k:
            proof.append(leaves.range_hash(start + k, end))
            end = start + k
        else:
            proof.append(leaves.range_hash(start, start + k))
            start += k
    proof.reverse()  # the recursion finds the root's child first; the proof starts at the leaf's sibling
    return proof


def consistency_proof(leaves: Subtrees, old_size: int, size: int) -> list[bytes]:
    """RFC 6962's PROOF: the proof that the tree of the first ``old_size`` leaves is a prefix of that of the
    first ``size``; empty where the sizes are equal or the old tree is empty."""
    if not 0 <= old_size <= size:
        raise ValueError(f"a tree of {old_size} leaves is not a prefix of one of {size}")
    if old_size in (0, size):
        return []
    proof: list[bytes] = []
    start, end, whole = 0, size, True  # whole: the old tree is this subtree's left part, which the verifier knows
    m = old_size
    while m != end - start:
        k = split(end - start)
        if m <= k:
            proof.append(leaves.range_hash(start + k, end))
            end = start + k
        else:
            proof.append(leaves.range_hash(start, start + k))
            start, m, whole = start + k, m - k, False
    if not whole:
        proof.append(leaves.range_hash(start, end))
    proof.reverse()
    return proof


def _shift_while_even(first: int, second: int) -> tuple[int, int]:
    while first and not first & 1:
        first, second = first >> 1, second >> 1
    return first, second


def verify_inclusion(index: int, size: int, leaf: bytes, proof: Sequence[bytes], root_hash: bytes) -> bool:
    """Whether ``proof`` shows the leaf with hash ``leaf`` at ``index`` in the tree of ``size`` with ``root_hash``."""
    if not 0 <= index < size or any(len(step) != HASH_SIZE for step in (leaf, root_hash, *proof)):
        return False
    fn, sn, hashed = index, size - 1, leaf
    for step in proof:
        if sn == 0:
            return False  # the proof is longer than the path
        if fn & 1 or fn == sn:
            hashed = node_hash(step, hashed)
            if not fn & 1:
                fn, sn = _shift_while_even(fn, sn)
        else:
            hashed = node_hash(hashed, step)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and hashed == root_hash


def verify_consistency(old_size: int, size: int, proof: Sequence[bytes], old_root: bytes, root_hash: bytes) -> bool:
    """Whether ``proof`` shows the tree of ``old_size`` leaves with ``old_root`` a prefix of the tree of ``size``
    with ``root_hash``."""
    if not 0 < old_size <= size:
        return False  # a proof from the empty tree proves nothing: a first checkpoint is taken, not proven
    if old_size == size:
        return not proof and old_root == root_hash
    if not proof or any(len(step) != HASH_SIZE for step in (old_root, root_hash, *proof)):
        return False
    path = list(proof)
    if old_size & (old_size - 1) == 0:  # the old tree is a complete subtree: its root is the first step
        path.insert(0, old_root)
    fn, sn = old_size - 1, size - 1
    while fn & 1:  # up to where the old tree's last leaf is a left child: the path starts there
        fn, sn = fn >> 1, sn >> 1
    first_root = second_root = path[0]
    for step in path[1:]:
        if sn == 0:
            return False
        if fn & 1 or fn == sn:
            first_root, second_root = node_hash(step, first_root), node_hash(step, second_root)
            if not fn & 1:
                fn, sn = _shift_while_even(fn, sn)
        else:
            second_root = node_hash(second_root, step)
        fn, sn = fn >> 1, sn >> 1
    return sn == 0 and first_root == old_root and second_root == root_hash
