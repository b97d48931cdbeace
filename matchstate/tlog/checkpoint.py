"""C2SP checkpoints (c2sp.org/tlog-checkpoint): a signed note whose text is the log's origin, its tree size
and its root hash in base64, one a line, then optional extension lines."""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import NotProven
from .merkle import HASH_SIZE
from .note import Note, Signer, Verifier, strict_base64


@dataclass(frozen=True, slots=True)
class Checkpoint:
    """A log's tree head: who (``origin``), how many leaves (``size``), and their root hash."""

    origin: str
    size: int
    root: bytes
    extensions: tuple[str, ...] = ()

    def text(self) -> str:
        """The note text, each line ending in a newline."""
        lines = [self.origin, str(self.size), base64.b64encode(self.root).decode("ascii"), *self.extensions]
        return "".join(line + "\n" for line in lines)

    def signed(self, signer: Signer) -> str:
        """The checkpoint as a signed note of ``signer``'s."""
        return signer.sign(self.text())

    @classmethod
    def from_text(cls, text: str) -> Checkpoint:
        """A checkpoint from its note text; :class:`NotProven` naming what is wrong with it."""
        lines = text.split("\n")
        if len(lines) < 4 or lines[-1] != "" or any(not line for line in lines[:-1]):
            raise NotProven("a checkpoint's text is at least three non-empty lines, each ending in a newline")
        origin, size, root = lines[:3]
        if not re.fullmatch(r"0|[1-9][0-9]*", size):
            raise NotProven(f"a checkpoint's second line is its tree size in decimal, not {size!r}")
        try:
            digest = strict_base64(root)
        except binascii.Error:
            raise NotProven("a checkpoint's third line is its root hash in base64") from None
        if len(digest) != HASH_SIZE:
            raise NotProven(f"a checkpoint's root hash is {HASH_SIZE} bytes, not {len(digest)}")
        return cls(origin, int(size), digest, tuple(lines[3:-1]))


@dataclass(frozen=True, slots=True)
class SignedCheckpoint:
    """A checkpoint with the note that carries it (its signatures, the log's and any witnesses')."""

    checkpoint: Checkpoint
    note: Note

    @classmethod
    def open(cls, note: str | bytes, origin: str, verifiers: Sequence[Verifier]) -> SignedCheckpoint:
        """The checkpoint of log ``origin`` in ``note``, signed by one of ``verifiers`` (the log's keys)."""
        read = Note.parse(note)
        checkpoint = Checkpoint.from_text(read.text)
        if checkpoint.origin != origin:
            raise NotProven(f"the checkpoint is of log {checkpoint.origin!r}, not {origin!r}")
        read.verified_by(verifiers)
        return cls(checkpoint, read)

    def __str__(self) -> str:
        return str(self.note)
