"""The operations behind the API, over the store: access checks, appends with live fan-out, reads."""

from __future__ import annotations

import asyncio
import base64
import json
import math
import time
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import orjson
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat
from starlette.concurrency import run_in_threadpool

from ..errors import AccessDenied, IllegalEvent, InvalidEvent, MissingKey, RefusedEvent, UnknownMatch
from ..events import Context, timestamp
from ..records import timeline
from ..records.sheet import ScoreSheet, score_sheet
from ..rulebook import clause
from ..store import Also, KeyCheck, Snapshot, Store, StoredEvent
from ..store.database import deadline
from ..tournaments.desk import Desk
from . import access
from .faults import said_if_unavailable
from .live import Hub, Message, sse
from .views import event_json, match_view

CLOCK_TOLERANCE_SECONDS = 120.0  # how far ahead of the server's clock an event's `at` may be
MAX_SEQ = 2**31 - 1  # the largest seq a match can have: PostgreSQL's integer
MAX_INTEGER = 2**53  # beyond it, a JSON number is not the same number in every reader (RFC 7493)
KEPT_MATCHES = 16  # matches whose replayed log and verify result are kept


@dataclass(frozen=True, slots=True)
class Created:
    """A new match (created or imported) and its two keys, which exist in clear only in this answer."""

    code: str
    scorer_key: str
    official_key: str
    match: dict[str, Any]
    events: int
    receipt: dict[str, Any] | None  # of its match.start, when created live


@dataclass(frozen=True, slots=True)
class Recorded:
    """An append's answer: the stored event with its ruling, the match after it, whether it was a retry,
    and its receipt (the league log's proof of it)."""

    event: dict[str, Any]
    match: dict[str, Any]
    duplicate: bool
    receipt: dict[str, Any]


class Service:
    """One store, served. ``private`` closes reading to holders of a match's keys; an event more
    than ``clock_tolerance`` seconds ahead of the server's clock is refused.

    Which role a key holds is asked of the store on every request (for an append, in the append's own
    transaction), so that a key revoked through one server is refused at once by every server of the
    database. The store hands out frozen snapshots of its matches, so the service needs no locks of its own.
    """

    def __init__(self, store: Store, *, private: bool = False,
                 clock_tolerance: float = CLOCK_TOLERANCE_SECONDS) -> None:
        self.store = store
        self.private = private
        self.clock_tolerance = clock_tolerance
        self.hub = Hub()
        self._replays: OrderedDict[str, _Replayed] = OrderedDict()
        self._verified: OrderedDict[str, tuple[float, dict[str, Any]]] = OrderedDict()
        # Replaying and verifying a match cost time in proportion to its length: one at a time, on
        # the event loop's side, so that readers asking for them queue there, holding no thread.
        self._replaying = asyncio.Lock()
        self._verifying = asyncio.Lock()

    # -- access --------------------------------------------------------------------

    def role(self, code: str, key: str | None) -> str:
        """The role ``key`` holds on match ``code``: ``league``, ``official`` or ``scorer``.

        :class:`MissingKey` without a key; :class:`AccessDenied` for a key that opens nothing here,
        or, on a public server, :class:`UnknownMatch` where there is no such match. A private server
        answers an unknown match as a known one, so that its codes cannot be found by trying.
        """
        if not key:
            raise MissingKey.said("match-key-missing")
        _check_lookup(code)
        role = self.store.role_of_key(code, access.hash_key(key))
        if role is None:
            if not self.private:
                self.require(code)
            raise AccessDenied.said("match-key-wrong")
        if role == access.LEAGUE:
            self.store.match(code)  # the league's key opens every match, so it may be told which there are
        return role

    def check_league(self, key: str | None) -> None:
        """Refuse unless ``key`` is the league's: it alone creates, imports and removes matches, and
        issues and revokes their keys."""
        if not key:
            raise MissingKey.said("league-key-missing")
        if self.store.role_of_key(None, access.hash_key(key)) != access.LEAGUE:
            raise AccessDenied.said("league-key-wrong")

    def require(self, code: str) -> None:
        """Raise :class:`UnknownMatch` unless the match exists. On a private server this says nothing
        (a page opens for any code, and its data needs a key): a code is told apart only by a key."""
        if not self.private:
            _check_lookup(code)
            self.store.match(code)

    def check_read(self, code: str, key: str | None) -> None:
        """As :meth:`require`; and on a private server, reading a match needs one of its keys (or the league's)."""
        if self.private:
            self.role(code, key)
        else:
            self.require(code)

    def check_list(self, key: str | None) -> None:
        """On a private server, the list of matches is the league's."""
        if self.private:
            self.check_league(key)

    # -- writing -------------------------------------------------------------------

    def create(self, start: dict[str, Any], key: str | None) -> Created:
        """Create a match from its ``match.start`` event, for the league; its keys are made here and kept
        only hashed. A tournament's fixture's match is opened at the desk (:meth:`Desk.refuse_held`)."""
        self.check_league(key)
        self._check_event(start)
        if isinstance(start.get("match"), str):
            Desk(self.store).refuse_held(start["match"])
        keys = _new_keys()
        created = self.store.create_match(start, keys={role: access.hash_key(made) for role, made in keys.items()},
                                          role=access.OFFICIAL, by=access.LEAGUE)
        code = start["match"]
        return Created(code, keys[access.SCORER], keys[access.OFFICIAL], match_view(code, created.match), 1,
                       created.receipt.to_json())

    def import_log(self, text: str, key: str | None, also: Also | None = None) -> Created:
        """Store a whole log (JSON Lines) as a new match with keys of its own, for the league: all of it or none.
        ``also`` is the hold of the fixture whose result the desk enters it as (:meth:`Store.import_log` takes it);
        without it, a log under a code a fixture holds is entered as the desk enters one (:meth:`Desk.import_log`)."""
        self.check_league(key)
        if also is None:
            return Desk(self.store).import_log(text.splitlines(), lambda _, hold: self._imported(text, hold))
        return self._imported(text, also)

    def _imported(self, text: str, also: Also | None) -> Created:
        lines = text.splitlines()
        latest: tuple[int, dict[str, Any]] | None = None  # the last event: events' times only grow
        for number, event in _decoded(lines):
            try:
                plain_json(event)
            except RefusedEvent as err:
                raise err.at_line(number) from None
            latest = number, event
        if latest is not None:
            try:
                self._check_event(latest[1])
            except RefusedEvent as err:
                raise err.at_line(latest[0]) from None
        keys = _new_keys()
        code, count = self.store.import_log(lines, keys={role: access.hash_key(made) for role, made in keys.items()},
                                            by=access.LEAGUE, also=also)
        return Created(code, keys[access.SCORER], keys[access.OFFICIAL], self.view(code), count, None)

    def issue_key(self, code: str, role: str, key: str | None) -> str:
        """A new ``role`` key for the match, for the league: shown only in this answer; the one before is revoked."""
        self.check_league(key)
        _check_lookup(code)
        made = access.new_key()
        self.store.issue_key(code, role, access.hash_key(made), by=access.LEAGUE)
        return made

    def revoke_key(self, code: str, role: str, key: str | None) -> None:
        """Revoke the match's ``role`` key, for the league: refused at once by every server of the database."""
        self.check_league(key)
        _check_lookup(code)
        self.store.revoke_key(code, role, by=access.LEAGUE)

    def remove(self, code: str, reason: str, key: str | None) -> None:
        """Remove a match and its events, for the league, with a reason: an act the store records."""
        self.check_league(key)
        _check_lookup(code)
        plain_json(reason)
        self.store.remove_match(code, reason=reason, by=access.LEAGUE)

    def correct(self, code: str, start: dict[str, Any], reason: str, key: str | None) -> dict[str, Any]:
        """Correct the match.start of a match not yet started, for the league, with a reason: the store
        removes the match (a recorded act) and creates it again, keeping its keys; a tournament's fixture's match
        as the desk would have opened it (:meth:`Desk.correct_start`). The match as it now is."""
        self.check_league(key)
        _check_lookup(code)
        self._check_event(start)
        plain_json(reason)
        corrected = Desk(self.store).correct_start(code, start, lambda also: self.store.correct_match(
            code, start, reason=reason, role=access.OFFICIAL, by=access.LEAGUE, also=also))
        self.hub.close(code)  # its streams told the match before; they open again on the corrected one
        return match_view(code, corrected.match)

    def append(self, code: str, event: dict[str, Any], expected_seq: int | None, key: str | None) -> Recorded:
        """Append one event for the holder of ``key``; raises the store's errors or :class:`AccessDenied`.

        The key is checked in the append's own transaction (:class:`KeyCheck`), not in one before it, and the
        store applies there the rules of who may log what (:mod:`~matchstate.authority`): one transaction and
        one key check for every event, a void too.
        """
        if not key:
            raise MissingKey.said("match-key-missing")
        _check_lookup(code)
        try:
            self._check_event(event)
        except RefusedEvent:
            self._event_role(code, key)  # a key that opens nothing is told so first
            raise
        admitted = KeyCheck(access.hash_key(key), lambda role, known: self._admit(code, role, known))
        appended = self.store.append(code, event, expected_seq, key=admitted)
        return Recorded(event_json(appended.event), match_view(code, appended.match), appended.duplicate,
                        appended.receipt.to_json())

    def _event_role(self, code: str, key: str) -> str:
        """The role ``key`` holds on the match, read now, refused where it cannot append: as :meth:`role` does."""
        role = self.role(code, key)
        if role == access.LEAGUE:
            raise AccessDenied.said("league-not-events")
        return role

    def _admit(self, code: str, role: str | None, known: bool) -> str:
        """The role the event is recorded as, for a key that holds ``role`` on match ``code`` (``known``: it
        exists) as the append's transaction reads it; refused as :meth:`role` refuses."""
        if role is None and (known or self.private):
            raise AccessDenied.said("match-key-wrong")
        if role is None or not known:
            raise UnknownMatch.said("unknown-match", code=repr(code))
        if role == access.LEAGUE:
            raise AccessDenied.said("league-not-events")
        return role

    def _check_event(self, event: dict[str, Any]) -> None:
        """Refuse what the store cannot keep as sent, and an event from a clock too far ahead."""
        plain_json(event)
        moment = _moment(event.get("at"))
        if moment is None:
            return  # the engine refuses it, naming the field
        ahead = (moment - datetime.now(UTC)).total_seconds()
        if ahead > self.clock_tolerance:
            raise IllegalEvent.said("ahead", kind=event.get("type"), at=event["at"], ahead=f"{ahead:.0f}",
                                    tolerance=f"{self.clock_tolerance:g}")

    # -- reading -------------------------------------------------------------------

    def receipts_key(self) -> dict[str, str]:
        """The public key that checks the store's receipts: raw, in base64, its fingerprint, and as PEM."""
        public = self.store.public_key().public_bytes(Encoding.Raw, PublicFormat.Raw)
        return {"public_key": base64.b64encode(public).decode("ascii"), "fingerprint": self.store.key_fingerprint(),
                "pem": self.store.public_key_pem()}

    def view(self, code: str) -> dict[str, Any]:
        return match_view(code, self.store.match(code))

    def events(self, code: str, after_seq: int = 0) -> list[dict[str, Any]]:
        return [event_json(stored) for stored in self.store.events(code, after_seq=after_seq)]

    def messages(self, code: str, after_seq: int) -> list[Message]:
        """The live messages for the events after ``after_seq``, each with the match as it is now. Done with the
        database within its timeout, as a request is: a live stream has no deadline of its own, and this read
        holds the match's lock, which every append of the match waits for."""
        with deadline(self.store.database.timeout):
            rows = self.events(code, after_seq)
            if not rows:
                return []
            view = self.view(code)
        return [message(row, view) for row in rows]

    async def catch_up(self, code: str, seq: int | None = None) -> None:
        """Publish to ``code``'s open streams the stored events they have not been sent, in order: after an
        append through another server process (``seq``, its seq; None where it is not known). A match
        that is gone ends its streams."""
        sent = self.hub.sent(code)
        if sent is None:
            if seq is None or not self.hub.listeners(code):
                return  # no stream has read the log yet: each reads what it needs itself
            sent = seq - 1
        elif seq is not None and seq <= sent:
            return
        found: list[Message] = []
        # The streams read the log themselves at their next keepalive.
        with said_if_unavailable(f"the live streams of {code} are not caught up"):
            try:
                found = await run_in_threadpool(self.messages, code, sent)
            except UnknownMatch:
                self.hub.close(code)
                return
        for each in found:
            self.hub.publish(code, each)

    async def catch_up_all(self) -> None:
        """:meth:`catch_up` every match with open streams, from its last seq in the store (one read)."""
        codes = self.hub.watched()
        if not codes:
            return
        last: dict[str, int] | None = None
        with said_if_unavailable("the live streams are not caught up"):  # the watch asks again
            last = await run_in_threadpool(self._last_seqs, codes)
        if last is None:
            return
        for code in codes:
            if code not in last:
                self.hub.close(code)  # removed through another server
            elif last[code] > (self.hub.sent(code) or last[code]):
                await self.catch_up(code)

    def _last_seqs(self, codes: list[str]) -> dict[str, int]:
        with deadline(self.store.database.timeout):  # as messages: the watch has no request's deadline
            return self.store.last_seqs(codes)

    def _log(self, code: str) -> tuple[list[StoredEvent], Snapshot]:
        """The stored log and the match it makes, read at one moment: the snapshot first, then its events
        (a log only grows, so the first ``seq`` events read after it are the ones it was made of)."""
        snapshot = self.store.match(code)
        return self.store.events(code)[:snapshot.seq], snapshot

    async def explain(self, code: str, seq: int) -> dict[str, Any] | None:
        """A ruling with the events that led to it and the clauses it cites, in both languages."""
        replayed = await self._replayed(code)
        if not 1 <= seq <= len(replayed.rows):
            return None
        event = event_json(replayed.rows[seq - 1])
        ruling = event["ruling"] or {}
        cites = dict.fromkeys([*ruling.get("cite", []),
                               *(rule_id for option in ruling.get("options", []) for rule_id in option["cite"])])
        return {"event": event, "led_to": [event_json(replayed.rows[s - 1]) for s in replayed.led_to(seq)],
                "clauses": [{"id": rule_id, "heading": clause(rule_id).heading, "text": clause(rule_id).text}
                            for rule_id in cites]}

    async def _replayed(self, code: str) -> _Replayed:
        """The match's log replayed, as it stands now: one replay per event appended, however many ask."""
        async with self._replaying:
            seq = await run_in_threadpool(lambda: self.store.match(code).seq)
            kept = self._replays.get(code)
            if kept is None or len(kept.rows) != seq:
                kept = await run_in_threadpool(self._replay, code)
                _keep(self._replays, code, kept)
        return kept

    def _replay(self, code: str) -> _Replayed:
        rows, _ = self._log(code)
        return _Replayed(rows, list(timeline.replay([json.loads(row.raw) for row in rows])))

    def sheet(self, code: str) -> tuple[ScoreSheet, dict[str, Any] | None]:
        """The score sheet, and the signed receipt of the last event it counts (for the sheet to print)."""
        rows, _ = self._log(code)
        receipt = self.store.receipt(code, rows[-1].seq) if rows else None
        return score_sheet([json.loads(row.raw) for row in rows]), receipt.to_json() if receipt else None

    async def verify(self, code: str) -> dict[str, Any]:
        """Whether the match's chain holds and its rulings are the engine's; ``bad_seq`` is the first
        seq found wrong (None if none is, or only the match's row is).

        Each answer comes from a check begun after it was asked for: readers asking while a check
        runs share the next one. (``matchstate verify`` is the same check, from the command line.)
        """
        asked = time.monotonic()
        async with self._verifying:
            done = self._verified.get(code)
            if done is None or done[0] < asked:
                done = time.monotonic(), await run_in_threadpool(self._verify_now, code)
                _keep(self._verified, code, done)
        return done[1]

    def _verify_now(self, code: str) -> dict[str, Any]:
        seq = self.store.match(code).seq
        problems = self.store.verify(code)
        return {"ok": not problems, "events": seq, "problems": [str(problem) for problem in problems],
                "bad_seq": next((problem.seq for problem in problems if problem.seq is not None), None)}


@dataclass(frozen=True, slots=True)
class _Replayed:
    """A match's stored log and each of its events as the records' replay saw it."""

    rows: list[StoredEvent]
    steps: list[timeline.Step]

    def led_to(self, seq: int) -> list[int]:
        """The seqs of the standing events that led to event ``seq``'s ruling: its free hit, from its award."""
        return timeline.led_to(self.steps, seq)


def _keep(kept: OrderedDict[str, Any], code: str, value: Any) -> None:
    """Keep ``value`` for ``code``, forgetting the least recently kept match beyond :data:`KEPT_MATCHES`."""
    kept[code] = value
    kept.move_to_end(code)
    if len(kept) > KEPT_MATCHES:
        kept.popitem(last=False)


def plain_json(value: Any) -> None:
    """Refuse, as :class:`InvalidEvent`, what the store cannot keep or another reader would read otherwise:
    a NUL character in a text or a name, a number that is not finite, an integer beyond ±2^53."""
    if isinstance(value, str):
        if "\x00" in value:
            raise InvalidEvent.said("nul-text", text=repr(value[:40]))
    elif isinstance(value, bool) or value is None:
        return
    elif isinstance(value, int):
        if abs(value) > MAX_INTEGER:
            raise InvalidEvent.said("beyond", number=str(value)[:24])
    elif isinstance(value, float):
        if not math.isfinite(value):
            raise InvalidEvent.said("not-finite", number=value)
    elif isinstance(value, dict):
        for name, item in value.items():
            plain_json(name)
            plain_json(item)
    elif isinstance(value, list):
        for item in value:
            plain_json(item)


def _moment(at: Any) -> datetime | None:
    """An event's ``at`` as a time in UTC, or None if it is not a time (the engine then refuses it)."""
    try:
        moment = timestamp(at, Context())
    except ValueError:
        return None
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        raise InvalidEvent.said("years", at=at) from None


def message(row: dict[str, Any], view: dict[str, Any]) -> Message:
    """The live message of a stored event and the match after it, made once for all the match's streams."""
    return row["seq"], sse(row["seq"], orjson.dumps({"event": row, "match": view}))


def _decoded(lines: list[str]) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each line that is a JSON object, with its number; the store refuses the others, naming them."""
    for number, line in enumerate(lines, 1):
        try:
            event = json.loads(line) if line.strip() else None
        except (ValueError, RecursionError):  # nested past what the parser can read: the store names it
            continue
        if isinstance(event, dict):
            yield number, event


def _new_keys() -> dict[str, str]:
    return {role: access.new_key() for role in (access.SCORER, access.OFFICIAL)}


def _check_lookup(code: str) -> None:
    """Raise :class:`UnknownMatch` for a code no match can have: with a NUL (PostgreSQL cannot compare it)."""
    if "\x00" in code:
        raise UnknownMatch.said("unknown-match", code=repr(code))
