"""C2SP checkpoint cosignatures (c2sp.org/tlog-cosignature), Ed25519 form: a note signature line whose key ID is
``SHA-256(name || 0x0A || 0x04 || public key)[:4]`` and whose signature is an 8-byte big-endian POSIX time then
the Ed25519 signature of ``cosignature/v1\\ntime <t>\\n`` followed by the checkpoint's note text.

A cosignature says: as of that time, this is the largest tree the cosigner has seen of the log, consistent with
every one it saw before."""

from __future__ import annotations

import struct
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..errors import NotProven
from .note import COSIGNATURE, Note, Signature, Verifier, key_id, raw_public

HEADER = "cosignature/v1"
SIGNATURE_BYTES = 8 + 64  # the timestamp and the Ed25519 signature


def message(text: str, timestamp: int) -> bytes:
    """What a cosignature of the checkpoint with note text ``text`` at ``timestamp`` signs."""
    return f"{HEADER}\ntime {timestamp}\n{text}".encode()


def cosigner_verifier(name: str, public_key: Ed25519PublicKey) -> Verifier:
    """The verifier of an Ed25519 cosigner (signature type 0x04)."""
    public = raw_public(public_key)
    return Verifier(name, key_id(name, COSIGNATURE, public), COSIGNATURE, public)


@dataclass(frozen=True, slots=True)
class Cosigner:
    """An Ed25519 key that cosigns checkpoints under ``name`` (a witness's)."""

    name: str
    private_key: Ed25519PrivateKey

    @property
    def verifier(self) -> Verifier:
        return cosigner_verifier(self.name, self.private_key.public_key())

    def cosign(self, text: str, timestamp: int) -> Signature:
        """The cosignature of the checkpoint whose note text is ``text``, made at POSIX time ``timestamp``."""
        if not 0 < timestamp < 2**63:
            raise ValueError(f"a cosignature's time is a POSIX time above 0, not {timestamp}")
        signed = self.private_key.sign(message(text, timestamp))
        verifier = self.verifier
        return Signature(verifier.name, verifier.id, struct.pack(">Q", timestamp) + signed)


def cosigned_at(verifier: Verifier, note: Note) -> int | None:
    """The time of ``verifier``'s cosignature on ``note``; None where the note holds none of its; :class:`NotProven`
    where its line is there but does not verify (a note with a known key's bad signature is malformed)."""
    if verifier.kind != COSIGNATURE:
        raise ValueError(f"{verifier.name} is not a cosigner's key (type 0x04)")
    for signature in note.signatures:
        if (signature.name, signature.id) != (verifier.name, verifier.id):
            continue
        if len(signature.signature) != SIGNATURE_BYTES:
            raise NotProven(f"the cosignature of {verifier.name} is not a timestamp and an Ed25519 signature")
        (timestamp,) = struct.unpack(">Q", signature.signature[:8])
        if not verifier.verifies(message(note.text, timestamp), signature.signature[8:]):
            raise NotProven(f"the cosignature of {verifier.name} does not verify: the checkpoint was changed")
        return int(timestamp)
    return None
