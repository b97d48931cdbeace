"""The store's tables, as SQLAlchemy 2 typed models; the migrations in ``migrations/`` build them."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    Column,
    DateTime,
    Dialect,
    Float,
    ForeignKey,
    ForeignKeyConstraint,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    SmallInteger,
    String,
    Table,
    Text,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column
from sqlalchemy.types import TypeDecorator

# Constraint names follow this from the first migration on, so later (batch) migrations can name them.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_N_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}
HASH_LENGTH = 64  # hex SHA-256, and hex HMAC-SHA256


class UTCDateTime(TypeDecorator[datetime]):
    """An aware UTC time on every engine (SQLite keeps no offset, so there it is UTC by agreement)."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        return value.astimezone(UTC) if value is not None else None

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)


class MatchRow(Base):
    """A match, named by its ``code`` (the ``match`` of its match.start), and its head.

    The head is where the match's chain ends (``last_seq``, ``last_hash``) and what the match
    stands at after that event (``last_at``, ``state``, ``score``); it changes with every append,
    so that listing matches needs no replay and a removed last event shows. ``seal`` is the store
    secret's HMAC of the code and the head with ``acts_seq``, the last of the store's acts when it
    was sealed (see :mod:`matchstate.store.seals`). ``importing`` is set while an import is being
    written under a code of its own, and then the match is no one's to see.
    """

    __tablename__ = "matches"
    __table_args__ = (
        Index("ix_matches_created_code", "created", "code"),  # the list's order
        Index("ix_matches_status_created", "status", "created"),
        Index("ix_matches_day", "day"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(64), unique=True)
    teams: Mapped[list[str]] = mapped_column(JSON)
    conditions: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(UTCDateTime)
    last_seq: Mapped[int]
    last_hash: Mapped[str] = mapped_column(String(HASH_LENGTH))
    last_at: Mapped[datetime] = mapped_column(UTCDateTime)
    state: Mapped[str] = mapped_column(String(16))
    score: Mapped[dict[str, float]] = mapped_column(JSON)
    seal: Mapped[str | None] = mapped_column(String(HASH_LENGTH))
    acts_seq: Mapped[int | None]
    importing: Mapped[datetime | None] = mapped_column(UTCDateTime)
    # For the match list's query (migration 0005): the standing (scheduled, in_play, finished), the day its
    # match.start's `at` writes, and each team's name as search compares it (case folded, accents dropped).
    status: Mapped[str | None] = mapped_column(String(16))
    day: Mapped[str | None] = mapped_column(String(10))
    team_1: Mapped[str | None] = mapped_column(Text)
    team_2: Mapped[str | None] = mapped_column(Text)


class EventRow(Base):
    """One event of a match: its JSON exactly as received, who sent it, and its link in the hash chain.

    ``type``, ``at``, ``device_id`` (its ``id``) and ``by`` repeat fields of ``raw`` for queries;
    ``verify`` checks that they agree with it.
    """

    __tablename__ = "events"
    # Unique where given, and partial so that PostgreSQL's check of a ruling's foreign key can use no index but the
    # primary key: a check's plan, cached while the table was small, took this one and filtered on seq, and an
    # import beside live appends went quadratic.
    # The cards alone, for the discipline ledger (a console's opening asks it who sits out): partial, so an append
    # of any other event writes nothing to it, and no other query can plan with it.
    __table_args__ = (Index("uq_events_match_id_device_id", "match_id", "device_id", unique=True,
                            sqlite_where=text("device_id IS NOT NULL"),
                            postgresql_where=text("device_id IS NOT NULL")),
                      Index("ix_events_cards", "match_id", "seq", sqlite_where=text("type = 'card'"),
                            postgresql_where=text("type = 'card'")))

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id"), primary_key=True)
    seq: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    type: Mapped[str] = mapped_column(String(32))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    raw: Mapped[str] = mapped_column(Text)
    device_id: Mapped[str | None] = mapped_column(String(64))
    by: Mapped[str | None] = mapped_column("recorded_by", Text, key="by")  # BY is an SQL keyword: spare plain SQL
    role: Mapped[str | None] = mapped_column(String(16))
    received_at: Mapped[datetime] = mapped_column(UTCDateTime)
    prev_hash: Mapped[str] = mapped_column(String(HASH_LENGTH))
    hash: Mapped[str] = mapped_column(String(HASH_LENGTH))
    # The canonical form its hash was made under (matchstate/store/chain.py): 1 before RFC 8785, 2 since.
    chain_version: Mapped[int] = mapped_column(SmallInteger, server_default=text("1"))


class RulingRow(Base):
    """What the engine gave for an event: its ruling (JSON, null for none), the state after it, and the match
    clock after it with the event's flags (null for an event stored before log format 1.1's engine)."""

    __tablename__ = "rulings"
    __table_args__ = (ForeignKeyConstraint(["match_id", "seq"], ["events.match_id", "events.seq"]),)

    match_id: Mapped[int] = mapped_column(primary_key=True)
    seq: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    ruling: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    state: Mapped[str] = mapped_column(String(16))
    engine_version: Mapped[str] = mapped_column(String(32))
    clock: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))
    flags: Mapped[list[str] | None] = mapped_column(JSON(none_as_null=True))


# The live key of a role: one per match and role, and one league key.
_LIVE = "revoked_at IS NULL"
_LIVE_LEAGUE = "match_id IS NULL AND revoked_at IS NULL"


class KeyRow(Base):
    """An access key, kept as its SHA-256 hash: the league's (``match_id`` null) or a match's scorer or
    official key. A key is live until ``revoked_at``; ``seal`` is the store secret's HMAC of the row."""

    __tablename__ = "keys"
    __table_args__ = (
        Index("ix_keys_key_hash", "key_hash"),
        Index("uq_keys_live_match_role", "match_id", "role", unique=True,
              sqlite_where=text(_LIVE), postgresql_where=text(_LIVE)),
        Index("uq_keys_live_league", "role", unique=True,
              sqlite_where=text(_LIVE_LEAGUE), postgresql_where=text(_LIVE_LEAGUE)),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    match_id: Mapped[int | None] = mapped_column(ForeignKey("matches.id"))
    role: Mapped[str] = mapped_column(String(16))
    key_hash: Mapped[str] = mapped_column(String(128))
    issued_at: Mapped[datetime] = mapped_column(UTCDateTime)
    revoked_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    seal: Mapped[str | None] = mapped_column(String(HASH_LENGTH))


class ActRow(Base):
    """One of the store's acts, in order: a match created or removed, a key issued or revoked, the league
    key set. Each act's ``seal`` is the store secret's HMAC over the act before's seal and this one, so the
    acts are a chain only the secret's holder can extend; a removal keeps the head the match had."""

    __tablename__ = "acts"

    seq: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    act: Mapped[str] = mapped_column(String(16))
    code: Mapped[str | None] = mapped_column(String(64))
    role: Mapped[str | None] = mapped_column(String(16))
    key_hash: Mapped[str | None] = mapped_column(String(128))
    at: Mapped[datetime] = mapped_column(UTCDateTime)
    by: Mapped[str | None] = mapped_column("recorded_by", Text, key="by")
    reason: Mapped[str | None] = mapped_column(Text)
    last_seq: Mapped[int | None]
    last_hash: Mapped[str | None] = mapped_column(String(HASH_LENGTH))
    seal: Mapped[str] = mapped_column(String(HASH_LENGTH))


class CheckpointRow(Base):
    """A match's engine as its events up to ``seq`` (whose hash is ``hash``) left it, so that a server that has
    not the match in memory resumes from here instead of replaying it from the start. Only a cache: never
    trusted over the log (``verify`` replays the log), ignored unless ``engine_version`` is the reading
    engine's, ``hash`` is the chain's at ``seq`` and ``seal`` (the store secret's HMAC of the rest) holds; see
    :mod:`matchstate.store.checkpoints`. One per match, replaced as the match goes on."""

    __tablename__ = "checkpoints"

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True,
                                          autoincrement=False)
    seq: Mapped[int]
    hash: Mapped[str] = mapped_column(String(HASH_LENGTH))
    engine_version: Mapped[str] = mapped_column(String(32))
    blob: Mapped[bytes] = mapped_column(LargeBinary)
    seal: Mapped[str] = mapped_column(String(HASH_LENGTH))


# The counts of a statistics line (see matchstate.records.stats.Line), in this order: a column each.
STAT_PENALTIES = ("1", "2", "3", "4", "5a", "5b", "6")
STAT_COUNTS = ("matches", "won", "field_goals", "penalty_goals", *(f"penalties_{p}" for p in STAT_PENALTIES),
               *(f"converted_{p}" for p in STAT_PENALTIES), "knockins", "fouls_against", "yellow_cards",
               "red_cards")


class StatMarkRow(Base):
    """How far a match's kept statistics are counted: its log up to ``seq`` (the high-water mark), with what a
    season's query filters on: its tournament (``event``, '' for none; ``event_key`` as search folds it), its
    day, and whether it had finished. A match whose ``last_seq`` has moved past its mark is counted again (a
    void may change what came before it); see :mod:`matchstate.store.statistics`. Only a cache of the logs:
    ``verify`` recounts it."""

    __tablename__ = "stat_marks"
    __table_args__ = (Index("ix_stat_marks_event_key_day", "event_key", "day"),
                      Index("ix_stat_marks_day", "day"))

    match_id: Mapped[int] = mapped_column(ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True,
                                          autoincrement=False)
    seq: Mapped[int]
    event: Mapped[str] = mapped_column(Text)
    event_key: Mapped[str] = mapped_column(Text)
    day: Mapped[str] = mapped_column(String(10))
    finished: Mapped[int]


# One match's statistics line per team (``player`` '') and per player: the counts that match adds, with the
# match's event and day repeated so that a season's sums read this table alone, in its index's order.
STAT_LINES = Table(
    "stat_lines", Base.metadata,
    Column("match_id", Integer, ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True,
           autoincrement=False),
    Column("team", Text, primary_key=True),
    Column("player", Text, primary_key=True),
    Column("team_key", Text, nullable=False),
    Column("player_key", Text, nullable=False),
    Column("event_key", Text, nullable=False),
    Column("day", String(10), nullable=False),
    *(Column(name, Integer, nullable=False) for name in STAT_COUNTS),
    Index("ix_stat_lines_line", "team_key", "team", "player_key", "player"),
)


class TournamentRow(Base):
    """A tournament as its host committee set it (conditions, teams, the draw's fixtures and the codes of
    their matches), one JSON document named by ``slug``; see :mod:`matchstate.tournaments`. Nothing that
    happened in a match is copied here: standings are derived from the matches each time they are read."""

    __tablename__ = "tournaments"

    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(200), unique=True)
    name: Mapped[str] = mapped_column(Text)
    doc: Mapped[dict[str, Any]] = mapped_column(JSON)
    created: Mapped[datetime] = mapped_column(UTCDateTime)
    updated: Mapped[datetime] = mapped_column(UTCDateTime)
    # One on with each change: a change is stored only over the version it was made from (tournaments.desk).
    version: Mapped[int] = mapped_column(Integer, server_default=text("1"))


class LogLeafRow(Base):
    """A leaf of the league log (matchstate/store/leaguelog.py), by its index in the tree: what it commits to,
    as RFC 8785 JSON (``body``), and, for an event's leaf, the match's code and the event's seq to find it by."""

    __tablename__ = "log_leaves"
    __table_args__ = (Index("ix_log_leaves_code_seq", "code", "seq"),)

    idx: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    kind: Mapped[str] = mapped_column(String(16))
    code: Mapped[str | None] = mapped_column(String(64))
    seq: Mapped[int | None]
    body: Mapped[str] = mapped_column(Text)


class LogNodeRow(Base):
    """The hash of a complete subtree of the league log: ``level`` 0 a leaf's, level k the 2**k leaves from
    ``idx`` * 2**k on. Written once, never changed: the proofs are made from them."""

    __tablename__ = "log_nodes"

    level: Mapped[int] = mapped_column(SmallInteger, primary_key=True, autoincrement=False)
    idx: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    hash: Mapped[str] = mapped_column(String(HASH_LENGTH))


class LogHeadRow(Base):
    """The league log's head, one row: its size, root, the hashes of the complete subtrees along its right edge
    (``frontier``, JSON: level → hex hash) and its latest signed checkpoint."""

    __tablename__ = "log_head"

    id: Mapped[int] = mapped_column(primary_key=True, autoincrement=False)
    size: Mapped[int] = mapped_column(BigInteger)
    root: Mapped[str] = mapped_column(String(HASH_LENGTH))
    frontier: Mapped[dict[str, str]] = mapped_column(JSON)
    checkpoint: Mapped[str | None] = mapped_column(Text)


class CosignedRow(Base):
    """A league log checkpoint that met the witness policy's quorum: its signed note with the witnesses'
    cosignatures, by tree size."""

    __tablename__ = "log_cosigned"

    size: Mapped[int] = mapped_column(BigInteger, primary_key=True, autoincrement=False)
    checkpoint: Mapped[str] = mapped_column(Text)
    cosigned_at: Mapped[datetime] = mapped_column(UTCDateTime)


class SeatRow(Base):
    """Who holds a match's scoring seat (matchstate/store/seats.py): the device's id and the label it shows,
    when it took the seat and when it was last heard from. Operational state, outside the match's log."""

    __tablename__ = "seats"

    code: Mapped[str] = mapped_column(String(64), primary_key=True)
    device: Mapped[str] = mapped_column(String(64))
    label: Mapped[str] = mapped_column(String(80))
    taken_at: Mapped[datetime] = mapped_column(UTCDateTime)
    heard_at: Mapped[datetime] = mapped_column(UTCDateTime)


class TimerTickRow(Base):
    """A clock check the seat's console logged by its timer, not a person's tap: the event's device id, the
    device that held the seat, and the seconds since the window opened."""

    __tablename__ = "timer_ticks"

    code: Mapped[str] = mapped_column(String(64), primary_key=True)
    event_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    device: Mapped[str] = mapped_column(String(64))
    elapsed: Mapped[float] = mapped_column(Float)


class HandedEventRow(Base):
    """An event a console held offline and, without the scoring seat, handed to the review as it was logged
    (``event``, its ``at`` unchanged): the official sees it listed in time order (``place``: the order handed, for
    events of the same time) and may log it, or set it aside
    (``set_aside_at``, by the device ``set_aside_device`` that shows as ``set_aside_label``), never logged."""

    __tablename__ = "handed_events"

    code: Mapped[str] = mapped_column(String(64), primary_key=True)
    event_id: Mapped[str] = mapped_column(String(64), primary_key=True)
    device: Mapped[str] = mapped_column(String(64))
    label: Mapped[str] = mapped_column(String(80))
    event: Mapped[dict[str, Any]] = mapped_column(JSON)
    handed_at: Mapped[datetime] = mapped_column(UTCDateTime)
    # Its place among the events handed to the match's review, in the order handed (None: handed before 0019).
    place: Mapped[int | None] = mapped_column(Integer)
    set_aside_at: Mapped[datetime | None] = mapped_column(UTCDateTime)
    set_aside_device: Mapped[str | None] = mapped_column(String(64))
    set_aside_label: Mapped[str | None] = mapped_column(String(80))
