"""``verify``'s checks of the league log (:mod:`~matchstate.store.leaguelog`): the tree against its leaves, its
head and checkpoint, and the stored events against their leaves."""

from __future__ import annotations

import json
from collections.abc import Sequence

from sqlalchemy import Connection, Row, Text, cast, select

from .. import jcs
from ..errors import NotProven
from ..models import ActRow, EventRow, LogHeadRow, LogLeafRow, LogNodeRow, MatchRow
from ..tlog import merkle
from ..tlog.checkpoint import SignedCheckpoint
from . import acts
from .leaguelog import ACT, APPEND, IMPORT, LeagueLog, encoded
from .logkeys import LOG_KEY
from .verify import Problem


def problems(log: LeagueLog, connection: Connection, code: str | None, whole: set[str],
             said: set[str]) -> list[Problem]:
    """What is wrong with the league log against itself and the events (of match ``code``, or of every match,
    then the tree and the acts too): a leaf, node or head that does not recompute, a checkpoint whose signature or
    tree is not the head's, a stored event whose hash is not its latest leaf's, an event the log recorded before
    with another hash (a match removed and stored again under its code), events and acts it recorded that the
    store no longer holds. A match with no leaf at all was stored before the log began, and is no problem; only
    the events of the matches in ``whole`` (those whose chain and seal hold) are compared, as the chain's problem
    names a broken one already, and no events gone are said of a match in ``said`` (its trouble said already)."""
    found: list[Problem] = []
    if code is None:
        found += _tree_problems(log, connection)
        found += _acts_gone(connection)
    query = select(LogLeafRow.idx, LogLeafRow.kind, LogLeafRow.code, LogLeafRow.seq, LogLeafRow.body).where(
        LogLeafRow.code.is_not(None)).order_by(LogLeafRow.idx)
    rows = connection.execute(query if code is None else query.where(LogLeafRow.code == code)).all()
    leaves = histories(rows)
    logged = {leaf_code for leaf_code, _ in leaves}
    first = first_logged(leaves)
    held: set[tuple[str, int]] = set()
    events = select(MatchRow.code, EventRow.seq, EventRow.hash, MatchRow.importing) \
        .join(EventRow, EventRow.match_id == MatchRow.id)
    for event_code, seq, digest, importing in connection.execute(
            events if code is None else events.where(MatchRow.code == code)):
        held.add((event_code, seq))
        if importing is None and event_code in logged and event_code in whole:
            problem = event_problem(leaves, first, event_code, seq, digest)
            if problem is not None:
                found.append(Problem(event_code, seq, problem))
    return found + _events_gone(leaves, _removals(rows), held, said)


def _removals(rows: Sequence[Row[int, str, str | None, int | None, str]]) -> dict[str | None, int]:
    """The leaf of each match's last recorded removal: its events' leaves before it record rows it let go."""
    removed = {}
    for index, kind, leaf_code, _, body in rows:
        if kind == ACT and isinstance(leaf := _json_or_none(body), dict) and leaf.get("act") == acts.REMOVE:
            removed[leaf_code] = index
    return removed


def _events_gone(leaves: Leaves, removed: dict[str | None, int], held: set[tuple[str, int]],
                 said: set[str]) -> list[Problem]:
    """The events the league log recorded that the store no longer holds, where no act removed their match since,
    one problem a match: a match deleted with its acts, or the end of a log cut and its head resealed, which the
    chain cannot tell."""
    gone: dict[str, list[tuple[int, int]]] = {}  # a match's events gone: (seq, its latest leaf)
    for (leaf_code, seq), history in leaves.items():
        latest = max(index for index, _ in history)
        if leaf_code is not None and seq is not None and leaf_code not in said \
                and latest > removed.get(leaf_code, -1) and (leaf_code, seq) not in held:
            gone.setdefault(leaf_code, []).append((seq, latest))
    found = []
    for leaf_code, events in sorted(gone.items(), key=lambda item: min(index for _, index in item[1])):
        seqs, first = sorted(seq for seq, _ in events), min(index for _, index in events)
        told = (f"it (leaf {first})" if len(seqs) == 1 else
                f"{len(seqs)} of its events, seq {seqs[0]} to {seqs[-1]} (leaves from {first})")
        found.append(Problem(leaf_code, seqs[0], f"the league log records {told}, which the store no longer holds, "
                                                 "and no act removed the match: deleted behind the store's back"))
    return found


def _acts_gone(connection: Connection) -> list[Problem]:
    """The acts the league log recorded that the store no longer holds as recorded (all those gone in one problem,
    each one changed in its own): the acts' seals chain them, but the last ones deleted leave a shorter chain that
    holds (a revoked key made live again, say)."""
    found, gone = [], []
    held = {seq: (act, act_code) for seq, act, act_code in connection.execute(select(ActRow.seq, ActRow.act,
                                                                                     ActRow.code))}
    for index, body in connection.execute(select(LogLeafRow.idx, LogLeafRow.body).where(LogLeafRow.kind == ACT)
                                          .order_by(LogLeafRow.idx)):
        leaf = _json_or_none(body)
        if not isinstance(leaf, dict) or leaf.get("act") not in acts.KINDS:
            continue  # a log key's rotation is the log's act alone
        seq, recorded = leaf.get("seq"), (leaf.get("act"), leaf.get("match"))
        if seq not in held:
            gone.append((index, seq))
        elif held[seq] != recorded:
            what = f"act {seq} ({recorded[0]}{f' of match {recorded[1]}' if recorded[1] else ''})"
            found.append(Problem(recorded[1], None, f"the league log's leaf {index} records {what}, but the store's "
                                                    f"act {seq} is {held[seq][0]}: the act was changed"))
    if gone:
        told = (f"act {gone[0][1]} (leaf {gone[0][0]})" if len(gone) == 1 else
                f"{len(gone)} acts, {gone[0][1]} to {gone[-1][1]} (leaves from {gone[0][0]})")
        found.insert(0, Problem(None, None, f"the league log records {told}, which the store no longer holds: acts "
                                            "were deleted behind the store's back"))
    return found


Leaves = dict[tuple[str | None, int | None], list[tuple[int, str]]]
LeafRow = tuple[int, str, str | None, int | None, str]  # a leaf's index, kind, match code, seq and body


def first_logged(leaves: Leaves) -> dict[str | None, int]:
    """The first seq of each match the log holds: a match stored before the log began (an upgraded store) has its
    earlier events in its chain alone, which verify checks; only those after it must each have a leaf."""
    first: dict[str | None, int] = {}
    for leaf_code, leaf_seq in leaves:
        if leaf_seq is not None:
            first[leaf_code] = min(leaf_seq, first.get(leaf_code, leaf_seq))
    return first


def event_problem(leaves: Leaves, first: dict[str | None, int], code: str, seq: int, digest: str,
                  below: int | None = None) -> str | None:
    """What is wrong with event ``seq`` of match ``code``, whose chain hash is ``digest``, against the league log's
    ``leaves`` (those before index ``below``, where given): no leaf, a latest leaf of another hash, or an earlier
    leaf of another hash (the match removed and stored again); None where nothing is."""
    history = sorted(leaf for leaf in leaves.get((code, seq), []) if below is None or leaf[0] < below)
    if not history:
        return None if seq < first.get(code, seq) else "the league log has no leaf for it: it was written behind " \
                                                       "the log's back"
    if history[-1][1] != digest:
        return (f"its hash {digest} is not the one its league log leaf {history[-1][0]} records ({history[-1][1]}): "
                "the row was changed")
    if len({leaf_hash for _, leaf_hash in history}) > 1 and not _corrected_unstarted(leaves, code, seq,
                                                                                     history[-1][0]):
        earlier = next((index, leaf_hash) for index, leaf_hash in history if leaf_hash != digest)
        return (f"the league log recorded it before with another hash ({earlier[1]}, leaf {earlier[0]}): the "
                "match was removed and stored again under its code (each event's hash covers when it was received: "
                "the same log stored again gets other hashes)")
    return None


def histories(rows: Sequence[Row[int, str, str | None, int | None, str]] | Sequence[LeafRow]) -> Leaves:
    """Each event's leaves (index, hash), from the leaves of the matches in index order, but those of an import
    that never finished: a match's import adds its events' leaves in batches and its ``create`` act with the last
    (before this, all in one transaction, the act first), so an import's leaves with no ``create`` act of their
    match followed by that import's last batch are those of an import that died publishing them (the match created
    anew since, if it was); its match was never shown."""
    leaves: Leaves = {}
    attempts: dict[str | None, list[tuple[int, int | None, str]]] = {}  # a match's import under way: its leaves so far
    created: set[str | None] = set()  # a create act of the match's since its last event's leaf
    done: set[str | None] = set()  # the match's latest import is finished: its leaves are history as they come
    for index, kind, leaf_code, seq, body in rows:
        if kind == ACT:
            act = json.loads(body)["act"]
            if act == acts.CREATE:
                created.add(leaf_code)
                done.add(leaf_code)
            elif act == acts.REMOVE:
                created.discard(leaf_code)
            continue
        if leaf_code in created:
            # The import under way is finished where its create act is followed by its last batch of leaves; a
            # create followed by an append's leaf, or by a whole import's, is another match: that import died.
            pending = attempts.pop(leaf_code, [])
            if kind == IMPORT and seq != 1:
                for pending_index, pending_seq, digest in pending:
                    leaves.setdefault((leaf_code, pending_seq), []).append((pending_index, digest))
        elif kind == IMPORT and seq == 1:  # an import begins; an earlier one that never finished is no one's history
            attempts.pop(leaf_code, None)
            done.discard(leaf_code)
        created.discard(leaf_code)
        digest = json.loads(body)["hash"]
        if kind == APPEND or leaf_code in done:
            leaves.setdefault((leaf_code, seq), []).append((index, digest))
        else:
            attempts.setdefault(leaf_code, []).append((index, seq, digest))
    return leaves


def _corrected_unstarted(leaves: Leaves, code: str, seq: int,
                         latest: int) -> bool:
    """Whether a match.start logged again (leaf ``latest``) corrects a match that had logged nothing else before
    it (``Store.correct_match``, a recorded act): nothing played was rewritten, so it is no tampering."""
    return seq == 1 and not any(index < latest for (leaf_code, leaf_seq), history in leaves.items()
                                if leaf_code == code and leaf_seq is not None and leaf_seq > 1 for index, _ in history)


def _right_edge(tree: merkle.Leaves) -> dict[str, str]:
    """The complete subtrees along the right edge of ``tree`` (level → hex hash), as the head keeps them."""
    edge, start = {}, 0
    for level in reversed(range(len(tree).bit_length())):
        if len(tree) >> level & 1:
            edge[str(level)] = tree.range_hash(start, start + (1 << level)).hex()
            start += 1 << level
    return edge


def _json_or_none(text: str) -> object:
    """``text`` read as JSON; None where it does not read (a check that needs it names that already)."""
    try:
        return json.loads(text)
    except ValueError:
        return None


def _tree_problems(log: LeagueLog, connection: Connection) -> list[Problem]:
    found: list[Problem] = []
    tree = merkle.Leaves()
    handed: tuple[int, str] | None = None  # the leaf of the log's last rotation, and the key it handed over to
    for index, body in connection.execute(select(LogLeafRow.idx, LogLeafRow.body).order_by(LogLeafRow.idx)):
        if index != len(tree):
            found.append(Problem(None, None, f"the league log's leaf {len(tree)} is missing: the next is {index}"))
            return found
        try:
            leaf = json.loads(body)
            canonical = jcs.canonical(leaf).decode("utf-8") == body
        except (ValueError, jcs.NotCanonical):
            leaf, canonical = None, False
        if not canonical:
            found.append(Problem(None, None, f"the league log's leaf {index} is not RFC 8785 JSON: it was changed"))
        elif isinstance(leaf, dict) and leaf.get("kind") == ACT and leaf.get("act") == LOG_KEY:
            handed = index, str(leaf.get("vkey"))
        tree.append(merkle.leaf_hash(body.encode("utf-8")))
    if handed is not None and handed[1] != log.signer.verifier.vkey():
        handle = "+".join(handed[1].split("+")[:2])  # the key's name and ID, as the policy names it
        found.append(Problem(None, None, f"the league log was handed over to key {handle} at leaf {handed[0]}, "
                                         "but the store signs it "
                                         "with another: the rotated key's file (SECRET.log.ed25519, beside the "
                                         "store's secret) is missing, so it signs with a retired key; put it back "
                                         "(with SECRET.log-policy) from where it was kept"))
    for level, index, digest in connection.execute(select(LogNodeRow.level, LogNodeRow.idx, LogNodeRow.hash)):
        start, end = index << level, (index + 1) << level
        if end > len(tree) or tree.range_hash(start, end).hex() != digest:
            found.append(Problem(None, None, f"the league log's node {level}/{index} is not its leaves' hash"))
    frontier = connection.execute(select(cast(LogHeadRow.frontier, Text)).where(LogHeadRow.id == 1)).scalar()
    if frontier is not None and _json_or_none(frontier) != _right_edge(tree):
        found.append(Problem(None, None, "the league log's head's frontier is not the right edge its leaves give: "
                                         "the next append would sign a root its leaves do not give"))
    size, root, checkpoint = log.head(connection)
    if (size, root) != (len(tree), merkle.root(tree, len(tree))):
        found.append(Problem(None, None, f"the league log's head says {size} leaves with root {encoded(root)}, but "
                                         f"its leaves give {len(tree)} with root "
                                         f"{encoded(merkle.root(tree, len(tree)))}"))
    if checkpoint is not None:
        try:
            signed = SignedCheckpoint.open(checkpoint, log.origin, [log.signer.verifier]).checkpoint
        except NotProven as err:
            found.append(Problem(None, None, f"the league log's checkpoint does not hold: {err}"))
        else:
            if (signed.size, signed.root) != (size, root):
                found.append(Problem(None, None, f"the league log's checkpoint is of {signed.size} leaves, "
                                                 f"not its head's {size}"))
    return found
