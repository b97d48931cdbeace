"""One scoring seat per match, over HTTP: a console opening a free match takes the seat, another watches and
takes it only when it asks; only the seat's console may log the automatic clock check, which is kept as the
timer's with its seconds; a refusal says why in English and Spanish."""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from conftest import known
from fastapi.testclient import TestClient
from sqlalchemy import delete, insert
from test_service import CODE, START, Api

from matchstate.models import SeatRow
from matchstate.store import Store
from matchstate.store.seats import STALE_SECONDS, Seat, Seats
from matchstate.web import create_app
from matchstate.web.access import hash_key

NOW = datetime(2026, 12, 5, 15, 0, tzinfo=UTC)
SEAT = f"/api/matches/{CODE}/seat"
WINDOW: list[dict[str, Any]] = [
    {"type": "penalty.award", "penalty": "3", "to": "Blue"}, {"type": "ball.place"}, {"type": "play"}]


class Clock:
    """The store's clock, moved on by hand."""

    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> datetime:
        return self.now


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def api(store_url: str, clock: Clock) -> Iterator[Api]:
    store = Store(store_url, clock=clock)
    store.upgrade()
    store.set_league_key(hash_key("the-league's-key"))
    with TestClient(create_app(store)) as client:
        yield Api(client)
    store.close()


def sit(api: Api, device: str, ask: str, label: str = "Tablet · Chrome", key: str = "scorer") -> dict[str, Any]:
    answer = api.client.put(SEAT, json={"device": device, "label": label, "ask": ask},
                            headers={"Authorization": f"Bearer {getattr(api, key)}"})
    assert answer.status_code == 200, answer.text
    seat: dict[str, Any] = answer.json()
    return seat


def timer_tick(api: Api, device: str, elapsed: str = "20.2", **fields: object) -> Any:
    return api.client.post(f"/api/matches/{CODE}/events", json={"event": {**api.event({"type": "tick"}), **fields}},
                           headers={"Authorization": f"Bearer {api.scorer}",
                                    "X-Console-Timer": f"device={device}; elapsed={elapsed}"})


def test_the_first_console_takes_the_seat_and_the_next_watches_until_it_takes_it(api: Api, clock: Clock) -> None:
    assert api.client.get(SEAT).json()["holder"] is None
    tablet = sit(api, "tablet", "open")
    assert tablet["yours"] and tablet["holder"]["label"] == "Tablet · Chrome"
    clock.now += timedelta(seconds=12)
    phone = sit(api, "phone", "open", label="Phone · Safari")
    assert not phone["yours"] and phone["holder"]["device"] == "tablet"
    assert phone["holder"]["heard_seconds_ago"] == 12.0  # what the confirmation names
    assert not sit(api, "phone", "heard", label="Phone · Safari")["yours"]  # a watcher's heartbeat takes nothing
    taken = sit(api, "phone", "take", label="Phone · Safari")
    assert taken["yours"] and taken["holder"]["label"] == "Phone · Safari"
    assert not sit(api, "tablet", "heard")["yours"]


def test_a_silent_holder_leaves_the_seat_to_the_next_console_that_opens(api: Api, clock: Clock) -> None:
    sit(api, "tablet", "open")
    clock.now += timedelta(seconds=STALE_SECONDS - 1)
    assert not sit(api, "phone", "open")["yours"]
    clock.now += timedelta(seconds=1)
    assert not sit(api, "phone", "heard")["yours"]  # an open watcher never takes it by itself
    assert sit(api, "phone", "open")["yours"]


def test_only_the_seat_logs_the_automatic_clock_check_and_it_is_kept_as_the_timers(api: Api) -> None:
    sit(api, "tablet", "open")
    sit(api, "phone", "open")
    api.send(*WINDOW)
    refused = timer_tick(api, "phone")
    assert refused.status_code == 409
    assert "Tablet · Chrome holds it" in refused.json()["detail"]
    assert "lo tiene Tablet · Chrome" in refused.json()["words"]["es"]
    assert [row["type"] for row in api.log()][-1] == "play"
    recorded = timer_tick(api, "tablet", "20.25")
    assert recorded.status_code == 201, recorded.text
    tick_id = recorded.json()["event"]["device_id"]
    assert api.client.get(SEAT).json()["timer_ticks"] == {tick_id: {"device": "tablet", "elapsed": 20.25}}


def test_a_person_s_clock_check_needs_no_seat_and_a_bad_timer_header_is_refused(api: Api) -> None:
    api.send(*WINDOW, {"type": "tick"})  # a tap on "Clock check": the person's, from any console
    assert api.client.get(SEAT).json()["timer_ticks"] == {}
    bad = timer_tick(api, "tablet", "soon")
    assert bad.status_code == 422 and "X-Console-Timer" in bad.json()["detail"]
    assert timer_tick(api, "nobody").json()["words"]["en"].startswith("no console holds")


def test_the_seat_needs_a_match_key(api: Api) -> None:
    answer = api.client.put(SEAT, json={"device": "x", "label": "x", "ask": "take"})
    assert answer.status_code == 401
    assert api.client.put(SEAT, json={"device": "a b", "label": "x"},
                          headers={"Authorization": f"Bearer {api.scorer}"}).status_code == 422


def test_events_held_offline_are_handed_to_the_review_as_they_were_in_time_order(api: Api) -> None:
    sit(api, "phone", "open")
    goal = {"type": "goal", "at": "2026-11-29T15:00:09.000Z", "id": "web-goal", "team": "Blue"}
    hit = {"type": "hit", "at": "2026-11-29T15:00:04.000Z", "id": "web-hit", "player": 3, "contact": "hit"}
    answer = api.client.put(SEAT, json={"device": "tablet", "label": "Tablet · Chrome", "ask": "heard",
                                        "handed": [goal, hit]}, headers={"Authorization": f"Bearer {api.scorer}"})
    assert not answer.json()["yours"]
    handed = api.client.get(SEAT).json()["handed"]
    assert [item["event"] for item in handed] == [hit, goal]  # in time order, each `at` as it was logged
    assert {item["label"] for item in handed} == {"Tablet · Chrome"}


def test_events_handed_with_other_offsets_are_listed_in_the_time_they_name_not_their_texts_order(api: Api) -> None:
    """Sorted as text, 16:00:47+01:00 came after 15:00:57Z, and the review, logging them as listed, saw the events
    after the first refused as earlier than the one before."""
    sit(api, "phone", "open")
    first = {"type": "tick", "at": "2026-11-29T16:00:47.000+01:00", "id": "z-1"}  # 15:00:47Z
    second = {"type": "tick", "at": "2026-11-29T15:00:57Z", "id": "z-2"}
    third = {"type": "tick", "at": "2026-11-29T15:00:57.5Z", "id": "z-3"}  # as text, before 15:00:57Z
    fourth = {"type": "tick", "at": "2026-11-29T12:01:07-03:00", "id": "z-4"}  # 15:01:07Z
    api.client.put(SEAT, json={"device": "tablet", "label": "Tablet", "handed": [fourth, third, second, first]},
                   headers={"Authorization": f"Bearer {api.scorer}"})
    handed = [item["event"] for item in api.client.get(SEAT).json()["handed"]]
    assert handed == [first, second, third, fourth]
    for event in handed:  # the review's "Log it as it was", in the order listed
        assert api.post(event, "official").status_code == 201


def test_events_handed_at_one_time_are_listed_in_the_order_their_console_logged_them(api: Api) -> None:
    """An award and its whistle, logged by one tap at one time, came back in the order of their ids (random): an
    official working down the list logged the award before its whistle."""
    sit(api, "phone", "open")
    at = "2026-11-29T15:00:04.000Z"
    whistle = {"type": "whistle", "at": at, "id": "web-zz"}
    award = {"type": "knockin.award", "at": at, "id": "web-aa", "to": "Blue"}
    later = {"type": "tick", "at": "2026-11-29T15:00:05.000Z", "id": "web-00"}
    for handed in ([whistle, award], [later, {**whistle, "at": "2026-11-29T15:00:09.000Z"}]):  # the second: kept
        api.client.put(SEAT, json={"device": "tablet", "label": "Tablet", "handed": handed},
                       headers={"Authorization": f"Bearer {api.scorer}"})
    assert [item["event"] for item in api.client.get(SEAT).json()["handed"]] == [whistle, award, later]


def test_an_event_handed_and_logged_is_listed_no_more_and_cannot_be_set_aside(api: Api) -> None:
    """The official logged an event handed to the review, then set it aside: 200, and the seat kept it as set aside,
    "never logged", though the log held it; the seat's answer listed it as waiting too."""
    sit(api, "phone", "open")
    tick = {"type": "tick", "at": "2026-11-29T15:00:04.000Z", "id": "h-1"}
    later = {"type": "tick", "at": "2026-11-29T15:00:06.000Z", "id": "h-2"}
    api.client.put(SEAT, json={"device": "tablet", "label": "Tablet", "handed": [tick, later]},
                   headers={"Authorization": f"Bearer {api.scorer}"})
    logged = api.post(tick, "official")
    assert logged.status_code == 201
    assert [item["event"] for item in api.client.get(SEAT).json()["handed"]] == [later]
    laptop, official = {"device": "laptop", "label": "Laptop"}, {"Authorization": f"Bearer {api.official}"}
    refused = api.client.post(f"{SEAT}/handed/h-1/set-aside", json=laptop, headers=official)
    assert refused.status_code == 409, refused.text
    seq = logged.json()["seq"]
    assert refused.json()["words"] == {
        "en": f"the event h-1 handed to the review is logged already, as seq {seq}: it cannot be set aside (void "
              "it to strike it out)",
        "es": f"el evento h-1 pasado a la revisión ya está registrado, como seq {seq}: no se puede dejar de lado "
              "(anúlelo con un void para tacharlo)"}
    assert api.client.get(SEAT).json()["set_aside"] == []
    never = api.client.post(f"{SEAT}/handed/dev-1/set-aside", json=laptop, headers=official)  # logged, not handed
    assert never.status_code == 404, never.text

    assert api.client.post(f"{SEAT}/handed/h-2/set-aside", json=laptop, headers=official).status_code == 200
    assert api.post(later, "official").status_code == 201  # logged after all: set aside no more
    seat = api.client.get(SEAT).json()
    assert (seat["handed"], seat["set_aside"]) == ([], [])


def test_a_scorer_hands_the_review_only_what_a_scorer_could_log(api: Api) -> None:
    """A scorer's key handed a review's outcome (or a confirmation, a video sync, an umpire's review) to the review,
    where one click logs it with the official's key: the officials' work, done by a scorer's."""
    sit(api, "phone", "open")
    for held in ({"type": "review.outcome", "outcome": "overturned"},
                 {"type": "review.request", "about": 1, "asked_by": "umpire"},
                 {"type": "chukker.confirm", "chukker": 1, "score": {"Blue": 0, "Red": 0}}):
        event = {**held, "at": "2026-11-29T15:00:04.000Z", "id": f"web-{held['type']}"}
        answer = api.client.put(SEAT, json={"device": "tablet", "label": "Tablet", "handed": [event]},
                                headers={"Authorization": f"Bearer {api.scorer}"})
        assert answer.status_code == 403 and "only an official may" in answer.json()["detail"], held
    assert api.client.get(SEAT).json()["handed"] == []
    goal = {"type": "goal", "at": "2026-11-29T15:00:09.000Z", "id": "web-goal", "team": "Blue"}
    assert api.client.put(SEAT, json={"device": "tablet", "label": "Tablet", "handed": [goal]},
                          headers={"Authorization": f"Bearer {api.scorer}"}).status_code == 200


@pytest.mark.parametrize(("value", "said"), [
    ("NaN", "the number nan is not a finite number"), ("1e400", "the number inf is not a finite number"),
    ("1" + "0" * 30, "is beyond ±2^53"), ('"a\\u0000b"', "holds a NUL character")])
def test_an_event_handed_that_no_append_would_take_is_refused_and_the_seat_still_answers(
        api: Api, value: str, said: str) -> None:
    """Kept for the review as JSON, what the store cannot keep or a reader would read otherwise is refused as an
    append refuses it; a NaN was kept on SQLite, and every read of the seat then failed."""
    sit(api, "phone", "open")
    held = f'{{"type": "tick", "at": "2026-11-29T15:00:04.000Z", "id": "web-tick", "note": {value}}}'
    answer = api.client.put(SEAT, content=f'{{"device": "tablet", "label": "Tablet", "handed": [{held}]}}',
                            headers={"Authorization": f"Bearer {api.scorer}", "Content-Type": "application/json"})
    assert answer.status_code == 422, answer.text
    assert said in answer.json()["detail"] and answer.json()["words"]["es"] != answer.json()["words"]["en"]
    seat = api.client.get(SEAT)
    assert seat.status_code == 200 and seat.json()["handed"] == []
    assert sit(api, "phone", "heard")["yours"]


def test_the_official_sets_aside_a_handed_event_the_engine_refuses_and_it_waits_no_more(
        api: Api, clock: Clock) -> None:
    """A handed event the engine refused (a goal for a team not in the match) stayed in the seat's `handed` for
    ever, so every console's banner said it waited for the official: the official may set it aside now, kept with
    who did it and when, never logged; another key may not, and an id no console handed is not found."""
    sit(api, "phone", "open")
    stray = {"type": "goal", "at": "2026-11-29T15:00:04.000Z", "id": "web-stray", "team": "Green"}
    goal = {"type": "goal", "at": "2026-11-29T15:00:09.000Z", "id": "web-goal", "team": "Blue"}
    api.client.put(SEAT, json={"device": "tablet", "label": "Tablet · Chrome", "handed": [stray, goal]},
                   headers={"Authorization": f"Bearer {api.scorer}"})
    assert api.post(stray, "official").status_code == 422  # the review's "Log it as it was": refused
    aside = f"{SEAT}/handed/web-stray/set-aside"
    laptop = {"device": "laptop", "label": "Computer · Chrome · Ana"}
    for key, status in ((None, 401), ("scorer", 403), ("the-league's-key", 403), ("wrong", 403)):
        answer = api.client.post(aside, json=laptop, headers={"Authorization": f"Bearer {getattr(api, key, key)}"}
                                 if key else {})
        assert answer.status_code == status, (key, answer.text)
    refused = api.client.post(aside, json=laptop, headers={"Authorization": f"Bearer {api.scorer}"}).json()
    assert refused["words"] == {"en": "only an official may set aside an event handed to the review",
                                "es": "solo un oficial puede dejar de lado un evento pasado a la revisión"}
    official = {"Authorization": f"Bearer {api.official}"}
    unknown = api.client.post(f"{SEAT}/handed/web-none/set-aside", json=laptop, headers=official)
    assert unknown.status_code == 404 and "web-none" in unknown.json()["detail"], unknown.text
    assert [item["event"] for item in api.client.get(SEAT).json()["handed"]] == [stray, goal]  # nothing set aside

    answer = api.client.post(aside, json=laptop, headers=official)
    assert answer.status_code == 200, answer.text
    assert [item["event"] for item in answer.json()["handed"]] == [goal]
    kept = {"event": stray, "label": "Tablet · Chrome", "handed_at": "2026-12-05T15:00:00.000Z",
            "set_aside": {"at": "2026-12-05T15:00:00.000Z", **laptop}}
    assert answer.json()["set_aside"] == [kept]
    clock.now += timedelta(minutes=1)  # set aside again, or handed again: the first record stands, still aside
    assert api.client.post(aside, json={"device": "tablet", "label": "Tablet"}, headers=official).status_code == 200
    api.client.put(SEAT, json={"device": "tablet", "label": "Tablet", "handed": [stray]},
                   headers={"Authorization": f"Bearer {api.scorer}"})
    seat = api.client.get(SEAT).json()
    assert [item["event"] for item in seat["handed"]] == [goal] and seat["set_aside"] == [kept]
    assert [row["event"]["type"] for row in api.client.get(f"/api/matches/{CODE}/events").json()] == ["match.start"]



def _seat_filled(api: Api) -> None:
    """The seat of ``api``'s match held, a clock check marked as its timer's, an event handed and one set aside."""
    sit(api, "tablet", "open")
    api.send(*WINDOW)
    assert timer_tick(api, "tablet").status_code == 201
    handed = [{"type": "goal", "at": "2026-11-29T15:00:09.000Z", "id": f"web-{n}", "team": "Blue"} for n in (1, 2)]
    api.client.put(SEAT, json={"device": "phone", "label": "Phone", "handed": handed},
                   headers={"Authorization": f"Bearer {api.scorer}"})
    api.client.post(f"{SEAT}/handed/web-2/set-aside", json={"device": "laptop", "label": "Laptop"},
                    headers={"Authorization": f"Bearer {api.official}"})
    seat = api.client.get(SEAT).json()
    assert seat["holder"] and seat["timer_ticks"] and seat["handed"] and seat["set_aside"]


EMPTY_SEAT: dict[str, Any] = {"holder": None, "timer_ticks": {}, "handed": [], "set_aside": []}


@pytest.mark.parametrize("again", ["created", "imported"])
def test_a_new_match_under_a_removed_match_s_code_starts_with_its_seat_empty(api: Api, again: str) -> None:
    """The seat's holder, its timer's clock checks and the events handed to the review are kept by the match's code:
    a removal left them, and a new match created or imported under the code showed the removed match's tablet
    holding its seat and offered the official the removed match's goal to log."""
    _seat_filled(api)
    league = {"Authorization": "Bearer the-league's-key"}
    removed = api.client.request("DELETE", f"/api/matches/{CODE}", json={"reason": "entered twice"}, headers=league)
    assert removed.status_code == 200, removed.text
    start = {"type": "match.start", "at": "2026-11-29T15:00:00Z", "match": CODE, "teams": ["Lime", "Teal"]}
    made = (api.client.post("/api/matches", json=start, headers=league) if again == "created"
            else api.client.post("/api/matches/import", content=json.dumps(start), headers=league))
    assert made.status_code == 201, made.text
    seat = api.client.get(SEAT).json()
    assert {name: seat[name] for name in EMPTY_SEAT} == EMPTY_SEAT


def test_a_seat_a_removal_left_behind_before_is_emptied_when_a_match_takes_its_code(store_url: str) -> None:
    """Stores whose removals left seats behind (before they were deleted with their match): a new match under
    the code starts with none of them."""
    store = Store(store_url)
    store.upgrade()
    with store.database.transaction(write=True) as connection:
        connection.execute(insert(SeatRow).values(code="left", device="tablet", label="Old tablet", taken_at=NOW,
                                                  heard_at=NOW))
    store.create_match({"type": "match.start", "at": "2026-11-29T15:00:00Z", "match": "left", "teams": ["A", "B"]})
    assert Seats(store).holder("left") is None
    store.close()


def test_a_correction_of_the_match_start_keeps_its_seat_and_what_was_handed(api: Api) -> None:
    """A correction removes the match and creates it again in one: the same match, whose console holds its seat
    still, and whose handed events stay for the official to log or set aside (none is lost)."""
    sit(api, "tablet", "open")
    goal = {"type": "goal", "at": "2026-11-29T15:00:09.000Z", "id": "web-goal", "team": "Blue"}
    api.client.put(SEAT, json={"device": "phone", "label": "Phone", "handed": [goal]},
                   headers={"Authorization": f"Bearer {api.scorer}"})
    corrected = api.client.put(f"/api/matches/{CODE}", json={"start": {**START, "venue": "Field 2"},
                                                             "reason": "the venue"},
                               headers={"Authorization": "Bearer the-league's-key"})
    assert corrected.status_code == 200, corrected.text
    seat = api.client.get(SEAT).json()
    assert seat["holder"]["device"] == "tablet" and [item["event"] for item in seat["handed"]] == [goal]

def test_a_timer_clock_check_the_log_refuses_leaves_no_mark(api: Api) -> None:
    sit(api, "tablet", "open")
    api.send(*WINDOW)
    refused = timer_tick(api, "tablet", at="2026-01-01T00:00:00Z")  # before the last event: the log refuses it
    assert refused.status_code == 422
    assert api.client.get(SEAT).json()["timer_ticks"] == {}


def test_asks_at_the_same_moment_find_one_holder_and_no_error(store: Store) -> None:
    """A console's "open" and "heard" can reach the server together (a reload, a second tab): on PostgreSQL both
    had found no holder, both inserted, and one answered 500. Each ask now waits for the one before it."""
    seats = Seats(store)
    asks = 8
    start = threading.Barrier(asks)
    answers: list[Seat | None] = []
    failures: list[BaseException] = []

    def ask(number: int) -> None:
        start.wait()
        try:
            answers.append(seats.sit("seated", f"device-{number}", "Tablet · Chrome", "open"))
        except BaseException as err:  # what a request would have answered 500 for
            failures.append(err)

    for _ in range(5):  # the race is a matter of moments: each round starts a free seat's asks together
        with store.database.transaction(write=True) as connection:
            connection.execute(delete(SeatRow))
        answers.clear()
        threads = [threading.Thread(target=ask, args=(number,)) for number in range(asks)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert failures == []
        holder = known(seats.holder("seated"))
        assert {seat.device for seat in answers if seat is not None} == {holder.device}  # one seat, told to all
