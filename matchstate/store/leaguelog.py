"""The league log: one RFC 6962 Merkle tree over everything the store accepts, shared by every server of a league.

Each leaf is RFC 8785 JSON: an accepted append ``{"kind": "append", "match": code, "seq": n, "hash": chain hash
after it}``, each event of an imported match (``"kind": "import"``, the same fields), and each act (a match
created or removed, a key issued or revoked, the league key set: ``"kind": "act"``). A match removed and
imported again under its code keeps its old leaves in the tree forever: the rewrite shows.

Order: a transaction that adds leaves takes the log's lock (PostgreSQL: an advisory lock until it ends; SQLite:
its one writer) and gives them the next indexes, so the tree's order is the order in which those transactions
commit. That serialises the writing groups of every server for the time from the lock to their commit (their
writes and their durable commit), not their reads, checks or engines: a server's group carries up to 64 appends,
so the league's appends go at (groups per second) × (appends per group), and a group is one durable commit.
``scripts/bench.py`` measures it with 8 writers.

The head row keeps the root and the complete subtrees along the tree's right edge (the *frontier*), so adding a
leaf costs O(log n) hashes; each complete subtree's hash is written once to ``log_nodes``, from which the
inclusion and consistency proofs are made. One checkpoint (a C2SP signed note) is signed per transaction.
"""

from __future__ import annotations

import base64
import threading
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import orjson
from sqlalchemy import Connection, Dialect, bindparam, insert, select, update

from .. import jcs
from ..errors import TamperedStore
from ..models import LogHeadRow, LogLeafRow, LogNodeRow
from ..tlog import merkle
from ..tlog.checkpoint import Checkpoint
from ..tlog.note import Signer
from ..tlog.proof import TlogProof
from .database import Database, after_commit
from .dialects import Prepared

LOG_LOCK = 36_019  # the advisory lock a transaction holds while it adds leaves
APPEND, IMPORT, ACT = "append", "import", "act"


def event_leaf(kind: str, code: str, seq: int, digest: str) -> dict[str, Any]:
    """The leaf of event ``seq`` of match ``code`` whose chain hash (the match's head after it) is ``digest``."""
    return {"kind": kind, "match": code, "seq": seq, "hash": digest}


@dataclass(frozen=True, slots=True)
class Leaf:
    """A leaf made ready to add: its row's columns, its RFC 8785 body and its leaf hash (work done before the log's
    lock is taken, where the leaves are many)."""

    kind: str
    code: str | None
    seq: int | None
    body: str
    digest: bytes


def ready(leaf: Mapping[str, Any]) -> Leaf:
    """``leaf`` made ready to add."""
    body = jcs.canonical(leaf)
    return Leaf(leaf["kind"], leaf.get("match"), leaf.get("seq"), body.decode("utf-8"), merkle.leaf_hash(body))


@dataclass(frozen=True, slots=True)
class Added:
    """What a transaction added: its leaves' first index, the tree's size and root after them, the checkpoint."""

    first: int
    size: int
    root: bytes
    checkpoint: str | None


class StoredTree:
    """:class:`~matchstate.tlog.merkle.Subtrees` over ``log_nodes``, through the log's cache (with no
    ``connection``, the cache alone: :class:`LookupError` where it lacks a node)."""

    def __init__(self, log: LeagueLog, connection: Connection | None) -> None:
        self.log, self.connection = log, connection

    def range_hash(self, start: int, end: int) -> bytes:
        size = end - start
        if size & (size - 1) == 0 and start % size == 0:
            return self.log.node(self.connection, size.bit_length() - 1, start // size)
        k = merkle.split(size)
        return merkle.node_hash(self.range_hash(start, start + k), self.range_hash(start + k, end))


class _Statements:
    """The statements of :meth:`LeagueLog.add`, compiled once for a dialect and run on the driver's cursor (as an
    append's own: :class:`~matchstate.store.dialects.Prepared`); through ``Connection.execute`` they were half the
    time of a lone append. On the cursor, they are sent in the append's pipeline (``Statements.pipeline``)."""

    def __init__(self, dialect: Dialect) -> None:
        def values(*names: str) -> dict[str, Any]:
            return {name: bindparam(name) for name in names}

        one = LogHeadRow.id == bindparam("id")  # the head's row: run with {"id": 1}
        self.head = Prepared(select(LogHeadRow.size, LogHeadRow.frontier).where(one), dialect)
        self.leaf = Prepared(insert(LogLeafRow).values(values("idx", "kind", "code", "seq", "body")), dialect)
        self.node = Prepared(insert(LogNodeRow).values(values("level", "idx", "hash")), dialect)
        tree = ("size", "root", "frontier")  # the head's columns every write of it sets
        self.first = Prepared(insert(LogHeadRow).values(values("id", *tree, "checkpoint")), dialect)
        self.signed = Prepared(update(LogHeadRow).where(one).values(values(*tree, "checkpoint")), dialect)
        self.unsigned = Prepared(update(LogHeadRow).where(one).values(values(*tree)), dialect)


_LOGS: weakref.WeakKeyDictionary[Database, LeagueLog] = weakref.WeakKeyDictionary()


def of(database: Database) -> LeagueLog | None:
    """The league log a store keeps in ``database`` (for the acts, recorded wherever the store records them)."""
    return _LOGS.get(database)


class LeagueLog:
    """The league log of one database (see the module's docstring); ``signer`` gives the key that signs its
    checkpoints, named by the log's origin (made when first needed: the key is a file the store makes)."""

    def __init__(self, database: Database, signer: Callable[[], Signer]) -> None:
        self.database, self._signer = database, signer
        self._made: Signer | None = None
        self._nodes: dict[tuple[int, int], bytes] = {}  # complete subtrees never change: safe to keep
        self._lock = threading.Lock()
        self._statements = _Statements(database.engine.dialect)
        _LOGS[database] = self

    def _keep(self, nodes: dict[tuple[int, int], bytes]) -> None:
        with self._lock:
            self._nodes.update(nodes)

    @property
    def signer(self) -> Signer:
        if self._made is None:
            self._made = self._signer()
        return self._made

    def retire(self) -> None:
        """Forget the signing key read: the next checkpoint is signed by the key that signs now (a rotation's)."""
        self._made = None

    @property
    def origin(self) -> str:
        return self.signer.name

    def node(self, connection: Connection | None, level: int, index: int) -> bytes:
        with self._lock:
            known = self._nodes.get((level, index))
        if known is None:
            if connection is None:
                raise LookupError(f"the league log's cache has no node {level}/{index}")
            found = connection.execute(select(LogNodeRow.hash).where(LogNodeRow.level == level,
                                                                     LogNodeRow.idx == index)).scalar()
            if found is None:
                raise LookupError(f"the league log has no node {level}/{index}")
            known = bytes.fromhex(found)
            with self._lock:
                self._nodes[(level, index)] = known
        return known

    def add(self, connection: Connection, leaves: Sequence[Mapping[str, Any]] | Sequence[Leaf], *,
            sign: bool = True) -> Added:
        """Add ``leaves`` (or leaves made :func:`ready`) in ``connection``'s write transaction, under the log's lock
        until it ends; with ``sign``, sign a checkpoint of the tree after them and keep it as the head's."""
        made = [leaf if isinstance(leaf, Leaf) else ready(leaf) for leaf in leaves]
        self.database.lock(connection, LOG_LOCK)
        head = self._statements.head.run(connection, {"id": 1})
        size = head[0] if head is not None else 0
        try:
            stored = {} if head is None else orjson.loads(head[1]) if isinstance(head[1], str | bytes) else head[1]
            frontier = {int(level): bytes.fromhex(digest) for level, digest in stored.items()}
        except (ValueError, TypeError, AttributeError):  # orjson's JSONDecodeError is a ValueError
            raise TamperedStore("the league log's head cannot be read (its frontier was changed): nothing can be "
                                "added to the log; `matchstate verify` names what is wrong") from None
        first, old_edge = size, dict(frontier)
        leaf_rows: list[dict[str, Any]] = []
        node_rows: list[dict[str, Any]] = []
        for leaf in made:
            carry, level, index = leaf.digest, 0, size
            leaf_rows.append({"idx": index, "kind": leaf.kind, "code": leaf.code, "seq": leaf.seq, "body": leaf.body})
            node_rows.append({"level": 0, "idx": index, "hash": carry.hex()})
            while index & 1:  # a right child: it completes its parent, with the frontier's left sibling
                carry = merkle.node_hash(frontier.pop(level), carry)
                level, index = level + 1, index >> 1
                node_rows.append({"level": level, "idx": index, "hash": carry.hex()})
            frontier[level] = carry
            size += 1
        root = _root(frontier)
        checkpoint = Checkpoint(self.origin, size, root).signed(self.signer) if sign else None
        self._statements.leaf.run_many(connection, leaf_rows)
        self._statements.node.run_many(connection, node_rows)
        values = {"size": size, "root": root.hex(), "frontier": {str(level): digest.hex()
                                                               for level, digest in frontier.items()}}
        if checkpoint is not None:
            values["checkpoint"] = checkpoint
        if head is None:
            self._statements.first.run(connection, {"id": 1, "checkpoint": None, **values})
        elif checkpoint is not None:
            self._statements.signed.run(connection, {"id": 1, **values})
        else:
            self._statements.unsigned.run(connection, {"id": 1, **values})
        # The nodes join the cache once the transaction has committed: one that rolls back, or whose COMMIT fails,
        # leaves none behind for another server, sharing the database, to fill with other leaves at the same places.
        # The old right edge too: the group's proofs need no read.
        nodes = {(level, (first >> level) - 1): digest for level, digest in old_edge.items()}
        nodes.update({(row["level"], row["idx"]): bytes.fromhex(row["hash"]) for row in node_rows})
        after_commit(connection, lambda: self._keep(nodes))
        return Added(first, size, root, checkpoint)

    def inclusion(self, connection: Connection | None, index: int, size: int) -> list[bytes]:
        return merkle.inclusion_proof(StoredTree(self, connection), index, size)

    def consistency(self, connection: Connection | None, old_size: int, size: int) -> list[bytes]:
        return merkle.consistency_proof(StoredTree(self, connection), old_size, size)

    def root(self, connection: Connection | None, size: int) -> bytes:
        """The root of the tree of the log's first ``size`` leaves."""
        return merkle.root(StoredTree(self, connection), size)

    def tlog_proof(self, connection: Connection | None, index: int, checkpoint: str) -> str:
        """The C2SP tlog proof of leaf ``index`` in the tree of ``checkpoint`` (a signed note of this log's); with no
        ``connection``, from the cache alone (:class:`LookupError` where it lacks a node)."""
        size = Checkpoint.from_text(checkpoint.rpartition("\n\n")[0] + "\n").size
        return str(TlogProof(index, tuple(self.inclusion(connection, index, size)), checkpoint))

    def latest(self) -> tuple[int, str | None]:
        """The log's size and latest signed checkpoint, read in a transaction of their own."""
        with self.database.transaction() as connection:
            size, _, checkpoint = self.head(connection)
        return size, checkpoint

    def proven_extension(self, old_size: int, size: int) -> list[bytes]:
        """The consistency proof from the tree of ``old_size`` leaves to that of ``size`` (at most the log's size;
        :class:`ValueError` where the sizes do not make one), read in a transaction of its own."""
        with self.database.transaction() as connection:
            if size > self.head(connection)[0]:
                raise ValueError(f"the league log has fewer than {size} leaves")
            return self.consistency(connection, old_size, size)

    def head(self, connection: Connection) -> tuple[int, bytes, str | None]:
        """The log's size, root and latest signed checkpoint."""
        head = connection.execute(select(LogHeadRow.size, LogHeadRow.root, LogHeadRow.checkpoint)
                                  .where(LogHeadRow.id == 1)).first()
        return (0, merkle.EMPTY_ROOT, None) if head is None else (head.size, bytes.fromhex(head.root), head.checkpoint)

    def latest_leaf(self, connection: Connection, code: str, seq: int) -> int | None:
        """The index of the latest leaf of event ``seq`` of match ``code``."""
        return connection.execute(select(LogLeafRow.idx).where(LogLeafRow.code == code, LogLeafRow.seq == seq)
                                  .order_by(LogLeafRow.idx.desc()).limit(1)).scalar()

    def leaf_kind(self, connection: Connection, index: int) -> str:
        """The kind of leaf ``index`` (``append``, ``import`` or ``act``)."""
        return connection.execute(select(LogLeafRow.kind).where(LogLeafRow.idx == index)).scalar_one()


def _root(frontier: Mapping[int, bytes]) -> bytes:
    """The root of the tree whose right edge's complete subtrees are ``frontier`` (level → hash)."""
    root: bytes | None = None
    for level in sorted(frontier):
        root = frontier[level] if root is None else merkle.node_hash(frontier[level], root)
    return merkle.EMPTY_ROOT if root is None else root


def encoded(digest: bytes) -> str:
    return base64.b64encode(digest).decode("ascii")

