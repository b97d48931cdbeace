"""Receipts: what the store signs for each acknowledged append, for the device that sent it to keep.

A receipt is JSON::

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
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from datetime import datetime
from typing import Any

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from .chain import canonical, instant

FIELDS = ("match", "seq", "hash", "received_at", "key", "signature")


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
        return asdict(self)

    def signed(self) -> bytes:
        """What the signature covers: the canonical JSON of every field but the signature."""
        return _signed(self.match, self.seq, self.hash, self.received_at, self.key)

    @classmethod
    def from_json(cls, value: Any) -> Receipt:
        """A receipt from its JSON object; :class:`ValueError` naming what is wrong with it."""
        if not isinstance(value, Mapping):
            raise ValueError(f"a receipt is a JSON object, not {type(value).__name__}")
        if set(value) != set(FIELDS):
            raise ValueError(f"a receipt has the fields {', '.join(FIELDS)}, not {', '.join(value)}")
        seq = value["seq"]
        if not isinstance(seq, int) or isinstance(seq, bool) or seq < 1:
            raise ValueError(f"its seq is not a positive whole number: {seq!r}")
        for name in ("match", "hash", "received_at", "key", "signature"):
            if not isinstance(value[name], str):
                raise ValueError(f"its {name} is not a string")
        return cls(**{name: value[name] for name in FIELDS})

    def holds(self, public_key: Ed25519PublicKey) -> bool:
        """Whether its signature is ``public_key``'s over its other fields."""
        try:
            signature = base64.b64decode(self.signature, validate=True)
            public_key.verify(signature, self.signed())
        except (InvalidSignature, binascii.Error, ValueError):
            return False
        return True


def fingerprint(public_key: Ed25519PublicKey) -> str:
    """The first 16 hex digits of the SHA-256 of the raw public key."""
    raw = public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    return hashlib.sha256(raw).hexdigest()[:16]


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
