"""Verify: the pure checks of the stored rows against the hash chains, a replay, the seals and the acts.

Nothing here reads the database: :meth:`Store.verify <matchstate.store.Store.verify>` and
:meth:`Store.check_receipts <matchstate.store.Store.check_receipts>` hand over the rows.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from sqlalchemy import Row

from ..engine import Match
from ..errors import RefusedEvent
from ..events import Event
from .acts import Act, Ledger, act_seal, from_row
from .chain import GENESIS, chain_hash, decode, instant, sealed
from .receipts import AnyReceipt, Receipt, fingerprint
from .seals import head_seal, holds, key_seal
from .sql import event_columns, match_columns

_ABSENT = object()  # a key one side of a ruling does not have


@dataclass(frozen=True, slots=True)
class Problem:
    """Something wrong in the store, found by :meth:`Store.verify`: at event ``seq`` of ``match``, or,
    where ``column`` is given, in that column of the match's own row (then ``seq`` is None), or in the
    store's act ``act``; ``match`` is None for what belongs to no match (the league key, say)."""

    match: str | None
    seq: int | None
    what: str
    column: str | None = None
    act: int | None = None

    def __str__(self) -> str:
        subject = f"match {self.match}" if self.match is not None else "the store"
        if self.column is not None:
            where = f", its row's {self.column}"
        elif self.act is not None:
            where = f", act {self.act}"
        else:
            where = f", seq {self.seq}" if self.seq is not None else ""
        return f"{subject}{where}: {self.what}"


@dataclass(frozen=True, slots=True)
class Checked:
    """A match's problems, and the code its match.start gives (None where none could be read)."""

    problems: list[Problem]
    code: str | None


def verify_match(row: Row[Any], events: Iterable[Row[Any]], engine_version: str) -> Checked:
    """The problems of one match: its first bad link, stored rulings that differ from what this engine
    (``engine_version``) gives, columns of its row that are wrong."""
    match = Match()
    problems = list(_match_problems(row, events, engine_version, match))
    return Checked(problems, match.info["match"] if match.info is not None else None)


def _match_problems(row: Row[Any], events: Iterable[Row[Any]], engine_version: str, match: Match) -> Iterator[Problem]:
    digest, first = GENESIS, None
    for seq, stored in enumerate(_readable(events), 1):
        if isinstance(stored, ValueError):
            yield Problem(row.code, seq, f"changed: a column of its row cannot be read back ({stored})")
            return
        event, fault = _linked(seq, digest, stored)
        if event is not None:
            try:
                ruling = match.feed(event)
            except RefusedEvent as err:
                fault = f"the engine refuses it now: {err.reason}"
            else:
                fault = _column_fault(stored, match.events[-1])
        if fault is not None:
            yield Problem(row.code, seq, fault)
            return
        given = ruling.to_json() if ruling is not None else None
        if (stored.ruling, stored.state) != (given, match.state):
            yield Problem(row.code, seq, _ruling_difference(stored, given, match.state, engine_version))
        elif stored.clock is not None and (stored.clock, stored.flags) != (match.clock_after(seq),
                                                                           _flags_as_of(stored, match.flags[-1])):
            yield Problem(row.code, seq, f"its clock and flags: stored {stored.clock} {stored.flags}, the engine "
                                         f"gives {match.clock_after(seq)} {list(match.flags[-1])} (given by engine "
                                         f"{stored.engine_version}; this is engine {engine_version})")
        first = first or stored
        digest = stored.hash
    if first is None:
        yield Problem(row.code, 1, "missing: the match has no events, not even its match.start")
        return
    yield from _row_problems(row, match, digest, first)


def _readable(rows: Iterable[Row[Any]]) -> Iterator[Row[Any] | ValueError]:
    """The rows, then why the next one cannot be read, if it cannot: SQLite keeps any text written into a
    column, and a time or JSON column holding something else fails as it is read back."""
    rows = iter(rows)
    while True:
        try:
            yield next(rows)
        except StopIteration:
            return
        except ValueError as err:
            yield err
            return


def _linked(seq: int, digest: str, stored: Row[Any]) -> tuple[dict[str, Any] | None, str | None]:
    """``stored``'s event, decoded, where it is the event at ``seq`` after an event with hash ``digest``;
    else None and what is wrong with it."""
    if stored.seq != seq:
        return None, f"missing: the next stored event is seq {stored.seq}"
    if stored.prev_hash != digest:
        return None, "its previous hash is not the hash of the event before it: a row was moved or replaced"
    if stored.engine_version is None:  # the outer join found no ruling row
        return None, "its ruling row is missing: it was removed"
    try:
        event = decode(stored.raw)
        material = sealed(event, stored.role, stored.received_at, stored.engine_version, stored.chain_version)
    except RefusedEvent as err:
        return None, f"its JSON is not an event: {err.reason}"
    except ValueError as err:  # a chain version that was never made
        return None, f"its chain version: {err}"
    if chain_hash(digest, material) != stored.hash:
        return None, ("its JSON, role, received_at and ruling's engine_version do not give its hash: "
                      "the row was changed")
    return event, None


def _column_fault(stored: Row[Any], event: Event) -> str | None:
    """Which of ``stored``'s copies of its event's fields (type, at, device id, by) is not the event's."""
    for column, value in event_columns(event).items():
        if stored._mapping[column] != value:
            return f"its {column} column is {_shown(stored._mapping[column])}, but its JSON gives {_shown(value)}"
    return None


def _ruling_difference(stored: Row[Any], given: dict[str, Any] | None, state: str, engine_version: str) -> str:
    """How the stored ruling and state after an event differ from the engine's: each key, both values."""
    parts = []
    if stored.ruling is None or given is None:
        if stored.ruling != given:
            parts.append(f"stored {_summary(stored.ruling)}, the engine gives {_summary(given)}")
    else:
        parts += [f"{key}: stored {ours}, engine {theirs}"
                  for key, ours, theirs in _differences(stored.ruling, given)]
    if stored.state != state:
        parts.append(f"state after it: stored {stored.state}, engine {state}")
    what = "the stored ruling differs from the engine's: " + "; ".join(parts)
    if stored.engine_version != engine_version:
        what += f" (ruled by engine {stored.engine_version}; this is engine {engine_version})"
    return what


def _differences(stored: Any, given: Any, path: str = "") -> Iterator[tuple[str, str, str]]:
    """Each leaf where two JSON values differ: its path (``text.en``, ``options[1].to``) and both values shown."""
    if isinstance(stored, dict) and isinstance(given, dict):
        for key in [*given, *(key for key in stored if key not in given)]:  # the engine's order: kind first
            yield from _differences(stored.get(key, _ABSENT), given.get(key, _ABSENT), f"{path}.{key}" if path else key)
    elif isinstance(stored, list) and isinstance(given, list) and len(stored) == len(given):
        for index, (ours, theirs) in enumerate(zip(stored, given, strict=True)):
            yield from _differences(ours, theirs, f"{path}[{index}]")
    elif stored is _ABSENT or given is _ABSENT or stored != given:
        if isinstance(stored, str) and isinstance(given, str):
            yield path, *_apart(stored, given)
        else:
            yield path, _shown(stored), _shown(given)


def _apart(ours: str, theirs: str, width: int = 48) -> tuple[str, str]:
    """Two differing texts shown from a little before where they part, so that long ones do not look alike."""
    shorter = min(len(ours), len(theirs))
    parting = next((i for i, (a, b) in enumerate(zip(ours[:shorter], theirs[:shorter], strict=True)) if a != b),
                   shorter)
    begin = max(0, parting - 12) if max(len(ours), len(theirs)) > width else 0

    def cut(text: str) -> str:
        piece = json.dumps(text[begin:begin + width], ensure_ascii=False)
        return ("…" if begin else "") + piece + ("…" if begin + width < len(text) else "")

    return cut(ours), cut(theirs)


def _summary(ruling: dict[str, Any] | None) -> str:
    return "no ruling" if ruling is None else f"the ruling {_shown(ruling, 80)}"


def _shown(value: Any, limit: int = 60) -> str:
    """A value as JSON (a time in ISO 8601, UTC), cut at ``limit`` characters."""
    if value is _ABSENT:
        return "nothing (no such key)"
    text = instant(value) if isinstance(value, datetime) else json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit - 1] + "…"


def _row_problems(row: Row[Any], match: Match, digest: str, first: Row[Any]) -> Iterator[Problem]:
    """The columns of a match's row that are not what its whole chain (``digest`` its last hash) and replay give."""
    code = row.code
    if (match.seq, digest) != (row.last_seq, row.last_hash):
        if digest == row.last_hash:
            yield Problem(code, None, f"it is {row.last_seq}, but the chain ends at seq {match.seq} with the "
                                      f"row's last_hash", "last_seq")
        elif match.seq == row.last_seq:
            yield Problem(code, None, f"it is not the hash of seq {match.seq}, where the chain ends: the column "
                                      f"was changed, or seq {match.seq} was replaced", "last_hash")
        else:  # what the row says of the match's end (last_at, state, score) is not the chain's end either
            yield Problem(code, min(match.seq, row.last_seq) + 1,
                          f"the chain ends at seq {match.seq}, but the match's head is seq {row.last_seq} with "
                          f"another hash: events were removed or added")
            return
    given = match_columns(match, first.received_at)
    as_stored = _as_written_by(first.engine_version, decode(first.raw), given)
    for column, value in given.items():
        found = _plain(row._mapping[column])
        if found != _plain(value) and found != _plain(as_stored.get(column, value)):
            yield Problem(code, None, _column_difference(found, _plain(value)), column)


def _column_difference(found: Any, given: Any) -> str:
    """How a column differs from what the chain gives: both values (cut where long), or where both are long, each
    place where they part (``handicap_goals``, ``teams[1]``), so that two long values never print alike."""
    ours, theirs = _shown(found), _shown(given)
    if not (ours.endswith("…") and theirs.endswith("…")):
        return f"it is {ours}, but the chain and its replay give {theirs}"
    return "; ".join(f"at {path}: it is {ours}, but the chain and its replay give {theirs}"
                     for path, ours, theirs in _differences(found, given))


# The engine version from which the match row's derived columns are what the engine now derives.
ROWS_AS_NOW = (1, 1, 0)


def _as_written_by(engine_version: str, start: dict[str, Any], given: dict[str, Any]) -> dict[str, Any]:
    """The match row's columns as the engine that ruled its match.start (``engine_version``) wrote them, where
    that engine derived them otherwise than this one: a row an older release wrote and no append has written
    since is no tampering. Before engine 1.1.0 (release 0.1.0), ``conditions`` kept ``handicap_goals`` as
    given, every team named ({} where none were given); 1.1.0 derives them from the rosters' handicaps."""
    if _version(engine_version) >= ROWS_AS_NOW:
        return given
    handicap = start.get("handicap_goals")
    teams = given["teams"]
    written = {} if not isinstance(handicap, dict) else {team: handicap.get(team, 0) for team in teams}
    return {**given, "conditions": {**given["conditions"], "handicap_goals": written}}


# The flags log format 1.2 added (engine 1.2.0): an engine before it gave none, so their absence from a row it
# stored is no tampering, and an honest upgrade does not make verify cry wolf.
FLAGS_OF_1_2 = frozenset({"score-query", "after-window"})
FLAGS_1_2_FROM = (1, 2, 0)


def _flags_as_of(stored: Row[Any], flags: Iterable[str]) -> list[str]:
    """The flags this engine gives an event, as the engine that stored its row would have given them."""
    if _version(stored.engine_version) < FLAGS_1_2_FROM:
        return [flag for flag in flags if flag not in FLAGS_OF_1_2]
    return list(flags)


def _version(text: str) -> tuple[int, ...]:
    try:
        return tuple(int(part) for part in text.split("."))
    except ValueError:
        return ()


def _plain(value: Any) -> Any:
    """A value as it reads back from a JSON column (a time as it is)."""
    return value if isinstance(value, datetime) else json.loads(json.dumps(value))




# -- the seals and the acts: checked with the store's secret -----------------------------------------


def verify_seal(row: Row[Any], secret: bytes, ledger: Ledger) -> Iterator[Problem]:
    """Whether a match's row is sealed as the store left it: its code and head, after the acts it names."""
    code = row.code
    if row.seal is None or row.acts_seq is None:
        yield Problem(code, None, "it has none: the row was not written by the store", "seal")
    elif not holds(row.seal, head_seal(secret, code, row.last_seq, row.last_hash, row.acts_seq)):
        yield Problem(code, None, f"it does not seal the row's head (seq {row.last_seq}): the code, the head or "
                                  "acts_seq was changed: events cut off or added, with the head set to match", "seal")
    elif row.acts_seq > ledger.seq:
        yield Problem(code, None, f"it was sealed after act {row.acts_seq}, but the store's acts end at act "
                                  f"{ledger.seq}: acts were removed from their end", "seal")


# Act 1's seal is made from the secret and the act alone, act 2's over act 1's as stored: where neither holds, the
# secret is not this store's (or both acts were changed), and no seal will hold.
WRONG_SECRET = ("the secret does not seal the store's first acts: it is another store's secret (put this store's "
                "own beside its database, as its backup holds it), or they were changed; no seal was checked")


def walk_acts(rows: Iterable[Row[Any]], secret: bytes | None) -> tuple[Ledger, list[Problem]]:
    """What the acts add up to, and (with the secret) the first act out of its chain: missing or not sealed. Where
    neither act 1's seal nor act 2's (over act 1's seal as stored) holds, or act 1 is the only one and its seal
    does not, the one problem is :data:`WRONG_SECRET`: an act changed breaks its own seal, not the next one's."""
    ledger, prev = Ledger(), GENESIS
    problems: list[Problem] = []
    first: Act | None = None
    for expected, row in enumerate(rows, 1):
        act = from_row(row)
        first = first or act
        # sealed once a problem is found only to tell a wrong secret from an edited act 1, at act 2
        checking = not problems or (row.seq == 2 and problems[0].what == WRONG_SECRET)
        unsealed = secret is not None and checking and not holds(row.seal, act_seal(secret, prev, row.seq, act))
        if problems and problems[0].what == WRONG_SECRET and row.seq == 2 and not unsealed:
            problems[0] = _unsealed(first, 1)  # the secret seals act 2: act 1 was changed
        elif not problems and row.seq != expected:
            problems.append(Problem(act.code, None, f"missing: the next act is act {row.seq}", act=expected))
        elif not problems and unsealed:
            problems.append(Problem(act.code, None, WRONG_SECRET, act=1) if row.seq == 1 else _unsealed(act, row.seq))
        ledger.apply(row.seq, act)
        prev = row.seal
    return ledger, problems


def _unsealed(act: Act, seq: int) -> Problem:
    return Problem(act.code, None, f"{act}: its seal does not hold: the act was changed, added, or one before it "
                                   "removed", act=seq)


def verify_keys(rows: Iterable[Any], secret: bytes, ledger: Ledger, codes: set[str],
                league: bool) -> Iterator[Problem]:
    """Each key's row against its seal, and the live keys of the matches ``codes`` (and, with ``league``, the
    league key) against the acts that issued and revoked them."""
    live: dict[tuple[str | None, str], str] = {}
    for row in rows:
        if row.match_id is not None and row.code not in codes:
            continue  # an orphan, or a match whose row is wrong already
        name = f"its {row.role} key (row {row.id})"
        if not holds(row.seal, key_seal(secret, row.code, row.role, row.key_hash, row.issued_at, row.revoked_at)):
            yield Problem(row.code, None, f"{name} is not sealed as the store issued it: its hash, its match, or "
                                          "when it was issued or revoked was changed")
        elif row.revoked_at is None:
            live[row.code, row.role] = row.key_hash
    issued: dict[tuple[str | None, str], str] = {place: key for place, key in ledger.keys.items() if place[0] in codes}
    if league and ledger.league is not None:
        issued[None, "league"] = ledger.league
    for place in sorted({*issued, *live}, key=lambda place: (place[0] or "", place[1])):
        code, role = place
        found, expected = live.get(place), issued.get(place)
        if found == expected:
            continue
        if found is None:
            what = (f"its {role} key that the acts issued is not live: its row was revoked or deleted behind the "
                    "store's back")
        elif expected is None:
            what = f"it has a live {role} key that no act issued: it was added behind the store's back"
        else:
            what = f"its live {role} key is not the one the acts issued last: the key was replaced"
        yield Problem(code, None, what)


def verify_ledger(ledger: Ledger, matches: Iterable[tuple[str, str | None, bool]]) -> Iterator[Problem]:
    """The matches (each its row's code, its chain's code, and whether it checked out) against the acts: one the
    acts created is gone without a removal (or was stored again after it went), or one is there that no act
    created."""
    matches = list(matches)
    for code, first, again in ledger.created_again:
        yield Problem(code, None, f"act {again} created it again, though act {first} had created it and no act removed "
                                  "it: its rows were deleted behind the store's back, then it was stored again")
    known = {code for row_code, chain_code, _ in matches for code in (row_code, chain_code)}
    for code, seq in ledger.matches.items():
        if code not in known:
            yield Problem(code, None, f"it is gone: act {seq} created it and no act removed it, so its rows were "
                                      "deleted behind the store's back")
    for row_code, _, whole in matches:
        if whole and row_code not in ledger.matches:
            yield Problem(row_code, None, "no act created it: it was added behind the store's back")


def orphans(found: dict[str, list[tuple[Any, ...]]]) -> Iterator[Problem]:
    """Rows that refer to a row that is not there: by kind (``event``, ``ruling``, ``key``), each row's match
    id and its seq (a key: its id)."""
    for kind, rows in found.items():
        by_match: dict[int, list[int]] = {}
        for match_id, number in rows:
            by_match.setdefault(match_id, []).append(number)
        for match_id, numbers in by_match.items():
            what = {"event": "match", "ruling": "event", "key": "match"}[kind]
            listed = ", ".join(map(str, numbers[:5])) + (", ..." if len(numbers) > 5 else "")
            label = "seq" if kind != "key" else "row"
            yield Problem(None, None, f"{len(numbers)} {kind} row(s) of match id {match_id} ({label} {listed}) "
                                      f"refer to a {what} that is not stored: it was deleted behind the store's back")


def signature_problem(receipt: Receipt, public_key: Ed25519PublicKey) -> str | None:
    """What is wrong with a signed receipt's signature by ``public_key`` (None: it holds), after its name."""
    ours = fingerprint(public_key)
    if receipt.key != ours:
        return f" is signed by key {receipt.key}, not by this store's key {ours}: check it with that key"
    if not receipt.holds(public_key):
        return ": its signature does not hold: the receipt was altered, or the store never signed it"
    return None


@dataclass
class ReceiptReport:
    """What :meth:`Store.check_receipts` found: how many receipts hold, those of matches removed since (which
    cannot be checked against a log any more, so do not hold either), and the problems."""

    held: int = 0
    removed: list[str] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)

    @property
    def all_hold(self) -> bool:
        """Whether every receipt read holds: none with a problem, none of a match removed since."""
        return not self.problems and not self.removed

    def add(self, number: int, receipt: AnyReceipt, unproven: str | None, stored_hash: str | None,
            head_seq: int | None, removal: Act | None) -> None:
        """Check receipt ``number``, whose signature or proof fails as ``unproven`` says (None: it holds), against
        the hash the store holds at its seq (None: no such event), the match's last seq (None: no such match) and
        the match's last recorded removal."""
        name = f"receipt {number}"
        code, seq = receipt.match, receipt.seq
        if unproven is not None:
            self.problems.append(Problem(code, seq, name + unproven))
        elif stored_hash == receipt.hash:
            self.held += 1
        elif removal is not None and stored_hash is not None:
            self.problems.append(Problem(code, seq, f"{name}, signed by the store, gives it the hash {receipt.hash}, "
                                                    f"but the match was removed ({removal}) and a match of the same "
                                                    f"code stored since, whose event there has hash {stored_hash}: "
                                                    "the match was rewritten by removing and importing it again"))
        elif removal is not None and removal.last_seq is not None and removal.last_seq >= seq and not (
                removal.last_seq == seq and removal.last_hash != receipt.hash):
            self.removed.append(f"{name}: seq {seq} of a match since removed ({removal}); it cannot be checked "
                                "against a log any more")
        elif stored_hash is not None:
            self.problems.append(Problem(code, seq, f"{name}, signed by the store, gives it the hash "
                                                    f"{receipt.hash}, but the stored event's is {stored_hash}: "
                                                    "the log was rewritten after the store signed it"))
        elif head_seq is not None:
            self.problems.append(Problem(code, seq, f"{name}, signed by the store, acknowledges seq {seq}, but the "
                                                    f"match ends at seq {head_seq}: events were removed"))
        elif removal is not None:
            self.problems.append(Problem(code, seq, f"{name}, signed by the store, acknowledges seq {seq} with hash "
                                                    f"{receipt.hash}, but the match's recorded removal kept head seq "
                                                    f"{removal.last_seq}, hash {removal.last_hash}"))
        else:
            self.problems.append(Problem(code, seq, f"{name}, signed by the store, acknowledges seq {seq}, but the "
                                                    "store has no such match and no removal of it: it was deleted"))
