"""The scoring seat on the web: ``GET``/``PUT /api/matches/{code}/seat`` (the append's hook for the seat's
timer is :mod:`matchstate.web.timer`)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter
from pydantic import BaseModel, Field

from ..errors import AccessDenied
from ..store import OFFICIAL, SCORER
from ..store.seats import Ask, Seats
from .api import READ_ERRORS, KeyDep, ServiceDep

api = APIRouter(prefix="/api", tags=["matches"])
Device = Annotated[str, Field(min_length=1, max_length=64, pattern=r"^[\w.:-]+$",
                              description="The console's device id, made once and kept on the device.")]


MAX_HANDED = 200


class HeldEvent(BaseModel, extra="allow"):
    """An event as the console logged it: the review logs it as it is, if the official decides to."""

    type: str = Field(max_length=40)
    at: str = Field(max_length=40)
    id: Device


class SeatRequest(BaseModel):
    device: Device
    label: str = Field(min_length=1, max_length=80, description='What the device is, as it shows: "Tablet · Chrome".')
    ask: Ask = Field("heard", description="`open`: take the seat where it is free (or its holder silent); "
                                          "`heard`: the holder is still there; `take`: take it from its holder.")
    handed: list[HeldEvent] = Field([], max_length=MAX_HANDED,
                                    description="Events this console held offline without the seat, handed to "
                                                "the review as they were logged (each kept once, by `id`).")


@api.get("/matches/{code}/seat", responses=READ_ERRORS)
def read_seat(service: ServiceDep, key: KeyDep, code: str, device: str | None = None) -> dict[str, Any]:
    """Who holds the match's scoring seat (the one console that logs the automatic clock check) and when it was
    last heard from, and the clock checks the seat's timer logged (by event id, with the seconds elapsed)."""
    service.check_read(code, key)
    seats = Seats(service.store)
    return seats.answer(code, seats.holder(code), device)


@api.put("/matches/{code}/seat", responses=READ_ERRORS)
def sit(service: ServiceDep, key: KeyDep, code: str, body: SeatRequest) -> dict[str, Any]:
    """Open, keep or take the match's scoring seat, with the scorer or official key."""
    if service.role(code, key) not in (SCORER, OFFICIAL):
        raise AccessDenied.said("match-key-wrong")
    seats = Seats(service.store)
    if body.handed:
        seats.hand(code, body.device, body.label, [event.model_dump() for event in body.handed])
    return seats.answer(code, seats.sit(code, body.device, body.label, body.ask), body.device)
