"""Match log 1.2 through the store, on SQLite and PostgreSQL: its events appended, imported, verified and
exported like every event, its refusals in English and Spanish, its integers refused as 2.0 at every door,
checkpoints that keep the officials' state, and stores written by engine 1.1.0 still verified."""

from __future__ import annotations

import csv
import io
import json
import warnings
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from conftest import BLUE, RED, stamp, words_of

from matchstate import examples
from matchstate.engine import Match
from matchstate.errors import RefusedEvent
from matchstate.log import parse_line, read_lines
from matchstate.records import EXPORTERS
from matchstate.store import Store
from matchstate.store.checkpoints import decode, encode

START: dict[str, Any] = {
    "type": "match.start", "at": stamp(0), "match": "review-1", "teams": [BLUE, RED], "challenges": 1}
LOG: list[dict[str, Any]] = [  # seq 2 on
    {"type": "chukker.start", "chukker": 1},
    {"type": "video.sync", "clip": "cam-1.mp4", "clip_seconds": 30},
    {"type": "goal", "team": BLUE},
    {"type": "review.request", "about": 4, "asked_by": RED},
    {"type": "review.outcome", "outcome": "stands"},
    {"type": "goal", "team": RED},
    {"type": "review.request", "about": 7, "asked_by": "umpire"},
    {"type": "review.outcome", "outcome": "overturned"},
    {"type": "void", "seq": 7, "reason": "overturned"},
    {"type": "chukker.end", "chukker": 1},
    {"type": "chukker.confirm", "chukker": 1, "score": {BLUE: 1, RED: 1}},  # seq 12: a score-query
    {"type": "match.end"},
]
LATE: list[dict[str, Any]] = [
    {"type": "review.request", "about": 4, "asked_by": "referee"},  # seq 14, 16 minutes after the end
    {"type": "review.outcome", "outcome": "no-decision"},
    {"type": "chukker.confirm", "chukker": 1, "score": {BLUE: 1, RED: 0}}]


def timed(events: list[dict[str, Any]], first_ms: int = 1000, step_ms: int = 1000) -> list[dict[str, Any]]:
    return [{**event, "at": stamp(first_ms + n * step_ms)} for n, event in enumerate(events)]


def whole_log() -> list[dict[str, Any]]:
    played = timed(LOG)
    late = timed(LATE, first_ms=len(LOG) * 1000 + 960_000)
    return [START, *played, *late]


def stored_match(store: Store) -> list[dict[str, Any]]:
    log = whole_log()
    store.create_match(log[0])
    for event in log[1:]:
        store.append("review-1", event)
    return log


def test_the_officials_events_are_appended_stored_with_their_flags_and_verified(store: Store) -> None:
    log = stored_match(store)
    stored = store.events("review-1")
    assert [event.type for event in stored] == [event["type"] for event in log]
    assert stored[11].flags == ["score-query"]
    assert stored[13].flags == ["after-window"] and stored[15].flags == ["after-window"]
    assert store.verify() == []
    replayed = Match()
    for event in log:
        replayed.feed(event)
    assert replayed.reviews == [{"seq": 5, "about": 4, "asked_by": RED, "outcome": "stands"},
                                {"seq": 8, "about": 7, "asked_by": "umpire", "outcome": "overturned"},
                                {"seq": 14, "about": 4, "asked_by": "referee", "outcome": "no-decision"}]
    assert (replayed.confirmed, replayed.queried, replayed.challenges_left) == ([1], [], {BLUE: 1, RED: 0})


def test_a_refusal_of_a_1_2_event_through_the_store_says_why_in_english_and_spanish_and_stores_nothing(
        store: Store) -> None:
    store.create_match(START)
    store.append("review-1", {"type": "chukker.start", "at": stamp(1000), "chukker": 1})
    refusals: list[tuple[dict[str, Any], str, str | None]] = [
        ({"type": "review.outcome", "outcome": "stands"}, "review.outcome: no review is open",
         "review.outcome: no hay ninguna revisión abierta"),
        ({"type": "chukker.confirm", "chukker": 1, "score": {BLUE: 0, RED: 0}},
         "chukker.confirm: chukker 1 has not had its chukker.end",
         "chukker.confirm: el chukker 1 no tuvo su chukker.end"),
        ({"type": "review.request", "about": 2, "asked_by": BLUE}, "review.request: Blue has no challenge left",
         None),
    ]
    for event, en, es in refusals:
        if event["type"] == "review.request":  # Blue uses its one challenge first
            store.append("review-1", {**event, "at": stamp(2000)})
            store.append("review-1", {"type": "review.outcome", "outcome": "stands", "at": stamp(2000)})
        with pytest.raises(RefusedEvent) as refused:
            store.append("review-1", {**event, "at": stamp(3000)})
        assert str(refused.value) == en
        if es is not None:
            assert words_of(refused.value)["es"] == es
    assert store.events("review-1")[-1].seq == 4 and store.verify() == []


CHALLENGES_2_0 = ('{"type": "match.start", "at": "2026-11-29T15:00:00Z", "match": "m-2", "teams": ["Blue", "Red"], '
                  '"challenges": 2.0}')


def test_challenges_written_2_0_are_refused_by_the_store_append_and_the_import(store: Store) -> None:
    for door in (lambda: store.create_match(CHALLENGES_2_0), lambda: store.create_match(json.loads(CHALLENGES_2_0)),
                 lambda: store.import_log([CHALLENGES_2_0])):
        with pytest.raises(RefusedEvent) as refused:
            door()
        assert "field 'challenges' must be a whole number from 0" in str(refused.value)
    assert store.summaries() == []
    store.create_match(CHALLENGES_2_0.replace("2.0", "2"))
    line = json.dumps({"type": "review.request", "at": stamp(1000), "about": 1.0 + 1, "asked_by": BLUE})
    with pytest.raises(RefusedEvent, match="'about'"):
        store.append("m-2", line)


def test_challenges_written_2_0_are_refused_over_http(tmp_path: Path) -> None:
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Using `httpx`")
        from fastapi.testclient import TestClient
    from matchstate.web import create_app
    from matchstate.web.access import hash_key

    store = Store(f"sqlite:///{tmp_path / 'http.db'}")
    store.upgrade()
    store.set_league_key(hash_key("league"))
    league = {"Authorization": "Bearer league", "Content-Type": "application/json"}
    with TestClient(create_app(store)) as client:
        refused = client.post("/api/matches", content=CHALLENGES_2_0, headers=league)
        assert 400 <= refused.status_code < 500
        assert "challenges" in refused.text
        created = client.post("/api/matches", content=CHALLENGES_2_0.replace("2.0", "2"), headers=league)
        assert created.status_code == 201, created.text
        scorer = {"Authorization": f"Bearer {created.json()['scorer_key']}", "Content-Type": "application/json"}
        body = '{"event": {"type": "review.request", "at": "2026-11-29T15:00:01Z", "about": 1.0, "asked_by": "Blue"}}'
        answer = client.post("/api/matches/m-2/events", content=body, headers=scorer)
        assert 400 <= answer.status_code < 500 and "about" in answer.text
        official = {"Authorization": f"Bearer {created.json()['official_key']}"}
        for event, key in (({"type": "chukker.start", "chukker": 1}, scorer),
                           ({"type": "review.request", "about": 2, "asked_by": "umpire"}, official),
                           ({"type": "video.sync", "clip": "cam.mp4", "clip_seconds": 3.5}, official)):
            sent = client.post("/api/matches/m-2/events", json={"event": {**event, "at": "2026-11-29T15:00:02Z"}},
                               headers=key)
            assert sent.status_code == 201, sent.text
        view = client.get("/api/matches/m-2").json()
        assert view["officials"]["review"] == 3 and view["officials"]["challenges_left"] == {BLUE: 2, RED: 2}
        assert view["officials"]["clips"] == [{"clip": "cam.mp4", "clip_seconds": 3.5, "at": "2026-11-29T15:00:02Z"}]
        assert "goal" not in view["accepted"] and "review.outcome" in view["accepted"]  # the review is open
        forms = client.get("/api/event-types").json()
        assert {field["name"]: field["kind"] for field in forms["review.request"]} == {
            "about": "count", "asked_by": "asker", "reason": "text"}
        assert forms["review.outcome"][0]["choices"] == ["stands", "overturned", "no-decision"]
    store.close()


def test_the_reviewed_call_example_imports_verifies_and_exports(store: Store) -> None:
    code, count = store.import_log(read_lines(examples.path("reviewed-call")))
    assert count == 28 and store.verify() == []
    rows = list(csv.DictReader(io.StringIO(EXPORTERS["csv"].write(store.events(code)).lstrip("\ufeff"))))
    assert rows[6]["review"] == "stands (challenge used)" and rows[18]["review"] == "overturned"
    assert rows[10]["flags"] == "score-query" and rows[9]["confirmation"] == "confirmed"
    assert rows[17]["void"] == "yes"  # the goal overturned on review, struck out by its void


def test_the_csv_marks_after_window_and_the_chukkers_queried(store: Store) -> None:
    log = stored_match(store)
    store.append("review-1", {"type": "void", "seq": 4, "reason": "a tribunal's correction", "at": stamp(2_000_000)})
    assert len(store.events("review-1")) == len(log) + 1
    rows = list(csv.DictReader(io.StringIO(EXPORTERS["csv"].write(store.events("review-1")).lstrip("\ufeff"))))
    assert rows[-1]["flags"] == "after-window"
    assert rows[10]["confirmation"] == "queried"  # the goal confirmed at seq 16 is void now
    assert rows[13]["review"] == "no-decision"


def test_a_checkpoint_round_trips_the_reviews_challenges_confirmations_clips_and_outcomes_struck_with_a_request(
        ) -> None:
    log = whole_log()
    log.append({"type": "void", "at": stamp(2_000_000), "seq": 5, "reason": "withdrawn"})  # strikes seq 6 too
    match = replayed(log)
    resumed = Match.resume(log[0], decode(encode(match.checkpoint())))
    for name in ("reviews", "challenges_left", "confirmed", "queried", "clips", "void", "review"):
        assert getattr(resumed, name) == getattr(match, name), name
    assert {5, 6} <= resumed.void
    restore = {"type": "void", "at": stamp(2_000_001), "seq": len(log), "reason": "not withdrawn after all"}
    resumed.earlier = lambda: match  # the restored request is before the checkpoint: the whole match, replayed
    whole = replayed([*log, restore])
    resumed.feed(restore)
    assert resumed.reviews == whole.reviews and resumed.challenges_left == whole.challenges_left == {BLUE: 1, RED: 0}
    again = {"type": "void", "at": stamp(2_000_002), "seq": len(log) + 1, "reason": "withdrawn after all"}
    resumed = Match.resume(log[0], decode(encode(whole.checkpoint())))  # the outcome's request kept in the blob
    resumed.earlier = lambda: replayed([*log, restore])
    resumed.feed(again)  # the request struck again strikes its outcome again
    whole.feed(again)
    assert resumed.void == whole.void and {5, 6} <= resumed.void
    assert resumed.challenges_left == whole.challenges_left == {BLUE: 1, RED: 1}


def replayed(events: list[dict[str, Any]]) -> Match:
    match = Match()
    for event in events:
        match.feed(event)
    return match


def test_verify_passes_on_a_store_written_by_engine_1_1_0(store_url: str) -> None:
    Store(store_url).upgrade()
    older = Store(store_url, engine_version="1.1.0")
    lines = list(read_lines(examples.path("full-match")))
    older.import_log(lines)
    older.close()
    store = Store(store_url)
    assert store.verify() == []
    assert store.summaries()[0].code == parse_line(lines[0])["match"]
    store.close()


def test_verify_passes_on_a_store_whose_engine_gave_no_1_2_flags(store_url: str) -> None:
    """A void logged more than 900 s after match.end is flagged after-window from engine 1.2.0 on; the row an
    older engine stored has no such flag, and an honest upgrade does not make verify cry wolf."""
    from sqlalchemy import select, update

    from matchstate.models import MatchRow, RulingRow

    Store(store_url).upgrade()
    older = Store(store_url, engine_version="1.1.0")
    lines = list(read_lines(examples.path("full-match")))
    code = parse_line(lines[0])["match"]
    older.import_log(lines)
    last = older.match(code)
    end_at = datetime.fromisoformat(parse_line(lines[-1])["at"].replace("Z", "+00:00"))
    void = {"type": "void", "seq": last.seq, "reason": "a tribunal's correction",
            "at": (end_at + timedelta(seconds=901)).isoformat()}
    older.append(code, void)
    with older.database.transaction(write=True) as connection:  # as engine 1.1.0 stored it: no 1.2 flag
        match_id = connection.execute(select(MatchRow.id).where(MatchRow.code == code)).scalar_one()
        connection.execute(update(RulingRow).where(RulingRow.match_id == match_id, RulingRow.seq == last.seq + 1)
                           .values(flags=[]))
    older.close()
    store = Store(store_url)
    assert store.verify() == []
    store.close()
