"""Each match's scoring seat: the one console that logs the automatic clock check, held on the server.

The seat is operational state, not part of the match's log (the log stays the source of truth for rulings).
A console opening a match takes the seat where no one holds it, or its holder has not been heard from for
:data:`STALE_SECONDS`; another console watches until it takes the seat, after a confirmation that names
the holder. A clock check the seat's timer logged is kept as such, with the seconds since the window opened.
An event a console without the seat handed to the review waits there until the official logs it or sets it aside.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Literal

from sqlalchemy import Connection, delete, insert, select, update

from ..errors import AlreadyLogged, SeatNotHeld
from ..models import EventRow, HandedEventRow, MatchRow, SeatRow, TimerTickRow
from ..words import phrases
from .facade import Store

STALE_SECONDS = 30.0  # a holder silent this long leaves the seat to the next console that opens the match
SEATS_LOCK = 36_020  # PostgreSQL: one seat's read and write at a time (see Database.lock)
Ask = Literal["open", "heard", "take"]


@dataclass(frozen=True)
class Seat:
    """Who holds a match's seat, and when it was taken and last heard from."""

    device: str
    label: str
    taken_at: datetime
    heard_at: datetime

    def silent(self, now: datetime) -> float:
        """Seconds since the holder was last heard from."""
        return max(0.0, (now - self.heard_at).total_seconds())

    def to_json(self, now: datetime) -> dict[str, Any]:
        return {"device": self.device, "label": self.label, "taken_at": _iso(self.taken_at),
                "heard_at": _iso(self.heard_at), "heard_seconds_ago": round(self.silent(now), 1)}


class Seats:
    """The seats of the matches in ``store``, at the store's clock."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def holder(self, code: str) -> Seat | None:
        with self.store.database.transaction() as connection:
            row = connection.execute(select(SeatRow.device, SeatRow.label, SeatRow.taken_at, SeatRow.heard_at)
                                     .where(SeatRow.code == code)).first()
        return Seat(*row) if row else None

    def sit(self, code: str, device: str, label: str, ask: Ask) -> Seat | None:
        """What a console asks of the seat: ``open`` takes it where it is free (or its holder silent),
        ``heard`` says the holder is still there, ``take`` takes it whoever holds it. The seat after."""
        now = self.store.clock()
        with self.store.database.transaction(write=True) as connection:
            # Two asks at once (a console's "open" and its "heard") would both find no holder and both insert.
            self.store.database.lock(connection, SEATS_LOCK)
            row = connection.execute(select(SeatRow.device, SeatRow.label, SeatRow.taken_at, SeatRow.heard_at)
                                     .where(SeatRow.code == code)).first()
            seat = Seat(*row) if row else None
            if seat is not None and seat.device == device:
                connection.execute(update(SeatRow).where(SeatRow.code == code).values(label=label, heard_at=now))
                return Seat(device, label, seat.taken_at, now)
            free = seat is None or seat.silent(now) >= STALE_SECONDS
            if ask == "take" or (ask == "open" and free):
                connection.execute(delete(SeatRow).where(SeatRow.code == code))
                connection.execute(insert(SeatRow).values(code=code, device=device, label=label, taken_at=now,
                                                          heard_at=now))
                return Seat(device, label, now, now)
            return seat

    def check_timer(self, code: str, device: str) -> None:
        """Refuse (:class:`SeatNotHeld`) an automatic clock check from a device that does not hold the seat."""
        seat = self.holder(code)
        if seat is not None and seat.device == device:
            return
        if seat is None:
            words = phrases("seat", "refused-no-seat")
        else:
            words = phrases("seat", "refused-not-held", label=seat.label,
                            seconds=f"{seat.silent(self.store.clock()):.0f}")
        raise SeatNotHeld.worded_as(words)

    def record_timer(self, code: str, event_id: str, device: str, elapsed: float) -> bool:
        """Keep that the event ``event_id`` is logged by the seat's timer, ``elapsed`` s after the window opened;
        whether it is new (a retry of a recorded tick is kept once)."""
        with self.store.database.transaction(write=True) as connection:
            done = connection.execute(select(TimerTickRow.event_id).where(TimerTickRow.code == code,
                                                                          TimerTickRow.event_id == event_id)).first()
            if done is None:
                connection.execute(insert(TimerTickRow).values(code=code, event_id=event_id, device=device,
                                                               elapsed=elapsed))
            return done is None

    def forget_timer(self, code: str, event_id: str) -> None:
        """Take back the mark of a clock check the log refused."""
        with self.store.database.transaction(write=True) as connection:
            connection.execute(delete(TimerTickRow).where(TimerTickRow.code == code, TimerTickRow.event_id == event_id))

    def timer_ticks(self, code: str) -> dict[str, dict[str, Any]]:
        """The clock checks the seat's timer logged, by event id: the device and the seconds elapsed."""
        with self.store.database.transaction() as connection:
            rows = connection.execute(select(TimerTickRow.event_id, TimerTickRow.device, TimerTickRow.elapsed)
                                      .where(TimerTickRow.code == code))
            return {event_id: {"device": device, "elapsed": elapsed} for event_id, device, elapsed in rows}

    def hand(self, code: str, device: str, label: str, events: list[dict[str, Any]]) -> None:
        """Keep ``events``, held offline by ``device`` and logged in that order, for the review, as they were logged
        (each once, by id)."""
        now = self.store.clock()
        with self.store.database.transaction(write=True) as connection:
            kept = set(connection.execute(select(HandedEventRow.event_id).where(HandedEventRow.code == code))
                       .scalars())
            fresh = {event["id"]: event for event in events if event["id"] not in kept}
            if fresh:
                connection.execute(insert(HandedEventRow), [
                    {"code": code, "event_id": event_id, "device": device, "label": label, "event": event,
                     "handed_at": now, "place": place} for place, (event_id, event) in enumerate(fresh.items(),
                                                                                              len(kept))])

    def set_aside(self, code: str, event_id: str, device: str, label: str) -> bool:
        """Set the event ``event_id`` handed to the review aside, by ``device`` (that shows as ``label``): never
        logged, no longer listed. Whether it was handed; one set aside already keeps who did it first, and when.
        Refused (:class:`AlreadyLogged`) where the log holds it already: it was kept as set aside, "never logged"."""
        now = self.store.clock()
        here = (HandedEventRow.code == code, HandedEventRow.event_id == event_id)
        with self.store.database.transaction(write=True) as connection:
            if connection.execute(select(HandedEventRow.event_id).where(*here)).first() is None:
                return False
            if seq := _logged(connection, code, [event_id]).get(event_id):
                raise AlreadyLogged.worded_as(phrases("seat", "refused-aside-logged", id=event_id, seq=seq))
            connection.execute(update(HandedEventRow).where(*here, HandedEventRow.set_aside_at.is_(None))
                               .values(set_aside_at=now, set_aside_device=device, set_aside_label=label))
            return True

    def handed(self, code: str) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
        """The events handed to the review that the log does not hold, in time order (of their ``at``, not its
        text: offsets differ), each as logged with the device that held it: those waiting, and those an official set
        aside (each with ``set_aside``: who did it, and when)."""
        row = HandedEventRow
        with self.store.database.transaction() as connection:
            # in the order handed (one handed before 0019 has no place: in its id's), then sorted by time, stably
            rows = connection.execute(select(row.event, row.label, row.handed_at, row.set_aside_at,
                                             row.set_aside_device, row.set_aside_label).where(row.code == code)
                                      .order_by(row.place.is_(None), row.place, row.event_id)).all()
            logged = _logged(connection, code, [event["id"] for event, *_ in rows])
        found = [{"event": event, "label": label, "handed_at": _iso(handed_at),
                  **({"set_aside": {"at": _iso(at), "device": device, "label": by}} if at else {})}
                 for event, label, handed_at, at, device, by in rows if event["id"] not in logged]
        found.sort(key=lambda item: _in_time(item["event"]["at"]))
        return [item for item in found if "set_aside" not in item], [item for item in found if "set_aside" in item]

    def answer(self, code: str, seat: Seat | None, device: str | None = None) -> dict[str, Any]:
        """The API's answer: the holder (or null), whether ``device`` holds it, the timer's clock checks, the
        events handed to the review and those set aside."""
        now = self.store.clock()
        handed, aside = self.handed(code)
        return {"holder": seat.to_json(now) if seat else None, "yours": seat is not None and seat.device == device,
                "stale_after": STALE_SECONDS, "timer_ticks": self.timer_ticks(code), "handed": handed,
                "set_aside": aside}


def _logged(connection: Connection, code: str, event_ids: list[str]) -> dict[str, int]:
    """Which of ``event_ids`` match ``code``'s log holds (an event's ``id``), and at which seq."""
    found = connection.execute(select(EventRow.device_id, EventRow.seq).join(MatchRow, MatchRow.id == EventRow.match_id)
                               .where(MatchRow.code == code, EventRow.device_id.in_(event_ids)))
    return {event_id: seq for event_id, seq in found if event_id is not None}


def _in_time(at: str) -> tuple[int, datetime]:
    """A handed event's place in time order: by the moment its ``at`` names; an ``at`` that names none, after."""
    try:
        moment = datetime.fromisoformat(at)
    except ValueError:
        return 1, datetime.min.replace(tzinfo=UTC)
    return 0, moment if moment.tzinfo else moment.replace(tzinfo=UTC)


def _iso(at: datetime) -> str:
    return at.isoformat(timespec="milliseconds").replace("+00:00", "Z")
