"""Evidence bundles: a match's record that anyone checks years later with no database, no secret and no server.

``matchstate archive MATCH DIR`` (or ``--season YYYY``) writes, per match, ``DIR/<code>/`` (:func:`bundle_folder`):

- ``events.jsonl``: one line per event, every fact its chain hash covers (the text as received, role,
  received_at, the engine version that ruled it, the chain version), its previous hash and hash, the ruling
  and state the engine gave, and which league log leaf holds it (``leaf``: ``append`` or ``import``);
- ``proofs/<seq>.tlog-proof``: the C2SP tlog proof of that leaf in the bundle's checkpoint;
- ``checkpoint``: the league log's signed checkpoint (C2SP tlog-checkpoint) that every proof leads to (with
  ``--witness-policy``, the latest one the witnesses' quorum cosigned, with their cosignatures);
- ``policy``: the C2SP tlog-policy that names the log's keys, each with the tree sizes it may sign
  (:mod:`~matchstate.store.logkeys`), and ``quorum none`` (with ``--witness-policy``, its witnesses and quorum).
- ``head``: a note the league log's key signs (C2SP signed-note), naming the match's last seq and hash as
  archived: a bundle cut at its end (its last lines, or every line, removed) proves each line it keeps, so only
  the head says that lines are missing.

and ``DIR/%list`` (:data:`LIST`: no match's folder has that name, a folder writes "%" as %25), a note the league
log's key signs naming every match archived together, each with its last seq and hash: a match's folder removed
from a season's bundle proves nothing missing by itself, so only the list says that it is.

``matchstate verify --bundle DIR`` checks every match in it: a policy's key valid for its size signed the
checkpoint, its cosignatures meet the policy's quorum, each chain recomputes from its lines, each event's leaf
is proven in the checkpoint, and the engine, where it is the version that ruled, rules each event as recorded.
A single changed byte of a line, a proof or the checkpoint fails one of these, and so does a bundle cut short of
its signed head, and a folder that a signed list names and that is missing. A season's ``DIR/log`` (the league
log's tiles, :mod:`~matchstate.store.logtiles`) is checked against its checkpoint, and each match's events against
the leaves it holds: a match cut at its end, or removed and stored again, is found there whatever its own files
were made to say.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from sqlalchemy import func, select

from . import jcs
from .engine import Match
from .errors import MatchstateError, NotProven
from .models import EventRow, LogLeafRow, MatchRow
from .records.export import file_name, fitted
from .store import acts
from .store.chain import GENESIS, chain_hash, decode, instant, sealed
from .store.leaguelog import ACT, event_leaf
from .store.logcheck import LeafRow, event_problem, first_logged, histories
from .store.logkeys import LogKeys
from .store.receipts import Receipt, fingerprint, read_receipt
from .store.sql import CHECKED, LIVE
from .tlog import merkle
from .tlog.checkpoint import Checkpoint, SignedCheckpoint
from .tlog.note import Note, Verifier
from .tlog.policy import Policy
from .tlog.proof import TlogProof
from .tlog.tiles import TileTree

if TYPE_CHECKING:
    from .store import Store

EVENTS, CHECKPOINT, POLICY, PROOFS, HEAD = "events.jsonl", "checkpoint", "policy", "proofs", "head"
HEAD_TITLE = "matchstate bundle head"  # a head note's first line: no checkpoint's origin, so none is taken for one
LIST, LIST_TITLE = "%list", "matchstate bundle list"  # the signed list of the matches archived together
TILES = "log"  # the folder of a season's bundle that holds the league log's tiles
FIELDS = ("seq", "raw", "role", "received_at", "engine_version", "chain_version", "prev_hash", "hash", "ruling",
          "state", "leaf")


def archive(store: Store, codes: list[str], folder: Path, witnessed: Policy | None = None) -> list[Path]:
    """Write the bundle of each match of ``codes`` into ``folder``; the folders written. With ``witnessed`` (the
    league's witness policy), the checkpoint is the latest one its quorum cosigned, and the bundle's policy asks
    for that quorum."""
    written, ends = [], []
    logs = LogKeys(store.secrets).policy(store.log.signer)  # every key the log has had, by size
    with store.database.transaction() as connection:
        size, _, checkpoint = store.log.head(connection)
        signing_size = size  # the log's key now is valid for the log's size now: a head is signed at that size
        if witnessed is not None:
            size, checkpoint = _cosigned(store)
            logs = replace(logs, witnesses=witnessed.witnesses, groups=witnessed.groups, quorum=witnessed.quorum)
        if checkpoint is None:
            raise MatchstateError("the league log has no checkpoint yet: there is nothing to prove a bundle with")
        policy = logs.text()
        for code in codes:
            match_id = connection.execute(select(MatchRow.id).where(MatchRow.code == code, LIVE)).scalar()
            if match_id is None:
                raise MatchstateError(f"no match has the code {code!r}")
            last = connection.execute(select(func.max(LogLeafRow.idx)).where(LogLeafRow.code == code)).scalar()
            if last is not None and last >= size:
                raise MatchstateError(f"match {code} has leaves the latest cosigned checkpoint ({size} leaves) does "
                                      "not hold yet: archive it once the witnesses have cosigned a newer one")
            leaves = {seq: (index, kind) for index, kind, seq in connection.execute(
                select(LogLeafRow.idx, LogLeafRow.kind, LogLeafRow.seq)
                .where(LogLeafRow.code == code, LogLeafRow.kind.in_(("append", "import")), LogLeafRow.idx < size)
                .order_by(LogLeafRow.idx))}
            target = bundle_folder(folder, code)
            (target / PROOFS).mkdir(parents=True, exist_ok=True)
            lines = []
            for row in connection.execute(CHECKED.where(EventRow.match_id == match_id).order_by(EventRow.seq)):
                index, kind = leaves.get(row.seq, (None, None))
                lines.append(jcs.canonical({
                    "seq": row.seq, "raw": row.raw, "role": row.role, "received_at": instant(row.received_at),
                    "engine_version": row.engine_version, "chain_version": row.chain_version,
                    "prev_hash": row.prev_hash, "hash": row.hash, "ruling": row.ruling, "state": row.state,
                    "leaf": kind}).decode("utf-8") + "\n")
                if index is not None:
                    (target / PROOFS / f"{row.seq}.tlog-proof").write_text(
                        store.log.tlog_proof(connection, index, checkpoint), encoding="utf-8")
            (target / EVENTS).write_text("".join(lines), encoding="utf-8")
            (target / HEAD).write_text(store.log.signer.sign(head_text(store.log.origin, code, row.seq, row.hash,
                                                                       signing_size)), encoding="utf-8")
            (target / CHECKPOINT).write_text(checkpoint, encoding="utf-8")
            (target / POLICY).write_text(policy, encoding="utf-8")
            written.append(target)
            ends.append((code, row.seq, row.hash))
    (folder / LIST).write_text(store.log.signer.sign(list_text(store.log.origin, signing_size, ends)),
                               encoding="utf-8")
    return written


def bundle_folder(folder: Path, code: str) -> Path:
    """The folder of match ``code``'s bundle in ``folder``: its code as one name that stays in ``folder``, whatever
    the code holds ("/" written %2F and "%" %25; a code "." or ".." as %2E), and that is not the season's tiles'
    (a code "log" as %6Cog), and one a file system holds (:func:`~matchstate.records.export.fitted`)."""
    name = fitted(file_name(code), code)
    if name in (".", ".."):
        return folder / name.replace(".", "%2E")
    return folder / (f"%{ord(name[0]):02X}{name[1:]}" if name == TILES else name)


def head_text(origin: str, code: str, seq: int, digest: str, size: int) -> str:
    """A head note's text: the log, the match's code (as a JSON string), its last seq and hash, and the log's size
    when it was signed (which key signs a size, the policy says)."""
    return f"{HEAD_TITLE}\n{origin}\n{json.dumps(code)}\n{seq}\n{digest}\n{size}\n"


def list_text(origin: str, size: int, ends: list[tuple[str, int, str]]) -> str:
    """A list note's text: the log, its size when signed, then a line per match: its code (a JSON string), its last
    seq and its hash."""
    return f"{LIST_TITLE}\n{origin}\n{size}\n" + "".join(f"{json.dumps(code)} {seq} {digest}\n"
                                                          for code, seq, digest in ends)


def _cosigned(store: Store) -> tuple[int, str]:
    from .store import cosignatures

    kept = cosignatures.latest(store.database)
    if kept is None:
        raise MatchstateError("no checkpoint of the league log has met the witnesses' quorum yet: nothing to archive "
                              "under their policy")
    return kept


def season_codes(store: Store, year: str) -> list[str]:
    """The codes of the matches whose match.start is in ``year``."""
    with store.database.transaction() as connection:
        return list(connection.execute(select(MatchRow.code).where(MatchRow.day.like(f"{year}-%"),
                                                                   MatchRow.importing.is_(None))
                                       .order_by(MatchRow.code)).scalars())


@dataclass
class BundleReport:
    """What :func:`verify_bundle` found: the matches checked, the problems and the notes."""

    matches: int = 0
    events: int = 0
    problems: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    headless: list[str] = field(default_factory=list)  # the bundles with no signed head: a cut end not found
    before_log: dict[str, list[int]] = field(default_factory=dict)  # by folder: its seqs stored before the league log
    uncompared: list[str] = field(default_factory=list)  # the bundles ruled by another engine: rulings not compared
    unlisted: bool = False  # a folder of bundles with no signed list: a match's folder removed would not be found
    chains: dict[str, tuple[str, list[str]]] = field(default_factory=dict)  # by folder: its code, each seq's hash
    checkpoints: dict[str, Checkpoint] = field(default_factory=dict)  # by folder: the checkpoint its proofs lead to
    league: tuple[Ed25519PublicKey, ...] = ()  # the league's public keys, given: every note of the log must be one's
    signers: set[str] = field(default_factory=set)  # the keys that signed the checkpoints (name+ID)

    def log_keys(self, policy: Policy, origin: str, size: int) -> list[Verifier]:
        """The keys a note of log ``origin`` at ``size`` leaves is checked with: those the policy names for that size,
        and of them, where the league's were given, the league's alone (a bundle's policy names the keys its maker
        chose; its sizes keep a retired key from signing a tree larger than it was handed over at)."""
        named = policy.log_keys(origin, size)
        if not self.league:
            return named
        given = {Verifier.ed25519(origin, key).public for key in self.league}
        return [key for key in named if key.public in given]

    def signed_by(self, signed: SignedCheckpoint, policy: Policy) -> list[Verifier]:
        """The keys a checkpoint is checked with (:meth:`log_keys`), once one of them is found to have signed it
        (and kept, to be named); NotProven where none did."""
        keys = self.log_keys(policy, signed.checkpoint.origin, signed.checkpoint.size)
        try:
            self.signers.update(key.handle for key in signed.note.verified_by(keys))
        except NotProven:
            if not self.league:
                raise
            raise NotProven("its checkpoint is not signed by a public key of the league's given: the league did "
                            "not sign it (or it was signed by a key the league log was handed over to, not given)") \
                from None
        return keys

    def proven(self) -> str:
        """What the bundle proves, where it has no problem: its chains whole, its events in the signed checkpoint
        and its rulings the engine's, each counted where some are not (an upgraded store's)."""
        unproven = sum(len(seqs) for seqs in self.before_log.values())
        said = [f"verified: {self.matches} matches, {self.events} events: every chain is whole",
                "every event is in the signed checkpoint" if not unproven else
                f"{self.events - unproven} of the events are in the signed checkpoint ({unproven} were stored "
                "before the league log)",
                "every ruling replayed is the engine's" if not self.uncompared else
                f"every ruling replayed is the engine's but those of {', '.join(self.uncompared)}, ruled by another "
                "engine, which are not compared"]
        return ", ".join(said)

    def trusted(self) -> str:
        """Whose signature the checkpoints carry, and whether it was checked against the league's key."""
        signers = ", ".join(sorted(self.signers)) or "no key"
        if self.league:
            return f"signed by the league's public key given: {signers}"
        return (f"signed by {signers}, as the bundle's own policy names: give the league's public key (--public-key "
                "PEM, as `matchstate keys public` prints it) to know that the league signed it")


def verify_bundle(folder: Path, engine_version: str, league: tuple[Ed25519PublicKey, ...] = ()) -> BundleReport:
    """Check every match bundle in ``folder`` (or ``folder`` itself, if it is one); see the module's docstring.
    With ``league``, the league's own public keys (the first, and each the log was handed over to), each note must
    be one of theirs: a bundle's policy names the keys it is checked with, so a bundle another store made holds its
    own, and only the keys kept apart tell."""
    report = BundleReport(league=league)
    targets = [folder] if (folder / EVENTS).exists() else sorted(path.parent for path in folder.glob(f"*/{EVENTS}"))
    if not targets:
        report.problems.append(f"{folder}: no match bundle in it (no {EVENTS})")
    for target in targets:
        report.matches += 1
        report.problems += [f"{target.name}: {problem}" for problem in _match_problems(target, engine_version,
                                                                                        report)]
        if seqs := report.before_log.get(target.name):  # an upgraded store's earliest events: said once a match
            report.notes.append(f"{target.name}: {_span(seqs)} stored before the league log: no proof")
    if targets and targets[0] != folder:
        report.problems += [f"{LIST}: {problem}" for problem in _list_problems(folder, targets[0], report)]
        if (folder / TILES).is_dir():
            report.problems += [f"{TILES}: {problem}" for problem in _tile_problems(folder / TILES, targets, report)]
    return report


def _span(seqs: list[int]) -> str:
    """Seqs in a note: one; a run (an upgraded store's first events are); or only how many."""
    if len(seqs) == 1:
        return f"seq {seqs[0]}"
    if seqs == list(range(seqs[0], seqs[-1] + 1)):
        return f"{len(seqs)} events, seqs {seqs[0]} to {seqs[-1]},"
    return f"{len(seqs)} events,"


def _tile_problems(tiles: Path, targets: list[Path], report: BundleReport) -> Iterator[str]:
    """Where the season's tiles of the league log do not hold, or hold what a bundle lacks or changed: their
    checkpoint not signed by a key of the policy, an entry or a hash tile changed, a bundle's checkpoint not a prefix
    of their log, or a match's events logged otherwise than its bundle holds them (its end cut, or the match removed
    and stored again: the log keeps every leaf it was given, whatever a bundle's own files say). The policy is the
    first bundle's that has one (a bundle without one has said so)."""
    policy = next((target / POLICY for target in targets if (target / POLICY).exists()), None)
    if policy is None:
        return
    try:
        read = Policy.parse(policy.read_bytes())
        opened = read.open((tiles / "checkpoint").read_bytes())
        report.signed_by(opened, read)
        signed = opened.checkpoint
        tree = TileTree(tiles, signed.size)
        entries = list(tree.entries())
        leaves = merkle.Leaves([merkle.leaf_hash(entry) for entry in entries])
        if merkle.root(leaves, signed.size) != signed.root:
            raise NotProven("their entries do not give their checkpoint's root: an entry was changed")
        if merkle.root(tree, signed.size) != signed.root:
            raise NotProven("their hash tiles do not give their checkpoint's root: a tile was changed")
        rows: list[LeafRow] = []
        removals: dict[str | None, list[int]] = {}  # by match, where each removal act of it is
        for index, entry in enumerate(entries):
            leaf = json.loads(entry)
            rows.append((index, leaf["kind"], leaf.get("match"), leaf.get("seq"), entry.decode("utf-8")))
            if leaf["kind"] == ACT and leaf["act"] == acts.REMOVE:
                removals.setdefault(leaf.get("match"), []).append(index)
    except FileNotFoundError as err:
        yield f"the league log's tiles lack {Path(str(err.filename)).relative_to(tiles.parent)}: it was removed"
        return
    except (OSError, ValueError, KeyError, TypeError) as err:  # NotProven is a ValueError; so is bad JSON
        yield f"the league log's tiles do not hold: {err}"
        return
    logged = histories(rows)
    first_seqs = first_logged(logged)
    seqs: dict[str | None, list[tuple[int, int]]] = {}  # by match: each of its event leaves' (index, seq)
    for (code, seq), history in logged.items():
        if seq is not None:
            seqs.setdefault(code, []).extend((index, seq) for index, _ in history)
    for name, (code, hashes) in sorted(report.chains.items()):
        checkpoint = report.checkpoints.get(name)
        if checkpoint is None or not code or code not in seqs:  # no leaf: stored before the log, which says nothing
            continue
        if checkpoint.size > signed.size:
            report.notes.append(f"{name}: its checkpoint ({checkpoint.size} leaves) is newer than the tiles' "
                                f"({signed.size}): not compared with them")
            continue
        if merkle.root(leaves, checkpoint.size) != checkpoint.root:
            yield f"{name}: its checkpoint is not the tiles' log at {checkpoint.size} leaves: another log's"
            continue
        # Its leaves since its last removal before the bundle's checkpoint: the log before that is another match's.
        since = max((index for index in removals.get(code, []) if index < checkpoint.size), default=-1)
        beyond = [seq for index, seq in seqs[code] if since < index < checkpoint.size and seq > len(hashes)]
        if beyond:
            yield (f"match {code}: the league log holds its seq {max(beyond)}, its bundle ({name}) ends at seq "
                   f"{len(hashes)}: lines were cut from its end")
        for seq, digest in enumerate(hashes, 1):
            problem = event_problem(logged, first_seqs, code, seq, digest, below=checkpoint.size)
            if problem is not None:
                yield f"match {code}, seq {seq}: {problem}"
                break


def _list_problems(folder: Path, first: Path, report: BundleReport) -> Iterator[str]:
    """Where a match that ``folder``'s signed list names has no bundle in it, or one whose chain does not hold the
    seq and hash the list names; the bundles it does not name are noted (another archive's, written beside)."""
    try:
        note = Note.parse((folder / LIST).read_bytes())
    except FileNotFoundError:
        report.unlisted = True
        return
    except (OSError, NotProven) as err:
        yield f"the signed list cannot be read: {err}"
        return
    try:
        policy = Policy.parse((first / POLICY).read_bytes())
        title, origin, size, *lines = note.text.split("\n")[:-1]
        if title != LIST_TITLE:
            raise NotProven("it is not a list of matches archived together")
        note.verified_by(report.log_keys(policy, origin, _whole(size, "tree size")))
        listed = [(json.loads(code), int(seq), digest) for code, seq, digest in (line.rsplit(" ", 2)
                                                                                  for line in lines)]
    except (OSError, ValueError) as err:  # NotProven is a ValueError; so is bad JSON, or a line of too few fields
        yield f"the signed list does not hold: {err}"
        return
    names = set()
    for code, seq, digest in listed:
        name = bundle_folder(folder, code).name
        names.add(name)
        if name not in report.chains:
            if not (folder / name / EVENTS).exists():  # lines there and unchecked: their bundle said why
                yield f"match {code} is on the signed list, and its bundle ({name}) is missing: it was removed"
        elif (chain := report.chains[name])[0] != code or len(chain[1]) < seq or chain[1][seq - 1] != digest:
            yield (f"match {code}: its bundle ({name}) does not hold seq {seq} with hash {digest} as the signed "
                   "list names it: lines were cut from its end, or it is another match's")
    report.notes += [f"{name}: not on the signed list ({LIST}): archived apart from the others"
                     for name in sorted(set(report.chains) - names)]


def _match_problems(target: Path, engine_version: str, report: BundleReport) -> Iterator[str]:
    try:
        note = (target / CHECKPOINT).read_bytes()
        policy = Policy.parse((target / POLICY).read_bytes())
        opened = policy.open(note)  # a key valid for its size signed it; the quorum cosigned it
        keys = report.signed_by(opened, policy)  # and the league's, where its key was given
        signed = report.checkpoints[target.name] = opened.checkpoint
        origin = signed.origin
        checkpoint = note.decode("utf-8")
        lines = (target / EVENTS).read_bytes().decode("utf-8").splitlines(keepends=True)
    except FileNotFoundError as err:
        yield f"cannot be checked: its {Path(str(err.filename)).name} is missing: it was removed"
        return
    except (OSError, UnicodeDecodeError, NotProven) as err:
        yield f"cannot be checked: {err}"
        return
    digest, match, code = GENESIS, Match(), ""
    hashes: list[str] = []
    report.chains[target.name] = code, hashes
    for number, line in enumerate(lines, 1):
        report.events += 1
        try:
            fact = json.loads(line)
            if not line.endswith("\n") or jcs.canonical(fact).decode("utf-8") + "\n" != line:
                raise ValueError("it is not RFC 8785 JSON with its newline")
            if not isinstance(fact, dict) or set(fact) != set(FIELDS):
                raise ValueError(f"its fields are not {', '.join(FIELDS)}")
            seq = fact["seq"]
            if seq != number or fact["prev_hash"] != digest:
                raise ValueError(f"it is not seq {number} after hash {digest}")
            event = decode(fact["raw"])
            received_at = datetime.fromisoformat(fact["received_at"])
            if instant(received_at) != fact["received_at"]:  # fromisoformat takes any separator, say
                raise ValueError(f"its received_at is not written as the chain writes a time: {fact['received_at']}")
            material = sealed(event, fact["role"], received_at, fact["engine_version"], fact["chain_version"])
        except (ValueError, KeyError, TypeError, MatchstateError) as err:
            yield f"line {number} cannot be read: {err}"
            return
        if chain_hash(digest, material) != fact["hash"]:
            yield f"seq {seq}: its facts do not give its hash: the line was changed"
            return
        digest = fact["hash"]
        hashes.append(digest)
        if number == 1:
            code = event["match"]  # the match.start's, which its hash covers
            report.chains[target.name] = code, hashes
        yield from _proof_problems(target, fact, code, origin, keys, checkpoint, report)
        try:
            ruling = match.feed(event)
        except MatchstateError as err:
            yield f"seq {seq}: the engine refuses it: {err}"
            return
        if fact["engine_version"] == engine_version:
            given = ruling.to_json() if ruling is not None else None
            if (given, match.state) != (fact["ruling"], fact["state"]):
                yield f"seq {seq}: the engine rules it otherwise than recorded"
        elif number == 1:
            report.uncompared.append(target.name)
            report.notes.append(f"{target.name}: ruled by engine {fact['engine_version']}, this is {engine_version}: "
                                "its rulings are not compared")
    yield from _head_problems(target, policy, signed, code, len(lines), digest, report)


def _head_problems(target: Path, policy: Policy, checkpoint: Checkpoint, code: str, seq: int, digest: str,
                   report: BundleReport) -> Iterator[str]:
    """Where the bundle's lines, whole up to seq ``seq`` (hash ``digest``), stop short of its signed head, or the
    head is not this bundle's: signed before its checkpoint (an earlier archive's), or of another log."""
    try:
        note = Note.parse((target / HEAD).read_bytes())
    except FileNotFoundError:
        report.headless.append(target.name)
        return
    except (OSError, NotProven) as err:
        yield f"its head cannot be read: {err}"
        return
    fields = note.text.split("\n")
    try:
        if len(fields) != 7 or fields[0] != HEAD_TITLE or fields[1] != checkpoint.origin:
            raise NotProven(f"it is not a head of log {checkpoint.origin}")
        size = _whole(fields[5], "tree size")
        note.verified_by(report.log_keys(policy, checkpoint.origin, size))
        head_code, head_seq, head_digest = json.loads(fields[2]), int(fields[3]), fields[4]  # as signed
    except (ValueError, NotProven) as err:  # NotProven is a ValueError; so is bad JSON or a size not a number
        yield f"its head does not hold: {err}"
        return
    if size < checkpoint.size:  # a head is signed as its bundle is archived, its checkpoint the log's then or before
        yield (f"its head was signed at {size} leaves, before its checkpoint of {checkpoint.size}: it is an earlier "
               "archive's head, and lines may have been cut from its end")
    elif (head_code, head_seq, head_digest) != (code or head_code, seq, digest):
        yield (f"its lines end at seq {seq}, its signed head at seq {head_seq} (hash {head_digest}) of match "
               f"{head_code}: lines were cut from its end")


def _whole(text: str, what: str) -> int:
    """A number of a head read before its signature is checked, or NotProven naming it where the text is none."""
    if not (text.isascii() and text.isdigit()):
        raise NotProven(f"its {what} is not a whole number ({text!r}): the head was changed")
    return int(text)


def _proof_problems(target: Path, fact: dict[str, Any], code: str, origin: str, keys: list[Verifier],
                    checkpoint: str, report: BundleReport) -> Iterator[str]:
    seq = fact["seq"]
    path = target / PROOFS / f"{seq}.tlog-proof"
    if fact["leaf"] is None:
        if path.exists():
            yield f"seq {seq}: a proof for an event its line says has no leaf"
        else:
            report.before_log.setdefault(target.name, []).append(seq)
        return
    leaf = merkle.leaf_hash(jcs.canonical(event_leaf(fact["leaf"], code, seq, fact["hash"])))
    try:
        proof = TlogProof.parse(path.read_bytes())
        if proof.checkpoint != checkpoint:
            raise NotProven("its checkpoint is not the bundle's")
        proof.verify(leaf, origin, keys)
    except (OSError, NotProven) as err:
        yield f"seq {seq}: its proof does not hold: {err}"


def bundle_receipts(folder: Path, lines: list[str]) -> tuple[int, list[str]]:
    """Check receipts a scorer kept (JSON Lines) against the bundle in ``folder`` alone: a proof must lead from the
    receipt's leaf to a checkpoint the policy's key signed, at the same index as the bundle's proof of that event;
    a receipt signed before the league log must be the policy key's signature; and the bundle's line at its seq
    must have its hash. How many hold, and what is wrong with the others."""
    held, problems = 0, []
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            receipt = read_receipt(json.loads(line))
            target = folder if (folder / EVENTS).exists() else bundle_folder(folder, receipt.match)
            policy = Policy.parse((target / POLICY).read_bytes())
            origin = policy.signed((target / CHECKPOINT).read_bytes()).checkpoint.origin
            facts = [json.loads(text) for text in (target / EVENTS).read_text(encoding="utf-8").splitlines()]
            fact = next((fact for fact in facts if fact["seq"] == receipt.seq), None)
            if fact is None:
                raise NotProven(f"the bundle of match {receipt.match} has no seq {receipt.seq}: events were removed")
            if isinstance(receipt, Receipt):  # signed before the log began, by the log's first key
                public = Ed25519PublicKey.from_public_bytes(policy.log_keys(origin, 0)[0].public)
                if receipt.key != fingerprint(public) or not receipt.holds(public):
                    raise NotProven("its signature is not the bundle's log key's")
            else:
                size = policy.signed(receipt.tlog_proof.checkpoint).checkpoint.size
                receipt.verified(policy.log_keys(origin, size), origin)
                ours = TlogProof.parse((target / PROOFS / f"{receipt.seq}.tlog-proof").read_bytes()).index
                if receipt.tlog_proof.index != ours:
                    raise NotProven(f"its leaf is {receipt.tlog_proof.index} of the log, the bundle's {ours}: the "
                                    "event was logged again (the match removed and stored again)")
            if fact["hash"] != receipt.hash:
                raise NotProven(f"it gives seq {receipt.seq} the hash {receipt.hash}, the bundle {fact['hash']}: the "
                                "match was rewritten after the receipt was given")
        except (OSError, ValueError, KeyError, TypeError) as err:  # NotProven is a ValueError
            problems.append(f"receipt {number}: {err}")
            continue
        held += 1
    return held, problems
