"""Receipts: what the store gives for each acknowledged append, for the device that sent it to keep.

A receipt is the league log's proof that the event is in it (:class:`ProofReceipt`)::

    {"match": "final-2026", "seq": 12, "hash": "<the match's head hash after it>",
     "received_at": "2026-11-29T15:03:40.123456Z", "leaf": "append", "proof": "<a C2SP tlog proof>"}

``proof`` is the C2SP tlog proof (:mod:`matchstate.tlog.proof`) of the log leaf ``{"kind": leaf, "match",
"seq", "hash"}`` in the checkpoint signed for the append's commit group: no signature is made per append, one
per group. Whoever kept it can show, with the log's public key alone, that the log held that hash for that event
in a tree of that size and root; any later tree of the log must extend that one (a consistency proof shows it).

A receipt issued before the league log (:class:`Receipt`) is the store's own signature per append::

    {"match": "final-2026", "seq": 12, "hash": "<the match's head hash after it>",
     "received_at": "2026-11-29T15:03:40.123456Z", "key": "<fingerprint>", "signature": "<base64>"}

``key`` is the signing key's fingerprint (the first 16 hex digits of the SHA-256 of its raw 32-byte
public key) and ``signature`` the Ed25519 signature, in standard base64, of the canonical JSON of
the other five fields. Ed25519 signatures are deterministic: a retried append gets the very same
receipt. Whoever kept one can show, with the store's public key alone, that the store once said
event ``seq`` of the match had that hash, so a later rewrite of the log, even by someone who holds
the database, the secret and the signing key, is proven by any receipt kept from before it.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .. import jcs
from ..tlog import merkle
from ..tlog.checkpoint import SignedCheckpoint
from ..tlog.note import Verifier
from ..tlog.proof import TlogProof
from .chain import canonical, instant
from .leaguelog import APPEND, IMPORT, event_leaf

FIELDS = ("match", "seq", "hash", "received_at", "key", "signature")
PROOF_FIELDS = ("match", "seq", "hash", "received_at", "leaf", "proof")


@dataclass(frozen=True, slots=True)
class Receipt:
    """A signed acknowledgement that event ``seq`` of match ``match`` is stored, the match's head then ``hash``."""

    match: str
    seq: int
    hash: str
    received_at: str
    key: str
    signature: str

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in FIELDS}  # every field is a str or an int: nothing to copy

    def signed(self) -> bytes:
        """What the signature covers: the canonical JSON of every field but the signature."""
        return _signed(self.match, self.seq, self.hash, self.received_at, self.key)

    @classmethod
    def from_json(cls, value: Any) -> Receipt:
        """A receipt from its JSON object; :class:`ValueError` naming what is wrong with it."""
        if not isinstance(value, Mapping):
            raise ValueError(f"a receipt is a JSON object, not {type(value).__name__}")
        return cls(**_fields(value, FIELDS))

    def holds(self, public_key: Ed25519PublicKey) -> bool:
        """Whether its signature is ``public_key``'s over its other fields."""
        try:
            signature = base64.b64decode(self.signature, validate=True)
            public_key.verify(signature, self.signed())
        except (InvalidSignature, binascii.Error, ValueError):
            return False
        return True


@dataclass(frozen=True, slots=True)
class ProofReceipt:
    """The league log's word that event ``seq`` of match ``match``, the match's head then ``hash``, is its leaf
    of kind ``leaf`` (``append``, or ``import`` for an imported match's): ``proof`` is that leaf's C2SP tlog
    proof in a signed checkpoint (see the module's docstring)."""

    match: str
    seq: int
    hash: str
    received_at: str
    leaf: str
    proof: str

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in PROOF_FIELDS}  # as Receipt's: a str or an int each

    @classmethod
    def from_json(cls, value: Any) -> ProofReceipt:
        """A receipt from its JSON object; :class:`ValueError` naming what is wrong with it."""
        read = cls(**_fields(value, PROOF_FIELDS))
        if read.leaf not in (APPEND, IMPORT):
            raise ValueError(f"its leaf is {APPEND!r} or {IMPORT!r}, not {read.leaf!r}")
        return read

    @property
    def tlog_proof(self) -> TlogProof:
        """Its proof, read; :class:`NotProven` where it is not a tlog proof's form."""
        return TlogProof.parse(self.proof)

    def leaf_hash(self) -> bytes:
        """The hash of the league log leaf it proves."""
        return merkle.leaf_hash(jcs.canonical(event_leaf(self.leaf, self.match, self.seq, self.hash)))

    def verified(self, verifiers: Sequence[Verifier], origin: str | None = None) -> SignedCheckpoint:
        """Its checkpoint, once it is signed by one of ``verifiers`` (the log's keys) for log ``origin`` (default:
        the one it names) and its proof leads from its leaf to the checkpoint's root; else :class:`NotProven`."""
        proof = self.tlog_proof
        if origin is None:
            origin = proof.checkpoint.partition("\n")[0]
        return proof.verify(self.leaf_hash(), origin, verifiers)


AnyReceipt = Receipt | ProofReceipt


def read_receipt(value: Any) -> AnyReceipt:
    """A kept receipt of either form, from its JSON object; :class:`ValueError` naming what is wrong with it."""
    if isinstance(value, Mapping) and "proof" in value:
        return ProofReceipt.from_json(value)
    return Receipt.from_json(value)


def proof_receipt(code: str, stored_seq: int, digest: str, received_at: datetime, leaf: str,
                  proof: str) -> ProofReceipt:
    """The receipt of event ``stored_seq`` of match ``code`` (hash ``digest``), its leaf of kind ``leaf`` proven by
    the tlog proof ``proof``."""
    return ProofReceipt(code, stored_seq, digest, instant(received_at), leaf, proof)


def _fields(value: Any, names: tuple[str, ...]) -> dict[str, Any]:
    """A receipt's fields, each checked: ``seq`` a positive whole number, the others strings."""
    if not isinstance(value, Mapping):
        raise ValueError(f"a receipt is a JSON object, not {type(value).__name__}")
    if set(value) != set(names):
        raise ValueError(f"a receipt has the fields {', '.join(names)}, not {', '.join(value)}")
    seq = value["seq"]
    if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
        raise ValueError(f"its seq is not a positive whole number: {seq!r}")
    for name in names:
        if name != "seq" and not isinstance(value[name], str):
            raise ValueError(f"its {name} is not a string")
    return {name: value[name] for name in names}


def fingerprint(public_key: Ed25519PublicKey) -> str:
    """The first 16 hex digits of the SHA-256 of the raw public key."""
    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


def read_public_key(path: str) -> Ed25519PublicKey:
    """The Ed25519 public key in the PEM file at ``path``, as ``matchstate keys public`` prints it; refused in
    words where the file holds none."""
    from cryptography.exceptions import UnsupportedAlgorithm

    from ..errors import MatchstateError

    with open(path, "rb") as file:
        try:
            key = serialization.load_pem_public_key(file.read())
        except (ValueError, UnsupportedAlgorithm):  # not PEM, a private key's PEM, a kind cryptography cannot read
            raise MatchstateError(f"{path} holds no public key in PEM (-----BEGIN PUBLIC KEY-----)") from None
    if not isinstance(key, Ed25519PublicKey):
        raise MatchstateError(f"{path} is not an Ed25519 public key")
    return key


def public_pem(public_key: Ed25519PublicKey) -> str:
    """The public key as PEM (SubjectPublicKeyInfo), as ``matchstate keys public`` prints it."""
    return public_key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo).decode()


def sign(private_key: Ed25519PrivateKey, key: str, code: str, seq: int, digest: str, received_at: datetime) -> Receipt:
    """The receipt of event ``seq`` of match ``code``, whose hash is ``digest``; ``key`` is the key's
    :func:`fingerprint`."""
    received = instant(received_at)
    signature = base64.b64encode(private_key.sign(_signed(code, seq, digest, received, key))).decode("ascii")
    return Receipt(code, seq, digest, received, key, signature)


def _signed(code: str, seq: int, digest: str, received_at: str, key: str) -> bytes:
    return canonical({"match": code, "seq": seq, "hash": digest, "received_at": received_at, "key": key})
