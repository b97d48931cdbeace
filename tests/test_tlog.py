"""The transparency log's parts against the field's published vectors: transparency-dev/merkle's proof test
data (tests/data/merkle-vectors.json), the C2SP signed-note example, and RFC 6962's tree definition."""

import base64
import hashlib
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from matchstate.errors import NotProven
from matchstate.tlog import merkle
from matchstate.tlog.checkpoint import Checkpoint, SignedCheckpoint
from matchstate.tlog.note import Note, Signer, Verifier
from matchstate.tlog.proof import TlogProof

VECTORS = json.loads((Path(__file__).parent / "data" / "merkle-vectors.json").read_text())
# RFC 6962's test leaves, from which transparency-dev/merkle's happy-path roots and proofs are made.
RFC_LEAVES = [bytes.fromhex(text) for text in ("", "00", "10", "2021", "3031", "40414243", "5051525354555657",
                                               "606162636465666768696a6b6c6d6e6f")]


def b64(text: str | None) -> bytes:
    return base64.b64decode(text) if text else b""


@pytest.mark.parametrize("vector", VECTORS["inclusion"], ids=lambda vector: vector["file"])
def test_inclusion_agrees_with_transparency_dev_vectors(vector: dict[str, Any]) -> None:
    proof = [b64(step) for step in vector["proof"] or []]
    holds = merkle.verify_inclusion(vector["leafIdx"], vector["treeSize"], b64(vector["leafHash"]), proof,
                                    b64(vector["root"]))
    assert holds is not vector["wantErr"], vector["desc"]


@pytest.mark.parametrize("vector", VECTORS["consistency"], ids=lambda vector: vector["file"])
def test_consistency_agrees_with_transparency_dev_vectors(vector: dict[str, Any]) -> None:
    proof = [b64(step) for step in vector["proof"] or []]
    holds = merkle.verify_consistency(vector["size1"], vector["size2"], proof, b64(vector["root1"]),
                                      b64(vector["root2"]))
    assert holds is not vector["wantErr"], vector["desc"]


def test_the_proofs_made_are_the_published_ones() -> None:
    """Every happy-path vector's proof is the one this module makes from RFC 6962's test leaves."""
    leaves = merkle.Leaves([merkle.leaf_hash(leaf) for leaf in RFC_LEAVES])
    made = 0
    for vector in VECTORS["inclusion"]:
        if vector["desc"] == "happy path" and vector["treeSize"] <= len(RFC_LEAVES):
            assert merkle.inclusion_proof(leaves, vector["leafIdx"], vector["treeSize"]) == [
                b64(step) for step in vector["proof"] or []]
            assert merkle.root(leaves, vector["treeSize"]) == b64(vector["root"])
            made += 1
    for vector in VECTORS["consistency"]:
        if vector["desc"] == "happy path" and vector["size1"] > 0 and vector["size2"] <= len(RFC_LEAVES):
            assert merkle.consistency_proof(leaves, vector["size1"], vector["size2"]) == [
                b64(step) for step in vector["proof"] or []]
            made += 1
    assert made >= 8


# RFC 6962 section 2.1, written as the RFC writes it (recursion over lists), to check the module's loops.
def mth(hashes: list[bytes]) -> bytes:
    if len(hashes) == 1:
        return hashes[0]
    k = merkle.split(len(hashes))
    return merkle.node_hash(mth(hashes[:k]), mth(hashes[k:]))


def path(m: int, hashes: list[bytes]) -> list[bytes]:
    if len(hashes) == 1:
        return []
    k = merkle.split(len(hashes))
    return [*path(m, hashes[:k]), mth(hashes[k:])] if m < k else [*path(m - k, hashes[k:]), mth(hashes[:k])]


def subproof(m: int, hashes: list[bytes], whole: bool) -> list[bytes]:
    if m == len(hashes):
        return [] if whole else [mth(hashes)]
    k = merkle.split(len(hashes))
    if m <= k:
        return [*subproof(m, hashes[:k], whole), mth(hashes[k:])]
    return [*subproof(m - k, hashes[k:], False), mth(hashes[:k])]


SIZES = range(1, 34)
HASHES = [merkle.leaf_hash(b"leaf %d" % n) for n in range(max(SIZES))]


def test_every_proof_is_rfc_6962s_and_verifies() -> None:
    leaves = merkle.Leaves(HASHES)
    for size in SIZES:
        root = merkle.root(leaves, size)
        assert root == mth(HASHES[:size])
        for index in range(size):
            proof = merkle.inclusion_proof(leaves, index, size)
            assert proof == path(index, HASHES[:size])
            assert merkle.verify_inclusion(index, size, HASHES[index], proof, root)
        for old in range(1, size):
            proof = merkle.consistency_proof(leaves, old, size)
            assert proof == subproof(old, HASHES[:size], True)
            assert merkle.verify_consistency(old, size, proof, merkle.root(leaves, old), root)


def flipped(proof: list[bytes], step: int, bit: int) -> list[bytes]:
    changed = bytearray(proof[step])
    changed[bit // 8] ^= 1 << (bit % 8)
    return [*proof[:step], bytes(changed), *proof[step + 1:]]


def inclusion_mutations(index: int, size: int, proof: list[bytes],
                        root: bytes) -> Iterator[tuple[str, int, int, bytes, list[bytes], bytes]]:
    """Each mutation class of transparency-dev/merkle's tests, as (what, index, size, leaf, proof, root)."""
    leaf = HASHES[index]
    for step in range(len(proof)):
        for bit in (0, 7, 130, 255):
            yield f"bit {bit} of step {step} flipped", index, size, leaf, flipped(proof, step, bit), root
    yield "wrong index +1", index + 1, size, leaf, proof, root
    yield "wrong index -1", index - 1, size, leaf, proof, root
    yield "wrong index ^2", index ^ 2, size, leaf, proof, root
    yield "wrong size x2", index, size * 2, leaf, proof, root
    yield "wrong size /2", index, size // 2, leaf, proof, root
    yield "truncated", index, size, leaf, proof[:-1], root
    yield "extended with garbage", index, size, leaf, [*proof, bytes(32)], root
    yield "extended with the root", index, size, leaf, [*proof, root], root
    yield "preceded by garbage", index, size, leaf, [bytes(32), *proof], root
    yield "wrong leaf", index, size, merkle.leaf_hash(b"other"), proof, root
    yield "root and leaf swapped", index, size, root, proof, leaf


def test_every_mutated_inclusion_proof_is_rejected() -> None:
    leaves = merkle.Leaves(HASHES)
    for size in range(2, 34):
        root = merkle.root(leaves, size)
        for index in range(size):
            proof = merkle.inclusion_proof(leaves, index, size)
            for what, at, of, leaf, steps, made in inclusion_mutations(index, size, proof, root):
                assert not merkle.verify_inclusion(at, of, leaf, steps, made), (what, index, size)


Mutation = tuple[str, int, int, list[bytes], bytes, bytes]  # what, old size, new size, proof, old root, new root


def test_every_mutated_consistency_proof_is_rejected() -> None:
    leaves = merkle.Leaves(HASHES)
    for size in range(2, 34):
        root = merkle.root(leaves, size)
        for old in range(1, size):
            old_root, proof = merkle.root(leaves, old), merkle.consistency_proof(leaves, old, size)
            mutations: list[Mutation | None] = [
                (f"bit {bit} of step {step} flipped", old, size, flipped(proof, step, bit), old_root, root)
                for step in range(len(proof)) for bit in (0, 9, 255)]
            mutations += [
                ("old size +1", old + 1, size, proof, old_root, root),
                ("old size -1", old - 1, size, proof, old_root, root),
                ("new size x2", old, size * 2, proof, old_root, root),
                ("new size /2", old, size // 2, proof, old_root, root) if size // 2 > old else None,
                ("old size ^2", old ^ 2, size, proof, old_root, root) if old ^ 2 not in (0, old) else None,
                ("truncated", old, size, proof[:-1], old_root, root),
                ("extended", old, size, [*proof, bytes(32)], old_root, root),
                ("preceded", old, size, [old_root, *proof], old_root, root),
                ("roots swapped", old, size, proof, root, old_root),
                ("wrong old root", old, size, proof, merkle.leaf_hash(b"x"), root),
                ("wrong new root", old, size, proof, old_root, merkle.leaf_hash(b"x")),
            ]
            for mutation in filter(None, mutations):
                what, first, second, steps, first_root, second_root = mutation
                assert not merkle.verify_consistency(first, second, steps, first_root, second_root), (what, old, size)


# -- signed notes, checkpoints, tlog proofs ----------------------------------------------------------------

SPEC_VKEY = "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k"
SPEC_NOTE = ("This is an example message.\n\n\u2014 example.com/foo "
             "Uw2QOkn8srV1yJGh2VYRlL1Tnagv1YEq6TfXppzi2ONncAlTgK7Ztg1ERYNZXsYjOBH3mFXmRKuwHjG1Yu72IneyaQM=\n")


def test_the_signed_note_specs_example_verifies() -> None:
    verifier = Verifier.parse(SPEC_VKEY)
    assert verifier.vkey() == SPEC_VKEY
    note = Note.parse(SPEC_NOTE)
    assert note.text == "This is an example message.\n" and note.verified_by([verifier]) == [verifier]
    assert str(note) == SPEC_NOTE


def test_a_changed_note_or_an_unknown_key_is_refused() -> None:
    verifier = Verifier.parse(SPEC_VKEY)
    with pytest.raises(NotProven, match="does not verify"):
        Note.parse(SPEC_NOTE.replace("example message", "exemplary message")).verified_by([verifier])
    other = Signer("example.com/foo", Ed25519PrivateKey.generate()).verifier  # same name, another key: ignored
    with pytest.raises(NotProven, match="no known key"):
        Note.parse(SPEC_NOTE).verified_by([other])


@pytest.mark.parametrize("vkey", [
    "example.com/foo+530d903b+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k",  # wrong key ID
    "example.com/bar+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k",  # another name
    "example.com/foo+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2",  # truncated key
    "example com+530d903a+AekyeRrm56hApGFkyQR4ZCbV54Id2LKaANYcrnKv3U2k",  # a space in the name
    "example.com/foo+530d903a",
])
def test_a_bad_verifier_key_is_refused(vkey: str) -> None:
    with pytest.raises(NotProven):
        Verifier.parse(vkey)


def test_a_verifier_key_whose_base64_holds_a_plus_is_read() -> None:
    vkey = ""
    while "+" not in vkey.split("+", 2)[-1]:
        vkey = Signer("league.example/log", Ed25519PrivateKey.generate()).verifier.vkey()
    assert Verifier.parse(vkey).vkey() == vkey


def test_a_checkpoint_is_signed_verified_and_its_origin_checked() -> None:
    signer = Signer("league.example/log", Ed25519PrivateKey.generate())
    checkpoint = Checkpoint("league.example/log", 20852163, hashlib.sha256(b"root").digest())
    note = checkpoint.signed(signer)
    lines = note.split("\n")
    assert lines[:3] == ["league.example/log", "20852163", base64.b64encode(checkpoint.root).decode()]
    assert lines[3] == "" and lines[4].startswith("\u2014 league.example/log ")
    opened = SignedCheckpoint.open(note, "league.example/log", [signer.verifier])
    assert opened.checkpoint == checkpoint and str(opened) == note
    with pytest.raises(NotProven, match=r"not 'other\.example/log'"):
        SignedCheckpoint.open(note, "other.example/log", [signer.verifier])
    loose = base64.b64encode(checkpoint.root).decode()[:-2] + "1="  # the unused bits of its last character set
    for bad in ("league.example/log\n020852163\n", "league.example/log\n1\nnot base64!\n", "a\n1\n",
                f"league.example/log\n1\n{loose}\n"):
        with pytest.raises(NotProven):
            Checkpoint.from_text(bad)


def test_a_tlog_proof_round_trips_and_proves_its_leaf() -> None:
    signer = Signer("league.example/log", Ed25519PrivateKey.generate())
    leaves = merkle.Leaves(HASHES[:11])
    note = Checkpoint("league.example/log", 11, merkle.root(leaves, 11)).signed(signer)
    proof = TlogProof(6, tuple(merkle.inclusion_proof(leaves, 6, 11)), note, extra=b"final-2026 12")
    text = str(proof)
    assert text.startswith("c2sp.org/tlog-proof@v1\nextra ZmluYWwtMjAyNiAxMg==\nindex 6\n")
    read = TlogProof.parse(text)
    assert read == proof
    assert read.verify(HASHES[6], "league.example/log", [signer.verifier]).checkpoint.size == 11
    with pytest.raises(NotProven, match="does not lead"):
        read.verify(HASHES[5], "league.example/log", [signer.verifier])
    with pytest.raises(NotProven, match="does not lead"):
        TlogProof.parse(text.replace("index 6", "index 7")).verify(HASHES[6], "league.example/log", [signer.verifier])
