"""The ``Store``: matches, their keys and the league's acts, over the chain, the SQL, the cache and the seals."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from sqlalchemy import URL, Connection, Engine, Row, func, select

from .. import authority
from ..errors import ConflictError, IllegalEvent, MatchstateError, NotProven, RefusedEvent, StoreError, UnknownMatch
from ..log import parse_line
from ..models import ActRow, EventRow, KeyRow, MatchRow
from ..tlog.note import Signer, Verifier
from ..version import ENGINE_VERSION
from . import acts, logcheck
from . import keys as keyring
from . import verify as checks
from .acts import Act
from .cache import CACHE_BYTES, EngineCache, Head
from .chain import canonical
from .checkpoints import Checkpoints
from .commits import GroupCommit
from .database import ACTS_LOCK, Database, database_url
from .dialects import Found, Wanted
from .importing import Also, Import, Imported
from .incoming import Incoming
from .keys import KeyCheck
from .leaguelog import APPEND, LeagueLog, event_leaf
from .logkeys import LogKeys
from .receipts import AnyReceipt, ProofReceipt, Receipt, fingerprint, proof_receipt, public_pem, read_receipt, sign
from .results import Appended, MatchQuery, StoredEvent, Summary, Unreadable, read_or_refuse
from .secretfiles import SecretFiles, secret_path
from .snapshot import Snapshot
from .sql import (
    ACTS,
    CARDS,
    CHECKED,
    EVENT,
    EVENTS,
    HEAD,
    KEYS,
    LIVE,
    MATCH_ROWS,
    ORPHANS,
    RECORDED_BY,
    HeadRow,
    listing,
    read_each,
)
from .statistics import problems as kept_problems
from .verify import Problem, ReceiptReport
from .writer import Writer, check_key_role

Clock = Callable[[], datetime]
MAX_SEQ = 2**31 - 1  # the seq column's largest value on either database


def utc_now() -> datetime:
    return datetime.now(UTC)


class _Created(NamedTuple):
    """A match just written in a transaction, to answer for once it commits: its code, head, first event as
    stored, and where the league log's leaf landed (its index, and the checkpoint that holds it)."""

    code: str
    head: Head
    stored: StoredEvent
    leaf: tuple[int, str | None]


class Store:
    """Matches in a database: create, append, read, remove and verify them, and the keys that may. A Store
    may be shared by threads, and several Stores (several servers) may share one database.

    ``clock`` gives the server's time for each event received (UTC); ``engine_version`` is kept with
    each ruling and covered by its hash (this engine's, :data:`~matchstate.version.ENGINE_VERSION`,
    unless a test says otherwise); ``secret_file`` is where the store's secret is, and its signing key
    beside it (default: :func:`~matchstate.store.secretfiles.secret_path`); ``cache_bytes`` the memory its
    cached engines may take (:mod:`~matchstate.store.cache`). Concurrent appends share commits
    (:mod:`~matchstate.store.commits`) unless ``group_commit`` is False.
    """

    def __init__(self, url: str | None = None, *, clock: Clock = utc_now, engine_version: str = ENGINE_VERSION,
                 secret_file: str | Path | None = None, cache_bytes: int = CACHE_BYTES,
                 group_commit: bool = True, log_origin: str | None = None) -> None:
        self.database = Database(database_url(url))
        self.log_origin = log_origin
        self.clock = clock
        self.engine_version = engine_version
        self._secret_file = secret_file
        self._secrets: SecretFiles | None = None
        self._signer: tuple[Ed25519PrivateKey, str] | None = None  # the signing key and its fingerprint
        self._writer = Writer(self.database, self.database.statements)
        self.log = LeagueLog(self.database, self._log_signer)
        self._commits = GroupCommit(self.database, grouped=group_commit, log=self.log)
        self._cache = EngineCache(cache_bytes, Checkpoints(self.database.statements, engine_version,
                                                           self._sealing_secret))

    @property
    def url(self) -> URL:
        return self.database.url

    @property
    def engine(self) -> Engine:
        """The SQLAlchemy engine (for tests and tools that read the tables themselves)."""
        return self.database.engine

    @property
    def commit_groups(self) -> Counter[int]:
        """How many write transactions (group commits) held each number of appends, since the store opened."""
        return self._commits.sizes

    @property
    def secrets(self) -> SecretFiles:
        """The store's secret and signing key (files outside the database)."""
        if self._secrets is None:
            self._secrets = SecretFiles(secret_path(self.url, self._secret_file))
        return self._secrets

    def close(self) -> None:
        """Close the database connections."""
        self.database.close()

    # -- the schema ------------------------------------------------------------------

    def upgrade(self) -> str | None:
        """Bring the database to the latest schema, make the store's secret and signing key where this is a
        new store, seal what was stored before seals, and make a league key where there is none.

        Returns the new league key, in clear (only its hash is kept), or None where one was live already.
        Concurrent upgrades take turns. Nothing recorded is changed: no event, ruling or hash.
        """
        with self.database.migration() as connection:
            before = self.database.migrate(connection)
            if acts.last_seq(connection) == 0:  # a new store, or one from before seals: its secret is made here
                if before != "0001" and connection.execute(select(MatchRow.id).limit(1)).first() is not None:
                    raise StoreError("the store has matches but no acts: they were deleted behind its back "
                                     "(`matchstate verify` says more); it is not sealed again")
                self.secrets.make()
            secret = self.secrets.secret()  # else it must be the very one it was sealed with: named where missing
            self.secrets.signing_key()
            if before == "0001":  # the matches stored before seals: recorded as acts, sealed now
                self._seal_older_matches(connection, secret)
            if keyring.has_league_key(connection):
                return None
            league_key = keyring.new_key()
            self._set_league_key(connection, secret, keyring.hash_key(league_key), by="matchstate db upgrade")
            return league_key

    def schema_is_current(self) -> bool:
        """Whether the database has had every migration."""
        return self.database.schema_is_current()

    def _seal_older_matches(self, connection: Connection, secret: bytes) -> None:
        at = self.clock()
        reason = "recorded by matchstate db upgrade: the match was stored before the store kept acts"
        matches = connection.execute(select(MatchRow.id, MatchRow.code, MatchRow.last_seq, MatchRow.last_hash)
                                     .order_by(MatchRow.id)).all()
        for match in matches:
            found = connection.execute(select(KeyRow.id, KeyRow.role, KeyRow.key_hash, KeyRow.issued_at)
                                       .where(KeyRow.match_id == match.id).order_by(KeyRow.id)).all()
            acts_seq = acts.record(connection, self.database, secret, Act(acts.CREATE, at, match.code, reason=reason))
            for key in found:
                acts_seq = acts.record(connection, self.database, secret,
                                       Act(acts.ISSUE, at, match.code, key.role, key.key_hash, reason=reason))
                keyring.seal_row(connection, secret, key.id, match.code, key.role, key.key_hash, key.issued_at)
            self._writer.seal_head(connection, secret, match.id, match.code, match.last_seq, match.last_hash, acts_seq)

    # -- matches ---------------------------------------------------------------------

    def create_match(self, start_event: Mapping[str, Any] | str, *, keys: Mapping[str, str] | None = None,
                     role: str | None = None, by: str | None = None,
                     also: Also | None = None) -> Appended:
        """Store a new match from its match.start, as seq 1, with ``keys`` (role → the key's hash) as its live
        keys; :class:`DuplicateMatch` if its code is taken. The creation and each key are acts, ``by`` who.
        ``also(connection, code)`` writes in the same transaction (a tournament's fixture taking the match): what it
        raises stores nothing."""
        incoming = self._incoming(start_event, role)
        secret = self._secret()
        with self.database.transaction(write=True) as connection:
            made = self._created(connection, secret, incoming, keys or {}, by, also)
            self._writer.forget_seat(connection, made.code)  # left by a match removed before removals deleted it
        with self._cache.lock(made.code):
            snapshot = self._remembered(made)
        return Appended(made.stored, False, snapshot, self._receipt(made.code, made.stored, made.leaf))

    def _created(self, connection: Connection, secret: bytes, incoming: Incoming, keys: Mapping[str, str],
                 by: str | None, also: Also | None) -> _Created:
        """Write a new match from ``incoming``, its match.start, in ``connection``'s write transaction (as
        :meth:`create_match` says)."""
        head, ruling = incoming.start()
        code = head.match.start["match"]
        head.match_id = self._writer.insert_match(connection, head.match, incoming.received_at)
        if also is not None:
            also(connection, code)
        acts_seq = self._writer.register(connection, secret, head.match_id, code, keys, incoming.received_at, by)
        stored, written = self._writer.written(secret, head, incoming, ruling, acts_seq)
        self._writer.write(connection, [written])
        added = self.log.add(connection, [event_leaf(APPEND, code, 1, stored.hash)])
        return _Created(code, head, stored, (added.first, added.checkpoint))

    def _remembered(self, made: _Created) -> Snapshot:
        """A match just created, committed, cached (under its code's lock, which the caller holds): as it stands."""
        self._cache.remember(made.head)
        return made.head.snapshot()

    def append(self, code: str, event: Mapping[str, Any] | str, expected_seq: int | None = None, *,
               role: str | None = None, key: KeyCheck | None = None) -> Appended:
        """Check ``event`` with the engine and append it to match ``code``, durably.

        ``event`` is an event object or its JSON text. A refused event raises
        :class:`RefusedEvent` and writes nothing. With ``expected_seq``, the append is made
        only if it is still the match's last seq, else :class:`ConflictError`. Returns the event
        as stored, a snapshot of the match after it and the signed receipt; an event whose device ``id``
        is stored already is a retried send: the stored event and its receipt come back, ``duplicate=True``,
        and nothing is written (also when another server stored it a moment before).

        The event is recorded as sent by ``role``; or, with ``key``, as the role its ``admit`` gives for the
        role the key holds, read in the append's own transaction with the match's head (a key revoked before
        it opens nothing, on any server), and before anything else is checked; then, in the same transaction, as
        the rules admit the event from that role (:func:`~matchstate.authority.admit`: who may void what, and an
        official's late void re-stamped).
        """
        if key is not None and role is not None:
            raise StoreError("an append is made with a role or with a key to check, not both")
        try:
            incoming = self._incoming(event, role, seal=key is None)
        except RefusedEvent:
            if key is not None:
                self._check_key(code, key)  # a key that opens nothing is told so before what is wrong with the event
            raise
        secret = self._secret()
        device_id = incoming.event.get("id") if isinstance(incoming.event.get("id"), str) else None
        wanted = Wanted(code, device_id, key.key_hash if key is not None else None)
        with self._cache.lock(code):
            (stored, duplicate, snapshot), leaf = self._commits.run_logged(
                wanted, lambda connection, found: self._append(connection, found, code, device_id, incoming,
                                                               expected_seq, secret, key))
        return Appended(stored, duplicate, snapshot, self._receipt(code, stored, leaf))

    def _append(self, connection: Connection, found: Found | None, code: str, device_id: str | None,
                incoming: Incoming, expected_seq: int | None, secret: bytes,
                key: KeyCheck | None) -> tuple[tuple[StoredEvent, bool, Snapshot], dict[str, Any] | None]:
        """:meth:`append`'s work in a write transaction (maybe others' too), under the match's cache lock, given the
        match's head as :meth:`~matchstate.store.dialects.Statements.heads` reads it: the event as stored, whether it
        was a retried send, and the match after it; with the rows to write, if any. Raises before it writes, or not at
        all."""
        role = None
        if key is not None:
            held = (keyring.role_held(secret, code, key.key_hash, found.held) if found is not None
                    else keyring.role_of(connection, secret, code, key.key_hash))
            role = key.admit(held, found is not None)
        if found is None:
            raise _unknown(code)
        row = HeadRow(found.match_id, found.last_seq, found.last_hash)
        retried_seq = found.retried_seq
        stale = expected_seq is not None and expected_seq != found.last_seq
        if retried_seq is None and stale and device_id is not None:  # read afresh: is it a retry after all?
            retried_seq = self.database.statements.retried(connection, found.match_id, device_id)
        if retried_seq is None and stale:
            raise ConflictError.said("stale", found.last_seq, code=code, seq=found.last_seq, expected=expected_seq)
        head, seen = self._cache.head(connection, code, row, device_id)
        retried_seq = seen if retried_seq is None else retried_seq
        if role is not None:
            incoming = self._admitted(connection, head, incoming, role)
        if retried_seq is not None:
            return (self._retried(connection, row, retried_seq, incoming), True, head.snapshot()), None
        ruling = head.match.feed(incoming.event)
        stored, written = self._writer.written(secret, head, incoming, ruling, found.acts_seq or 0)
        return (stored, False, head.snapshot()), written

    @staticmethod
    def _admitted(connection: Connection, head: Head, incoming: Incoming, role: str) -> Incoming:
        """The event as the rules admit it from a key that holds ``role`` (:func:`~matchstate.authority.admit`),
        sealed: refused unless the role may log it, re-stamped where the rules stamp it."""
        struck = authority.struck(incoming.event, head.match.seq)
        target_role: str | None = authority.SCORER
        if struck is not None:
            # A review.request's void strikes its outcome with it: it is the outcome's recorder's to void too.
            roles = {connection.execute(RECORDED_BY, {"match_id": head.match_id, "seq": seq}).scalar()
                     for seq in (struck, head.match.outcome_of(struck)) if seq is not None}
            target_role = authority.SCORER if roles == {authority.SCORER} else authority.OFFICIAL
        at = authority.admit(incoming.event, role, target_role, head.match.last_at)
        return (incoming.restamped(at) if at is not None else incoming).as_role(role)

    def import_log(self, lines: Iterable[str], *, keys: Mapping[str, str] | None = None,
                   by: str | None = None, also: Also | None = None) -> Imported:
        """Store a whole match log as a new match, with ``keys`` (role → hash); returns its code and number of
        events. All or nothing: a refused line (with its line number) stores nothing, as does a device ``id``
        used twice. It is written in batches, each its own short transaction, under a code of its own that
        no one sees, and takes the match's code only once it is whole, so live appends to other matches
        wait for a batch at most, never for the whole import. ``also(connection, code)`` writes in the
        transaction that makes the match whole: what it raises stores nothing."""
        secret = self._secret()  # refused before anything is written, where there is none
        return Import(self._writer, self._cache, self.log, self.clock, self.engine_version, keys or {},
                      by, also).run(secret, lines)

    def remove_match(self, code: str, *, reason: str, by: str | None, unstarted: bool = False) -> None:
        """Remove match ``code`` with all its events: a recorded act, kept with who, when, why and the head the
        match had, which ``verify`` reports as a removal. Its scoring seat goes with it (its holder, its timer's clock
        checks, the events handed to its review), and its code is free again afterwards. With ``unstarted``,
        only while it holds nothing but its match.start (:class:`ConflictError` once it holds more)."""
        if not reason.strip():
            raise StoreError("a match is removed only with a reason")
        secret = self._secret()
        with self._cache.lock(code), self.database.transaction(write=True) as connection:
            self._removed(connection, secret, code, reason, by, unstarted)
            self._writer.forget_seat(connection, code)

    def _removed(self, connection: Connection, secret: bytes, code: str, reason: str, by: str | None,
                 unstarted: bool) -> dict[str, str]:
        """Remove match ``code`` in ``connection``'s write transaction (as :meth:`remove_match` says), under its
        code's lock, which the caller holds: the hashes of the live keys it had, by role."""
        row = connection.execute(HEAD.with_for_update(), {"code": code}).first()
        if row is None:
            raise _unknown(code)
        if unstarted and row.last_seq > 1:  # checked under the head's lock: no append slips in before it
            raise ConflictError.said("correct-started", row.last_seq, code=code, seq=row.last_seq)
        live = keyring.live_hashes(connection, row.id)
        acts.record(connection, self.database, secret, Act(acts.REMOVE, self.clock(), code, by=by, reason=reason,
                                                            last_seq=row.last_seq, last_hash=row.last_hash))
        self._writer.delete_rows(connection, row.id)
        self._cache.forget(code)
        return live

    def correct_match(self, code: str, start_event: Mapping[str, Any] | str, *, reason: str, role: str | None = None,
                      by: str | None = None, also: Also | None = None) -> Appended:
        """Put a corrected match.start in the place of match ``code``'s while nothing else is logged in it: the
        match is removed (a recorded act, with ``reason``) and created again from ``start_event`` under the same
        code, with the live keys it had, so the links that carry them still open it, and its scoring seat as it
        was (the events handed to its review wait there still); one transaction, so that
        nothing is removed without its correction. Refused, with nothing changed, when the new match.start is,
        when it names another match, and (:class:`ConflictError`) once the match holds more than its
        match.start: what is logged is corrected by a void, never rewritten. ``also(connection, code)`` is asked
        first in the same transaction (what it locks, it locks before the store's acts, as a create's ``also``
        does: two requests taking them in turn the other way round would deadlock): what it raises changes
        nothing."""
        if not reason.strip():
            raise StoreError("a match.start is corrected only with a reason")
        self.key_hashes(code)  # no such match is said first, as what it is
        checked = self._incoming(start_event, role)
        checked.start()  # a refused match.start is refused here, before anything is removed
        if checked.event["match"] != code:
            raise StoreError.said("correct-code", code=code, given=checked.event["match"])
        secret = self._secret()
        with self._cache.lock(code):
            with self.database.transaction(write=True) as connection:
                if also is not None:
                    also(connection, code)
                live = self._removed(connection, secret, code, reason, by, unstarted=True)
                keys = {role: live[role] for role in (keyring.SCORER, keyring.OFFICIAL) if role in live}
                # received after the removal's act, so that the acts' times run in the order they were made
                made = self._created(connection, secret, self._incoming(start_event, role), keys, by, None)
            snapshot = self._remembered(made)
        return Appended(made.stored, False, snapshot, self._receipt(code, made.stored, made.leaf))

    def removals(self) -> list[Act]:
        """Every match removed with :meth:`remove_match`, in order."""
        with self.database.transaction() as connection:
            found = connection.execute(ACTS.where(ActRow.act == acts.REMOVE))
            return [acts.from_row(row) for row in found]

    # -- keys ------------------------------------------------------------------------

    def set_league_key(self, key_hash: str, *, by: str | None = None) -> None:
        """Make ``key_hash`` the league key, revoking the one before it."""
        with self.database.transaction(write=True) as connection:
            self._set_league_key(connection, self._secret(), key_hash, by)

    def issue_key(self, code: str, role: str, key_hash: str, *, by: str | None = None) -> None:
        """Make ``key_hash`` the live ``role`` key ('scorer' or 'official') of match ``code``, revoking the one
        before it."""
        check_key_role(role)
        secret = self._secret()
        with self.database.transaction(write=True) as connection:
            match_id = self._match_id(connection, code)
            at = self.clock()
            acts.record(connection, self.database, secret, Act(acts.ISSUE, at, code, role, key_hash, by=by))
            keyring.issue(connection, secret, match_id, code, role, key_hash, at)

    def revoke_key(self, code: str, role: str, *, by: str | None = None) -> None:
        """Revoke the live ``role`` key of match ``code``: from now on, on every server, it opens nothing."""
        check_key_role(role)
        secret = self._secret()
        with self.database.transaction(write=True) as connection:
            match_id = self._match_id(connection, code)
            at = self.clock()
            self.database.lock(connection, ACTS_LOCK)
            if keyring.revoke(connection, secret, match_id, code, role, at):
                acts.record(connection, self.database, secret, Act(acts.REVOKE, at, code, role, by=by))

    def role_of_key(self, code: str | None, key_hash: str) -> str | None:
        """The role of the key whose hash is ``key_hash``: 'league' for the live league key (whatever ``code``),
        else its live 'scorer' or 'official' role on match ``code``, else None (also for an unknown match).
        Read from the database on every call, so a revocation holds at once on every server."""
        secret = self._secret()
        with self.database.transaction() as connection:
            return keyring.role_of(connection, secret, code, key_hash)

    def key_holds_a_role(self, key_hash: str) -> bool:
        """Whether the key whose hash is ``key_hash`` holds a live role on some match, or is the league's."""
        secret = self._secret()
        with self.database.transaction() as connection:
            return keyring.holds_a_role(connection, secret, key_hash)

    def key_hashes(self, code: str) -> tuple[str | None, str | None]:
        """The hashes of match ``code``'s live scorer key and official key."""
        with self.database.transaction() as connection:
            live = keyring.live_hashes(connection, self._match_id(connection, code))
        return live.get(keyring.SCORER), live.get(keyring.OFFICIAL)

    def public_key(self) -> Ed25519PublicKey:
        """The public key that checks this store's receipts."""
        return self.secrets.public_key()

    def public_key_pem(self) -> str:
        """:meth:`public_key` as PEM (SubjectPublicKeyInfo), as ``matchstate keys public`` prints it."""
        return public_pem(self.public_key())

    def log_public_key_pem(self) -> str:
        """The league log's signing key now, as PEM: the receipts' (:meth:`public_key_pem`) until it is rotated."""
        return public_pem(Ed25519PublicKey.from_public_bytes(self.log.signer.verifier.public))

    def key_fingerprint(self) -> str:
        """The public key's fingerprint, each receipt's ``key``: the first 16 hex digits of its raw bytes' SHA-256."""
        return fingerprint(self.public_key())

    # -- the shared steps --------------------------------------------------------------

    def _secret(self) -> bytes:
        return self.secrets.secret()

    def _sealing_secret(self) -> bytes | None:
        """The secret, where it is at hand (a store read without it replays where it would resume)."""
        return self.secrets.secret() if self.secrets.path.exists() else None

    def _incoming(self, event: Mapping[str, Any] | str, role: str | None, seal: bool = True) -> Incoming:
        if role not in (None, *keyring.ROLES):
            raise StoreError(f"role must be one of {keyring.ROLES} or None, not {role!r}")
        return Incoming.decode(event, role, self.clock(), self.engine_version, seal=seal)

    def _check_key(self, code: str, key: KeyCheck) -> None:
        """Check ``key`` as an append to match ``code`` would, in a transaction of its own."""
        with self.database.transaction() as connection:
            known = connection.execute(HEAD, {"code": code}).first() is not None
            key.admit(keyring.role_of(connection, self._secret(), code, key.key_hash), known)

    @staticmethod
    def _retried(connection: Connection, row: HeadRow, seq: int, incoming: Incoming) -> StoredEvent:
        """The stored result of event ``seq``, which has the incoming event's device ``id``: a retried send."""
        stored = StoredEvent(**connection.execute(EVENT, {"match_id": row.id, "seq": seq}).one()._mapping)
        if canonical(parse_line(stored.raw)) != canonical(incoming.event):
            raise IllegalEvent.said("id-taken", id=repr(stored.device_id), seq=stored.seq)
        return stored

    def _log_signer(self) -> Signer:
        """The key that signs the league log's checkpoints (the receipts' key until one is rotated in), named by the
        log's origin."""
        first = Signer(self._origin(self.public_key()), self.secrets.signing_key())
        return LogKeys(self.secrets).signer(first)  # a rotated key, where the log has one

    def _origin(self, public_key: Ed25519PublicKey) -> str:
        """The league log's origin, whose checkpoints ``public_key`` signs: the one it was given, else the key's."""
        return self.log_origin or f"matchstate.league/{fingerprint(public_key)}"

    def _receipt(self, code: str, stored: StoredEvent, leaf: tuple[int, str | None] | None = None) -> AnyReceipt:
        """The receipt of a stored event (made after its commit, outside every lock): the C2SP tlog proof of its
        league log leaf in its group's checkpoint, from the log's cache where it holds every node; for a retry,
        an imported event or an event read again, its latest leaf in the log's latest checkpoint. An event stored
        before the log began has no leaf: its receipt is signed, as receipts were before the log."""
        if leaf is not None and leaf[1] is not None:
            try:
                return proof_receipt(code, stored.seq, stored.hash, stored.received_at, APPEND,
                                     self.log.tlog_proof(None, leaf[0], leaf[1]))
            except LookupError:  # another server's nodes, not yet read here
                pass
        with self.database.transaction() as connection:
            if leaf is None or leaf[1] is None:
                index, checkpoint = self.log.latest_leaf(connection, code, stored.seq), self.log.head(connection)[2]
                leaf = None if index is None or checkpoint is None else (index, checkpoint)
            if leaf is not None:
                kind = self.log.leaf_kind(connection, leaf[0])
                return proof_receipt(code, stored.seq, stored.hash, stored.received_at, kind,
                                     self.log.tlog_proof(connection, leaf[0], leaf[1]))  # type: ignore[arg-type]
        if self._signer is None:
            self._signer = self.secrets.signing_key(), self.key_fingerprint()
        return sign(*self._signer, code, stored.seq, stored.hash, stored.received_at)

    def _set_league_key(self, connection: Connection, secret: bytes, key_hash: str, by: str | None) -> None:
        at = self.clock()
        acts.record(connection, self.database, secret, Act(acts.LEAGUE, at, key_hash=key_hash, by=by))
        keyring.issue(connection, secret, None, None, keyring.LEAGUE, key_hash, at)

    def _match_id(self, connection: Connection, code: str) -> int:
        return self._head_row(connection, code).id

    # -- reading ---------------------------------------------------------------------

    def _head_row(self, connection: Connection, code: str) -> HeadRow:
        row = connection.execute(HEAD, {"code": code}).first()
        if row is None:
            raise _unknown(code)
        return HeadRow(*row)

    def match(self, code: str) -> Snapshot:
        """A snapshot of match ``code`` as stored."""
        with self._cache.lock(code), self.database.transaction() as connection:
            return self._cache.head(connection, code, self._head_row(connection, code))[0].snapshot()

    def events(self, code: str, after_seq: int = 0) -> list[StoredEvent]:
        """The stored events of match ``code`` after ``after_seq``, in order."""
        with self.database.transaction() as connection:
            match_id = self._head_row(connection, code).id
            if after_seq >= MAX_SEQ:
                return []
            rows = connection.execute(EVENTS.where(EventRow.match_id == match_id, EventRow.seq > after_seq)
                                      .order_by(EventRow.seq))
            return read_or_refuse(code, lambda: [StoredEvent(**row._mapping) for row in rows])

    def cards(self) -> list[tuple[str, int, str]]:
        """Every card event of every match, as (its match's code, its seq, its JSON as received), by match and seq:
        read from their own index, not from the matches' logs (the discipline ledger's read)."""
        with self.database.transaction() as connection:
            return [(code, seq, raw) for code, seq, raw in connection.execute(CARDS)]

    def event(self, code: str, seq: int) -> StoredEvent | None:
        """The stored event ``seq`` of match ``code``; None if it has no such event."""
        with self.database.transaction() as connection:
            match_id = self._head_row(connection, code).id
            if not 1 <= seq <= MAX_SEQ:
                return None
            row = read_or_refuse(code, connection.execute(EVENT, {"match_id": match_id, "seq": seq}).first)
        return None if row is None else StoredEvent(**row._mapping)

    def receipt(self, code: str, seq: int) -> AnyReceipt | None:
        """The receipt of the stored event ``seq`` of match ``code``: its leaf's proof in the log's latest checkpoint
        (see :meth:`_receipt`); None if it has no such event."""
        stored = self.event(code, seq)
        return None if stored is None else self._receipt(code, stored)

    def last_seqs(self, codes: Iterable[str]) -> dict[str, int]:
        """The seq of the last event of each of the matches ``codes`` there are (one cheap read)."""
        with self.database.transaction() as connection:
            found = connection.execute(select(MatchRow.code, MatchRow.last_seq).where(
                MatchRow.code.in_(list(codes)), LIVE))
            return {code: last_seq for code, last_seq in found}

    def match_count(self) -> int:
        """How many matches the store holds (removed ones and imports under way not counted)."""
        with self.database.transaction() as connection:
            return int(connection.execute(select(func.count()).select_from(MatchRow).where(LIVE)).scalar_one())

    def summaries(self, query: MatchQuery | None = None) -> list[Summary | Unreadable]:
        """Every match, oldest first, or those ``query`` finds in its order and page, as the store's head of each
        says (no replay); a match whose row cannot be read back is in its place as :class:`Unreadable`."""
        statement = listing(query or MatchQuery())
        with self.database.transaction() as connection:
            return read_each(connection, statement, Summary.read)

    # -- verifying -------------------------------------------------------------------

    def verify(self, code: str | None = None) -> list[Problem]:
        """Walk the chain of every match (or of ``code``), replay it through the engine, and check its row; with
        the store's secret at hand, check the seals too, and (for the whole store) the acts against the tables.

        Each match gives at most one problem in its chain: the first seq changed, removed or moved
        (its hash covers the event as received with its role, received_at and the ruling's engine
        version, and its type, at, device id and by must be its JSON's). Then one for each stored
        ruling or state that the engine now gives differently, naming the keys that differ; and,
        where the chain holds, one for each column of the match's row that the chain and the replay
        do not give (``Problem.column``). With the secret: a head whose seal does not hold (events cut
        off or added with the head set to match), a key whose row is not what was sealed or issued, an
        act whose seal does not hold, a match the acts created that is gone without a recorded removal,
        and one they never created. Rows that refer to none are named. A match removed with
        :meth:`remove_match` is no problem (:meth:`removals` lists them).
        """
        secret = self._secret() if self.secrets.path.exists() else None
        problems: list[Problem] = []
        reading = "its matches' rows"  # what is read when a row cannot be read back
        try:
            with self.database.transaction() as connection:
                found = read_each(connection, MATCH_ROWS if code is None else MATCH_ROWS.where(MatchRow.code == code),
                                  lambda row: row)
                if code is not None and not found:
                    raise _unknown(code)
                rows = [row for row in found if not isinstance(row, Unreadable)]
                unreadable = [match for match in found if isinstance(match, Unreadable)]
                problems += [Problem(match.code, None, f"its row cannot be read back ({match.why}): it was changed "
                                                       "behind the store's back") for match in unreadable]
                if code is not None and not rows:
                    return problems  # the match asked for is unreadable: said above, and nothing else is asked
                reading = "its acts"
                if code is None:
                    ledger, act_problems = checks.walk_acts(connection.execute(ACTS), secret)
                    if [problem.what for problem in act_problems] == [checks.WRONG_SECRET]:
                        problems += act_problems  # said once, where every seal would be said not to hold
                        secret, act_problems = None, []
                else:  # the acts of this match alone: their chain is the whole store's to check
                    ledger = acts.Ledger()
                    for row in connection.execute(ACTS.where(ActRow.code == code)):
                        ledger.apply(row.seq, acts.from_row(row))
                    ledger.seq = rows[0].last_act or 0
                if secret is not None and ledger.seq == 0 and rows:
                    problems.append(Problem(None, None, "it has matches but no acts: it was never sealed (run "
                                                        "`matchstate db upgrade`), or its acts were all deleted"))
                    secret = None  # nothing to check the seals against
                # each row's code, its chain's code, and whether it checked out
                matches: list[tuple[str, str | None, bool]] = [(match.code, match.code, False) for match in unreadable]
                whole: list[Row[Any]] = []  # the rows whose chain holds: only their logs are recounted
                for row in rows:
                    events = connection.execute(CHECKED.where(EventRow.match_id == row.id).order_by(EventRow.seq))
                    checked = checks.verify_match(row, events, self.engine_version)
                    problems.extend(checked.problems)
                    # the seal is the last word, where all else holds
                    if secret is not None and not checked.problems:
                        seal = list(checks.verify_seal(row, secret, ledger))
                        problems.extend(seal)
                        checked = checks.Checked(seal, checked.code)
                    matches.append((row.code, checked.code, not checked.problems))
                    if not checked.problems:
                        whole.append(row)
                # A changed log has its problem said above: its recount would only count the change, or fail.
                reading = "its kept statistics"
                problems.extend(kept_problems(connection, [(row.id, row.code, row.last_seq) for row in whole]))
                reading = "its keys"
                if secret is not None:
                    key_rows = connection.execute(KEYS if code is None else KEYS.where(MatchRow.code == code)).all()
                    problems.extend(checks.verify_keys(key_rows, secret, ledger, {row.code for row in whole},
                                                       league=code is None))
                if code is None:
                    if secret is not None:
                        problems.extend(act_problems)
                        problems.extend(checks.verify_ledger(ledger, matches))
                    problems.extend(checks.orphans({kind: [tuple(row) for row in connection.execute(query)]
                                                    for kind, query in ORPHANS.items()}))
                reading = "its league log"
                # the log's word on the events of each match whose chain holds (one problem per broken chain), and
                # on the events it recorded that are gone, but of a match whose trouble is said already: a chain
                # broken, or a match the acts created gone
                said = {row_code for row_code, _, holds in matches if not holds}
                if secret is not None:
                    said |= set(ledger.matches) - {row_code for row_code, _, _ in matches}
                problems.extend(logcheck.problems(self.log, connection, code, {row.code for row in whole}, said))
        except (ValueError, KeyError, TypeError) as err:  # SQLite keeps any text written into any column
            if isinstance(err, MatchstateError):
                raise
            problems.append(Problem(None, None, f"{reading} cannot be read back ({type(err).__name__}: {err}): a row "
                                                "was changed behind the store's back, and what comes after it is "
                                                "not checked"))
        return problems

    def check_receipts(self, receipts: Iterable[Any], public_key: Ed25519PublicKey | None = None) -> ReceiptReport:
        """Check receipts (each a receipt's JSON object, or its text) against the store: a signed one must be signed
        by ``public_key`` (default: this store's), a proof must lead to a checkpoint that key signed and that the
        log's tree still has at its size; and the stored event at its seq must have its hash."""
        public_key = public_key or self.public_key()
        report = ReceiptReport()
        with self.database.transaction() as connection:
            removals = [acts.from_row(row) for row in connection.execute(ACTS.where(ActRow.act == acts.REMOVE))]
            for number, value in enumerate(receipts, 1):
                if isinstance(value, str) and not value.strip():
                    continue
                try:
                    receipt = read_receipt(json.loads(value) if isinstance(value, str) else value)
                except ValueError as err:
                    report.problems.append(Problem(None, None, f"receipt {number} is not a receipt: {err}"))
                    continue
                unproven = (checks.signature_problem(receipt, public_key) if isinstance(receipt, Receipt)
                            else self._proof_problem(connection, receipt, public_key))
                stored = None
                if 1 <= receipt.seq <= MAX_SEQ:
                    stored = connection.execute(
                        select(EventRow.hash).join(MatchRow, MatchRow.id == EventRow.match_id)
                        .where(MatchRow.code == receipt.match, LIVE, EventRow.seq == receipt.seq)).scalar()
                head = connection.execute(select(MatchRow.last_seq)
                                          .where(MatchRow.code == receipt.match, LIVE)).scalar()
                removal = next((act for act in reversed(removals) if act.code == receipt.match), None)
                report.add(number, receipt, unproven, stored, head, removal)
        return report

    def _proof_problem(self, connection: Connection, receipt: ProofReceipt, public_key: Ed25519PublicKey) -> str | None:
        """What is wrong with a receipt's proof (None: it holds), after its name: its checkpoint must be signed by
        ``public_key`` under the log's origin, its proof lead to that checkpoint's root, and the log's tree today
        extend that checkpoint's (a smaller tree is a rollback, another root a fork)."""
        origin = self._origin(public_key)
        try:
            tree = receipt.verified([Verifier.ed25519(origin, public_key)], origin).checkpoint
        except NotProven as err:
            return f": its proof does not hold: {err}"
        size = self.log.head(connection)[0]
        if tree.size > size:
            return (f": its checkpoint has {tree.size} leaves, the league log now {size}: the store was rolled back "
                    "to an older copy")
        if self.log.root(connection, tree.size) != tree.root:
            return (f": the league log's tree of {tree.size} leaves is not the one its checkpoint signed: the log "
                    "was rewritten (a fork)")
        return None


def _unknown(code: str) -> UnknownMatch:
    return UnknownMatch.said("unknown-match", code=repr(code))


