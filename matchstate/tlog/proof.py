"""C2SP tlog proofs (c2sp.org/tlog-proof): an offline proof that a leaf is in a log, as text::

    c2sp.org/tlog-proof@v1
    extra <base64>            (optional)
    index <leaf index>
    <base64 hash>             (the inclusion proof, the leaf's sibling first)
    ...
                              (a blank line)
    <the signed checkpoint, verbatim>
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..errors import NotProven
from .checkpoint import SignedCheckpoint
from .merkle import verify_inclusion
from .note import Verifier, strict_base64

HEADER = "c2sp.org/tlog-proof@v1"


@dataclass(frozen=True, slots=True)
class TlogProof:
    """Leaf ``index``'s inclusion proof in the tree of the signed ``checkpoint`` (its note's text)."""

    index: int
    hashes: tuple[bytes, ...]
    checkpoint: str
    extra: bytes | None = None

    def __str__(self) -> str:
        lines = [HEADER]
        if self.extra is not None:
            lines.append("extra " + base64.b64encode(self.extra).decode("ascii"))
        lines.append(f"index {self.index}")
        lines += [base64.b64encode(step).decode("ascii") for step in self.hashes]
        return "\n".join(lines) + "\n\n" + self.checkpoint

    @classmethod
    def parse(cls, text: str | bytes) -> TlogProof:
        """A proof from its text; :class:`NotProven` naming what is wrong with its form."""
        if isinstance(text, bytes):
            try:
                text = text.decode("utf-8")
            except UnicodeDecodeError:
                raise NotProven("a tlog proof is UTF-8 text") from None
        head, blank, checkpoint = text.partition("\n\n")
        lines = head.split("\n")
        if not blank or lines[0] != HEADER:
            raise NotProven(f"a tlog proof starts with the line {HEADER!r}; a blank line comes before its checkpoint")
        extra = None
        rest = lines[1:]
        if rest and rest[0].startswith("extra "):
            extra = _base64(rest.pop(0)[6:], "its extra data")
        if not rest or not re.fullmatch(r"index (0|[1-9][0-9]*)", rest[0]):
            raise NotProven("a tlog proof's index line is 'index <decimal>'")
        hashes = tuple(_base64(line, "a proof hash") for line in rest[1:])
        if any(len(step) != 32 for step in hashes):
            raise NotProven("each line of an inclusion proof is a SHA-256 hash in base64")
        return cls(int(rest[0][6:]), hashes, checkpoint, extra)

    def verify(self, leaf: bytes, origin: str, verifiers: Sequence[Verifier]) -> SignedCheckpoint:
        """The checkpoint, once its signature and this proof of the leaf with hash ``leaf`` hold; else
        :class:`NotProven`."""
        signed = SignedCheckpoint.open(self.checkpoint, origin, verifiers)
        tree = signed.checkpoint
        if not verify_inclusion(self.index, tree.size, leaf, self.hashes, tree.root):
            raise NotProven(f"the inclusion proof of leaf {self.index} does not lead to the root of the checkpoint "
                            f"of {tree.size} leaves")
        return signed


def _base64(text: str, what: str) -> bytes:
    try:
        return strict_base64(text)
    except binascii.Error:
        raise NotProven(f"{what} is not base64: {text!r}") from None
