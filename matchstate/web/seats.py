"""The scoring seat on the web: ``GET``/``PUT /api/matches/{code}/seat``, and an event handed to the review set
aside by the official (the append's hook for the seat's timer is :mod:`matchstate.web.timer`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import BaseModel, ConfigDict, Field

from ..authority import needed
from ..errors import AccessDenied, NotFound
from ..store import OFFICIAL, SCORER
from ..store.seats import Ask, Seats
from ..words import phrases
from .answers import Answer, answers, refusals
from .api import READ_ERRORS, KeyDep, ServiceDep
from .service import plain_json

api = APIRouter(prefix="/api", tags=["matches"])
Device = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[\w.:-]+$",
                              description="The console's device id, made once and kept on the device.")]


MAX_HANDED = 200


class HeldEvent(BaseModel, extra="allow"):
    """An event as the console logged it: the review logs it as it is, if the official decides to."""

    type: str = Field(max_length=40)
    at: str = Field(max_length=40)
    id: Device


class Holder(BaseModel):
    device: str
    label: str
    taken_at: str
    heard_at: str
    heard_seconds_ago: float


class TimerTick(BaseModel):
    device: str = Field(description="The device that held the seat when its timer logged the clock check")
    elapsed: float = Field(description="Seconds since the window opened")


class Handed(BaseModel):
    event: HeldEvent
    label: str = Field(description="The device that held it offline")
    handed_at: str


class SetAsideBy(BaseModel):
    at: str
    device: str = Field(description="The device the official set it aside on")
    label: str = Field(description="What that device is, as it shows")


class SetAside(Handed):
    set_aside: SetAsideBy


class SeatAnswer(Answer):
    """Who holds the seat (null: no one), whether the asking device does, and what the review should know."""

    holder: Holder | None
    yours: bool
    stale_after: float = Field(description="Seconds of silence after which the seat is free to a console opening")
    timer_ticks: dict[str, TimerTick] = Field(description="The clock checks the seat's timer logged, by event id")
    handed: list[Handed] = Field(description="Events handed to the review and waiting for the official (none the log "
                                             "holds), in time order")
    set_aside: list[SetAside] = Field(description="Events handed to the review that the official set aside, never "
                                                  "logged (one logged after all is in neither list), in time order")


class DeviceRequest(BaseModel):
    """A device that asks, as the seat keeps it."""

    model_config = ConfigDict(extra="forbid")

    device: Device
    label: str = Field(min_length=1, max_length=80, description='What the device is, as it shows: "Tablet · Chrome".')


class SeatRequest(DeviceRequest):
    ask: Ask = Field("heard", description="`open`: take the seat where it is free (or its holder silent); "
                                          "`heard`: the holder is still there; `take`: take it from its holder.")
    handed: list[HeldEvent] = Field([], max_length=MAX_HANDED,
                                    description="Events this console held offline without the seat, handed to "
                                                "the review as they were logged (each kept once, by `id`).")


@api.get("/matches/{code}/seat", response_model=None,
         responses={**answers(200, SeatAnswer, "The seat now"), **READ_ERRORS})
def read_seat(service: ServiceDep, key: KeyDep, code: str, device: str | None = None) -> dict[str, Any]:
    """Who holds the match's scoring seat (the one console that logs the automatic clock check) and when it was
    last heard from, and the clock checks the seat's timer logged (by event id, with the seconds elapsed)."""
    service.check_read(code, key)
    seats = Seats(service.store)
    return seats.answer(code, seats.holder(code), device)


@api.put("/matches/{code}/seat", response_model=None,
         responses={**answers(200, SeatAnswer, "The seat after the ask"), **READ_ERRORS})
def sit(service: ServiceDep, key: KeyDep, code: str, body: SeatRequest) -> dict[str, Any]:
    """Open, keep or take the match's scoring seat, with the scorer or official key."""
    role = service.role(code, key)
    if role not in (SCORER, OFFICIAL):
        raise AccessDenied.said("match-key-wrong")
    seats = Seats(service.store)
    if body.handed:
        handed = [event.model_dump() for event in body.handed]
        plain_json(handed)  # kept for the review as JSON: what an append would refuse, the seat does too
        if role == SCORER and any(needed(event, SCORER) == OFFICIAL for event in handed):
            raise AccessDenied.said("official-only")  # a scorer hands only what a scorer could log
        seats.hand(code, body.device, body.label, handed)
    return seats.answer(code, seats.sit(code, body.device, body.label, body.ask), body.device)


@api.post("/matches/{code}/seat/handed/{event_id}/set-aside", response_model=None,
          responses={**answers(200, SeatAnswer, "The seat after it, the event no longer in `handed`"),
                     **refusals(401, 422, 429, 503, _403="The key is not the match's official key",
                                _404="No such match, or no event handed to its review has that id",
                                _409="The match's log holds the event already: it is voided, not set aside")})
def set_aside(service: ServiceDep, key: KeyDep, code: str, event_id: str, body: DeviceRequest) -> dict[str, Any]:
    """Set aside an event a console handed to the review, with the official key: it is never logged, the review
    no longer lists it and no console says it waits; who set it aside (the device) and when are kept."""
    if service.role(code, key) != OFFICIAL:
        raise AccessDenied.worded_as(phrases("seat", "refused-aside-official"))
    seats = Seats(service.store)
    if not seats.set_aside(code, event_id, body.device, body.label):
        raise NotFound.worded_as(phrases("seat", "refused-aside-unknown", id=event_id))
    return seats.answer(code, seats.holder(code), body.device)
