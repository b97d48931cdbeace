"""The store's acts: what the league did to its matches and keys, each recorded and sealed in order.

A match created or removed, a match's key issued or revoked, the league key set: each is an act,
numbered 1, 2, 3... and sealed over the seal of the act before it (:data:`~matchstate.store.chain.GENESIS`
before the first), so the acts form a chain that only the holder of the store's secret can extend.
What they add up to (:class:`Ledger`) is what the tables must hold: ``verify`` compares the two, so
a match deleted, or a key swapped, shows; a match removed by :meth:`Store.remove_match` is an act too,
and keeps the head the match had.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, insert, select

from ..models import ActRow
from . import leaguelog
from .chain import GENESIS, instant
from .database import ACTS_LOCK, Database
from .seals import seal

CREATE, REMOVE, LEAGUE, ISSUE, REVOKE = "create", "remove", "league", "issue", "revoke"


@dataclass(frozen=True, slots=True)
class Act:
    """One act: what (``act``), when (``at``, the server's clock), on which match (``code``, none for the
    league key) and key (``role``, ``key_hash``), who did it (``by``) and why; a removal keeps the match's
    head (``last_seq``, ``last_hash``)."""

    act: str
    at: datetime
    code: str | None = None
    role: str | None = None
    key_hash: str | None = None
    by: str | None = None
    reason: str | None = None
    last_seq: int | None = None
    last_hash: str | None = None

    def __str__(self) -> str:
        what = {CREATE: "created", REMOVE: "removed", LEAGUE: "league key set", ISSUE: f"{self.role} key issued",
                REVOKE: f"{self.role} key revoked"}[self.act]
        text = f"match {self.code} {what}" if self.code is not None else what
        text += f" at {instant(self.at)}" + (f" by {self.by}" if self.by else "")
        if self.act == REMOVE:
            text += f", its head then seq {self.last_seq}, hash {self.last_hash}"
        return text + (f": {self.reason}" if self.reason else "")


def act_seal(secret: bytes, prev_seal: str, seq: int, act: Act) -> str:
    """The seal of act ``seq``: over the act before's seal and every field of this one."""
    fields: dict[str, Any] = {**asdict(act), "at": instant(act.at)}
    return seal(secret, "act", {"prev": prev_seal, "seq": seq, **fields})


def record(connection: Connection, database: Database, secret: bytes, act: Act) -> int:
    """Append ``act`` to the store's acts in ``connection``'s write transaction; its seq. Acts are written one
    at a time (on PostgreSQL under an advisory lock until the transaction ends), each after the last."""
    database.lock(connection, ACTS_LOCK)
    last = connection.execute(select(ActRow.seq, ActRow.seal).order_by(ActRow.seq.desc()).limit(1)).first()
    seq, prev = (last.seq + 1, last.seal) if last is not None else (1, GENESIS)
    connection.execute(insert(ActRow).values(seq=seq, seal=act_seal(secret, prev, seq, act), **asdict(act)))
    if (log := leaguelog.of(database)) is not None:  # in the league log too: a removal shows there forever
        log.add(connection, [{"kind": leaguelog.ACT, "seq": seq, "act": act.act, "match": act.code, "role": act.role,
                              "at": instant(act.at), "last_seq": act.last_seq, "last_hash": act.last_hash}])
    return seq


def last_seq(connection: Connection) -> int:
    """The seq of the store's last act (0 before the first)."""
    return connection.execute(select(ActRow.seq).order_by(ActRow.seq.desc()).limit(1)).scalar() or 0


KINDS = (CREATE, REMOVE, LEAGUE, ISSUE, REVOKE)


def from_row(row: Any) -> Act:
    """The act a row of ``acts`` holds; ValueError where it names no kind of act (changed behind the store's back)."""
    if row.act not in KINDS:
        raise ValueError(f"act {row.seq} is {row.act!r}, no kind of act")
    return Act(**{name: getattr(row, name) for name in Act.__dataclass_fields__})


@dataclass
class Ledger:
    """What the acts up to ``seq`` add up to: the live matches (code → the seq of the act that created
    it), each match's live keys, the league key, the removals, and each match created while it was live (code, the
    act that created it, the act that created it again): the store creates a code only where no match has it, so
    its rows were deleted with no removal recorded."""

    seq: int = 0
    matches: dict[str, int] = field(default_factory=dict)
    keys: dict[tuple[str, str], str] = field(default_factory=dict)  # (code, role) -> key hash
    league: str | None = None
    removals: list[Act] = field(default_factory=list)
    created_again: list[tuple[str, int, int]] = field(default_factory=list)

    def apply(self, seq: int, act: Act) -> None:
        self.seq = seq
        code = act.code or ""
        if act.act == CREATE:
            if code in self.matches:
                self.created_again.append((code, self.matches[code], seq))
            self.matches[code] = seq
        elif act.act == REMOVE:
            self.matches.pop(code, None)
            self.keys = {place: key for place, key in self.keys.items() if place[0] != code}
            self.removals.append(act)
        elif act.act == LEAGUE:
            self.league = act.key_hash
        elif act.act == ISSUE and act.role is not None and act.key_hash is not None:
            self.keys[code, act.role] = act.key_hash
        elif act.act == REVOKE and act.role is not None:
            self.keys.pop((code, act.role), None)
