"""The ``add-checkpoint`` request of c2sp.org/tlog-witness: its body read, its checks in the spec's order, each
refusal with the status the spec gives it, and the cosignature once every check holds and the state is written."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from ..errors import MatchstateError, NotProven
from ..tlog import merkle
from ..tlog.checkpoint import Checkpoint
from ..tlog.cosignature import Cosigner
from ..tlog.note import Note, strict_base64
from ..tlog.policy import Policy
from .state import WitnessState

MAX_PROOF_LINES = 63  # the spec's bound on a consistency proof's lines
SIZE_CONTENT_TYPE = "text/x.tlog.size"


class Refused(MatchstateError):
    """A request the witness does not cosign: ``status`` its HTTP status; ``size`` (a 409's) the size of the latest
    checkpoint it cosigned of the log, which the answer's body carries."""

    def __init__(self, status: int, message: str, size: int | None = None) -> None:
        super().__init__(message)
        self.status, self.size = status, size


@dataclass(frozen=True, slots=True)
class Request:
    """An ``add-checkpoint`` body: the old size, the consistency proof and the checkpoint's signed note."""

    old: int
    proof: tuple[bytes, ...]
    note: str

    @classmethod
    def parse(cls, body: bytes) -> Request:
        """The request in ``body``; :class:`Refused` (400) where it is not of the spec's form."""
        try:
            text = body.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused(400, "the body is not UTF-8 text") from None
        head, blank, note = text.partition("\n\n")
        lines = head.split("\n")
        found = re.fullmatch(r"old (0|[1-9][0-9]*)", lines[0])
        if not blank or found is None:
            raise Refused(400, "the body is 'old <size>', the proof's lines, a blank line, then the checkpoint")
        if len(lines) - 1 > MAX_PROOF_LINES:
            raise Refused(400, f"a consistency proof has at most {MAX_PROOF_LINES} lines")
        try:
            proof = tuple(strict_base64(line) for line in lines[1:])
        except ValueError:
            raise Refused(400, "each consistency proof line is a hash in base64") from None
        return cls(int(found[1]), proof, note)


class Witness:
    """A witness of the logs ``logs`` names (their ``log`` lines), cosigning with ``cosigner`` at the POSIX time
    ``clock`` gives, keeping its state in ``state``."""

    def __init__(self, cosigner: Cosigner, logs: Policy, state: WitnessState, clock: Callable[[], int]) -> None:
        self.cosigner, self.logs, self.state, self.clock = cosigner, logs, state, clock

    def add_checkpoint(self, body: bytes) -> str:
        """The cosignature line of the checkpoint ``body`` submits, once it holds and is stored; else
        :class:`Refused`."""
        request = Request.parse(body)
        try:
            note = Note.parse(request.note)
            checkpoint = Checkpoint.from_text(note.text)
        except NotProven as err:
            raise Refused(400, f"the checkpoint cannot be read: {err}") from None
        if not any(key.verifier.name == checkpoint.origin for key in self.logs.logs):
            raise Refused(404, f"this witness follows no log {checkpoint.origin!r}")
        try:
            self.logs.signed(request.note)
        except NotProven as err:
            raise Refused(403, f"the checkpoint is not signed by a key of its log: {err}") from None
        if request.old > checkpoint.size:
            raise Refused(400, f"the old size {request.old} is larger than the checkpoint's {checkpoint.size}")

        def check(latest: tuple[int, bytes] | None) -> None:
            size, root = latest if latest is not None else (0, merkle.EMPTY_ROOT)
            if request.old != size:
                raise Refused(409, f"the latest checkpoint cosigned of {checkpoint.origin} has {size} leaves, "
                                   f"not {request.old}", size)
            _consistent(request, checkpoint, root)

        self.state.advance(checkpoint.origin, checkpoint.size, checkpoint.root, request.note, check)
        return self.cosigner.cosign(note.text, self.clock()).line()


def _consistent(request: Request, checkpoint: Checkpoint, old_root: bytes) -> None:
    """:class:`Refused` (422) unless ``request``'s proof shows ``checkpoint`` extends the tree of its old size."""
    if checkpoint.size == 0 and checkpoint.root != merkle.EMPTY_ROOT:
        raise Refused(422, "a checkpoint of no leaves has the empty tree's root")
    if request.old == 0:
        if request.proof:
            raise Refused(422, "a proof from the empty tree is empty")
        return
    if request.old == checkpoint.size:
        if checkpoint.root != old_root or request.proof:
            raise Refused(422, f"the checkpoint has the size of the one cosigned before ({checkpoint.size}) "
                               "but another root: the log forked")
        return
    if not merkle.verify_consistency(request.old, checkpoint.size, request.proof, old_root, checkpoint.root):
        raise Refused(422, f"the proof does not show the tree of {checkpoint.size} leaves extends the one of "
                           f"{request.old} cosigned before")
