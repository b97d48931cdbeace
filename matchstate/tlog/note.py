"""C2SP signed notes (c2sp.org/signed-note) with Ed25519 keys: a text, a blank line, and signature lines
``— <key name> base64(key ID || signature)``; keys named by their verifier key (*vkey*)
``<name>+<hex key ID>+base64(0x01 || public key)``.

A key's ID is the first four bytes of ``SHA-256(name || 0x0A || 0x01 || public key)``. A verifier ignores
signatures of keys it does not know (a witness's cosignature, a retired key's), refuses a note where a known
key's signature fails, and one that no known key signed.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey

from ..errors import NotProven

ED25519 = 0x01  # the signature type byte of plain Ed25519 note signatures
COSIGNATURE = 0x04  # timestamped Ed25519 checkpoint cosignatures (c2sp.org/tlog-cosignature)
DASH = "\u2014"  # the em dash that opens a signature line
MAX_SIGNATURES = 16  # the spec asks verifiers to accept at least this many
_NAME = re.compile(r"[^\s+]+")  # non-empty, no Unicode space, no plus


def strict_base64(text: str) -> bytes:
    """Standard base64 decoded, refused (:class:`binascii.Error`) unless it is the one encoding of its bytes:
    base64 leaves a few bits of its last character unused, and a text whose bytes two spellings give would
    let a changed character pass unseen."""
    decoded = base64.b64decode(text, validate=True)
    if base64.b64encode(decoded).decode("ascii") != text:
        raise binascii.Error("not the canonical base64 of its bytes")
    return decoded


def key_id(name: str, kind: int, public: bytes) -> bytes:
    """The 4-byte key ID of the key ``public`` of signature type ``kind`` named ``name``."""
    return hashlib.sha256(name.encode("utf-8") + b"\n" + bytes([kind]) + public).digest()[:4]


def checked_name(name: str) -> str:
    """``name``, where it can name a key (C2SP signed-note); :class:`NotProven` where not."""
    if not _NAME.fullmatch(name):
        raise NotProven(f"a key name is non-empty, with no space and no '+': {name!r}")
    return name


def raw_public(public_key: Ed25519PublicKey) -> bytes:
    return public_key.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)


@dataclass(frozen=True, slots=True)
class Verifier:
    """A known key: its name, ID, signature type and public key, as its vkey gives them."""

    name: str
    id: bytes
    kind: int
    public: bytes

    @classmethod
    def ed25519(cls, name: str, public_key: Ed25519PublicKey) -> Verifier:
        public = raw_public(public_key)
        return cls(checked_name(name), key_id(name, ED25519, public), ED25519, public)

    @classmethod
    def parse(cls, vkey: str) -> Verifier:
        """A verifier from its vkey text; :class:`NotProven` naming what is wrong with it."""
        parts = vkey.strip().split("+", 2)  # the key's base64 may hold a '+' too; the name may not
        if len(parts) != 3 or not re.fullmatch(r"[0-9a-f]{8}", parts[1]):
            raise NotProven(f"a verifier key is <name>+<8 hex digits>+<base64>, not {vkey!r}")
        name = checked_name(parts[0])
        try:
            material = strict_base64(parts[2])
        except binascii.Error:
            raise NotProven(f"the key of {name} is not base64") from None
        if len(material) != 33 or material[0] not in (ED25519, COSIGNATURE):
            raise NotProven(f"the key of {name} is not an Ed25519 key (type 0x01 or 0x04, 32 bytes)")
        if key_id(name, material[0], material[1:]).hex() != parts[1]:
            raise NotProven(f"the key ID of {name} is not the one its name and key give")
        return cls(name, bytes.fromhex(parts[1]), material[0], material[1:])

    @property
    def handle(self) -> str:
        """The key's name and ID, ``name+id``, as a policy and a note's signature line name it."""
        return f"{self.name}+{self.id.hex()}"

    def vkey(self) -> str:
        return f"{self.handle}+{base64.b64encode(bytes([self.kind]) + self.public).decode('ascii')}"

    def verifies(self, message: bytes, signature: bytes) -> bool:
        try:
            Ed25519PublicKey.from_public_bytes(self.public).verify(signature, message)
        except InvalidSignature:
            return False
        return True


@dataclass(frozen=True, slots=True)
class Signer:
    """An Ed25519 private key that signs notes under ``name``."""

    name: str
    private_key: Ed25519PrivateKey
    verifier: Verifier = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        # Made once: every signature line carries the key's ID, and the public key and its hash cost a sixth of
        # the signature itself (an append's checkpoint is signed on every commit).
        object.__setattr__(self, "verifier", Verifier.ed25519(self.name, self.private_key.public_key()))

    def signature_line(self, text: str) -> str:
        """The line that signs note text ``text``, with its newline."""
        signature = self.verifier.id + self.private_key.sign(text.encode("utf-8"))
        return f"{DASH} {self.name} {base64.b64encode(signature).decode('ascii')}\n"

    def sign(self, text: str) -> str:
        """The signed note of ``text`` (which ends in a newline), signed by this key alone."""
        return text + "\n" + self.signature_line(text)


@dataclass(frozen=True, slots=True)
class Signature:
    """One signature line of a note: its key name, key ID and signature bytes."""

    name: str
    id: bytes
    signature: bytes

    def line(self) -> str:
        return f"{DASH} {self.name} {base64.b64encode(self.id + self.signature).decode('ascii')}\n"


@dataclass(frozen=True, slots=True)
class Note:
    """A signed note, read but not yet verified: its text (with its last newline) and signatures."""

    text: str
    signatures: tuple[Signature, ...]

    @classmethod
    def parse(cls, note: str | bytes) -> Note:
        """A note from its bytes or text; :class:`NotProven` where it is not a signed note's form."""
        if isinstance(note, bytes):
            try:
                note = note.decode("utf-8")
            except UnicodeDecodeError:
                raise NotProven("a signed note is UTF-8 text") from None
        if any(ord(char) < 0x20 and char != "\n" for char in note):
            raise NotProven("a signed note holds no control character but the newline")
        text, blank, lines = note.rpartition("\n\n")
        if not blank or not text or not lines.endswith("\n"):
            raise NotProven("a signed note is its text, a blank line, then signature lines each ending in a newline")
        signatures = []
        for line in lines[:-1].split("\n"):
            parts = line.split(" ")
            if len(parts) != 3 or parts[0] != DASH:
                raise NotProven(f"a signature line is '{DASH} <key name> <base64>', not {line!r}")
            try:
                raw = strict_base64(parts[2])
            except binascii.Error:
                raise NotProven(f"the signature of {parts[1]} is not base64") from None
            if len(raw) < 5:
                raise NotProven(f"the signature of {parts[1]} is too short to hold a key ID and a signature")
            signatures.append(Signature(checked_name(parts[1]), raw[:4], raw[4:]))
        if len(signatures) > MAX_SIGNATURES:
            raise NotProven(f"a note with more than {MAX_SIGNATURES} signatures")
        return cls(text + "\n", tuple(signatures))

    def text_bytes(self) -> bytes:
        return self.text.encode("utf-8")

    def verified_by(self, verifiers: Iterable[Verifier]) -> list[Verifier]:
        """The known keys (of type Ed25519) whose signature the note holds, each verified; :class:`NotProven`
        where a known key's signature fails, or where no known key signed it. Others' lines are ignored."""
        known = {(verifier.name, verifier.id): verifier for verifier in verifiers if verifier.kind == ED25519}
        verified = []
        for signature in self.signatures:
            verifier = known.get((signature.name, signature.id))
            if verifier is None:
                continue
            if not verifier.verifies(self.text_bytes(), signature.signature):
                raise NotProven(f"the signature of {signature.name} does not verify: the note was changed")
            verified.append(verifier)
        if not verified:
            raise NotProven("no known key signed the note")
        return verified

    def __str__(self) -> str:
        return self.text + "\n" + "".join(signature.line() for signature in self.signatures)


def open_note(note: str | bytes, verifiers: Sequence[Verifier]) -> Note:
    """The note, read and verified by at least one of ``verifiers`` (see :meth:`Note.verified_by`)."""
    read = Note.parse(note)
    read.verified_by(verifiers)
    return read
