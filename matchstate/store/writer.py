"""The store's writer: the write steps that a live append, a new match and an import all take, in one place.

:class:`~matchstate.store.facade.Store` and :class:`~matchstate.store.importing.Import` are each handed one
:class:`Writer` and write through it alone: a match's row inserted, its creation and keys recorded as acts,
an event's rows made and sealed, a head sealed, a batch of events written, a match's rows deleted. Neither
reaches into the other.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime
from typing import Any, NamedTuple

from sqlalchemy import Connection, delete, insert, update
from sqlalchemy.exc import IntegrityError

from ..engine import Match
from ..errors import DuplicateMatch, StoreError
from ..models import EventRow, HandedEventRow, KeyRow, MatchRow, RulingRow, SeatRow, TimerTickRow
from ..rulings import Ruling
from . import acts
from . import keys as keyring
from .acts import Act
from .cache import Head
from .chain import GENESIS
from .database import Database
from .dialects import Statements
from .incoming import Incoming
from .results import StoredEvent
from .seals import head_seal
from .sql import match_columns, standing


class Written(NamedTuple):
    """An event just taken by its match's engine: as stored, and the rows it writes (``Statements.write``'s)."""

    stored: StoredEvent
    rows: dict[str, Any]


class Writer:
    """The write steps over ``database``, whose statements that differ by database are ``statements``."""

    def __init__(self, database: Database, statements: Statements) -> None:
        self.database = database
        self.statements = statements

    def insert_match(self, connection: Connection, match: Match, created: datetime, staged: str | None = None,
                     importing: datetime | None = None) -> int:
        """Insert a match's row for its engine just fed its match.start, its id; an import's under the ``staged``
        code, ``importing`` since then. :class:`DuplicateMatch` where its code is taken."""
        columns = match_columns(match, created)
        if staged is not None:
            columns["code"] = staged
        try:
            match_id: int = connection.execute(insert(MatchRow).values(
                **columns, last_seq=0, last_hash=GENESIS, importing=importing)).inserted_primary_key[0]  # type: ignore[index]
        except IntegrityError:
            raise DuplicateMatch.said("duplicate", code=repr(match.start["match"])) from None
        return match_id

    def register(self, connection: Connection, secret: bytes, match_id: int, code: str, live_keys: Mapping[str, str],
                 at: datetime, by: str | None, reason: str | None = None) -> int:
        """Record a new match's creation and its keys as acts, and its keys; the seq of the last act."""
        for role in live_keys:
            check_key_role(role)
        acts_seq = acts.record(connection, self.database, secret, Act(acts.CREATE, at, code, by=by, reason=reason))
        for role, key_hash in live_keys.items():
            acts_seq = acts.record(connection, self.database, secret, Act(acts.ISSUE, at, code, role, key_hash, by=by))
            keyring.issue(connection, secret, match_id, code, role, key_hash, at)
        return acts_seq

    @staticmethod
    def written(secret: bytes, head: Head, incoming: Incoming, ruling: Ruling | None, acts_seq: int) -> Written:
        """The event just fed to ``head``'s engine as stored, and its rows: the event's, its ruling's and the
        match's new head, sealed."""
        event_row, ruling_row, stored = incoming.rows(head, ruling)
        match = head.match
        return Written(stored, {**event_row, **ruling_row, "match_id": head.match_id, "last_seq": match.seq,
                                "last_hash": stored.hash, "last_at": stored.at, "state": match.state,
                                "score": match.score, "status": standing(match), "acts_seq": acts_seq,
                                "seal": head_seal(secret, match.start["match"], match.seq, stored.hash, acts_seq)})

    def write(self, connection: Connection, rows: list[dict[str, Any]]) -> None:
        """Write appends' rows (each :class:`Written`'s)."""
        self.statements.write(connection, rows)

    def write_batch(self, connection: Connection, head: Head, events: list[dict[str, Any]],
                    rulings: list[dict[str, Any]], importing: datetime) -> None:
        """Write a batch of an import's event and ruling rows, and its staged match's head after them."""
        self.statements.import_rows(connection, events, rulings)
        match, last = head.match, events[-1]
        connection.execute(update(MatchRow).where(MatchRow.id == head.match_id).values(
            last_seq=last["seq"], last_hash=last["hash"], last_at=last["at"], state=match.state,
            score=match.score, status=standing(match), importing=importing))

    @staticmethod
    def seal_head(connection: Connection, secret: bytes, match_id: int, code: str, last_seq: int, last_hash: str,
                  acts_seq: int) -> None:
        """Seal a match's head as it stands, with the seq of the store's last act."""
        connection.execute(update(MatchRow).where(MatchRow.id == match_id).values(
            seal=head_seal(secret, code, last_seq, last_hash, acts_seq), acts_seq=acts_seq))

    @staticmethod
    def delete_rows(connection: Connection, match_id: int) -> None:
        """Delete a match's rows: its keys, rulings, events and its own."""
        for table in (KeyRow, RulingRow, EventRow):
            connection.execute(delete(table).where(table.match_id == match_id))
        connection.execute(delete(MatchRow).where(MatchRow.id == match_id))

    @staticmethod
    def forget_seat(connection: Connection, code: str) -> None:
        """Delete what the scoring seat of match ``code`` keeps beside its log (:mod:`~matchstate.store.seats`): its
        holder, its timer's clock checks and the events handed to its review. Kept by code, they outlive the match
        they were for unless deleted with it, and a new match under its code would take them on."""
        for table in (SeatRow, TimerTickRow, HandedEventRow):
            connection.execute(delete(table).where(table.code == code))


def check_key_role(role: str) -> None:
    """Refuse a role no match's key can hold."""
    if role not in keyring.ROLES:
        raise StoreError(f"a match's key role is one of {keyring.ROLES}, not {role!r}")
