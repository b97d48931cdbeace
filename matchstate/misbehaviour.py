"""Misbehaviour reports: what a page hands over when the league log showed it a fork or a rollback
(``matchstate/web/static/logproof.mjs``), checked with no server by ``matchstate verify --report FILE``.

A report is JSON: ``kind`` (``fork``, ``rollback`` or ``forged``), the log's ``origin`` and ``vkey``, the checkpoint
the page had ``seen`` and the one it was ``given`` (both signed notes, verbatim), and the ``consistency`` proof the
server gave between them, if any. What it proves: two checkpoints of one size with different roots, both signed by
the log's key, are a fork beyond doubt; a newer checkpoint whose consistency proof from the older fails shows the
server could not prove its tree extends one it signed (a fork, or a tree cut back and grown again). A server that
refused the proof to a size it once signed was rolled back, but the report cannot show the refusal: the two
checkpoints alone prove nothing, and the server must be asked again. Whether ``vkey`` is the league's key is for the
reader to compare with the key the league publishes.
"""

from __future__ import annotations

import base64
import binascii
import json
from pathlib import Path

from .errors import MatchstateError, NotProven
from .tlog import merkle
from .tlog.checkpoint import Checkpoint, SignedCheckpoint
from .tlog.note import Verifier

FORMAT = "matchstate-misbehaviour-report/1"


def check_report(path: Path) -> tuple[bool, list[str]]:
    """Whether the report at ``path`` shows misbehaviour by the log whose key it names, and what it shows;
    :class:`MatchstateError` where there is no report to read (no file, no JSON, not the report's form)."""
    try:
        report = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(report, dict) or report.get("format") != FORMAT:
            raise MatchstateError(f"{path} is not a misbehaviour report ({FORMAT})")
        key = Verifier.parse(report["vkey"])
        given = _opened(report["given"], report["origin"], key)
        if report["kind"] == "forged" or report.get("seen") is None:
            return False, ["the report holds no checkpoint seen before: the one given is all it has, and it "
                           "is signed by the log's key"]
        seen = _opened(report["seen"], report["origin"], key)
    except NotProven as err:
        return False, [f"the report proves nothing: {err}"]
    except (OSError, ValueError, KeyError, TypeError) as err:  # a script reads 0 as "no misbehaviour": not this
        raise MatchstateError(f"the report cannot be read: {err}") from None
    said = [f"the log {given.origin} (key {key.vkey()}) signed a tree of {seen.size} leaves, root "
            f"{_b64(seen.root)}, and a tree of {given.size} leaves, root {_b64(given.root)}"]
    if seen.size == given.size:
        if seen.root == given.root:
            return False, [*said, "they are the same tree: no misbehaviour"]
        return True, [*said, "two trees of one size with different roots, both signed: the log forked"]
    older, newer = sorted((seen, given), key=lambda tree: tree.size)
    consistency = report.get("consistency")
    if consistency is None:
        if report["kind"] != "rollback" or given.size >= seen.size:
            return False, [*said, "no consistency proof: nothing more is proven"]
        # Two checkpoints say nothing of which came first: anyone holding an honest log's two could write this.
        return False, [*said, f"no consistency proof: the page says the server would not prove that its tree of "
                              f"{older.size} leaves is a prefix of the one of {newer.size}, as a server rolled back "
                              "to an older copy cannot, but two checkpoints alone do not show it. Ask the server: "
                              f"GET /api/log/consistency?from={older.size}&to={newer.size}; a refusal that it holds "
                              "fewer leaves is the rollback, a proof that holds shows none"]
    try:
        proof = [base64.b64decode(step, validate=True) for step in consistency["proof"]]
    except (binascii.Error, KeyError, TypeError) as err:
        return False, [*said, f"its consistency proof cannot be read: {err}"]
    if merkle.verify_consistency(older.size, newer.size, proof, older.root, newer.root):
        return False, [*said, "the consistency proof holds: the newer tree extends the older; no misbehaviour"]
    return True, [*said, f"the proof the server gave does not show that the tree of {newer.size} leaves extends the "
                         f"one of {older.size}: the log forked, or was cut back and grew again"]


def _opened(note: str, origin: str, key: Verifier) -> Checkpoint:
    return SignedCheckpoint.open(note, origin, [key]).checkpoint


def _b64(digest: bytes) -> str:
    return base64.b64encode(digest).decode("ascii")
