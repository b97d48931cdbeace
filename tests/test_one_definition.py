"""One definition of a valid event at every door (issue 16, finding 3: the HTTP append took an event whose JSON
gives a key twice, 201, while the import refused it, 422): the HTTP append, the import and a log's replay each
refuse it, naming the key, in English and Spanish."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from test_service import CODE, LEAGUE, START, Api, api, client, store  # noqa: F401 (the API's fixtures)

from matchstate.errors import InvalidEvent
from matchstate.log import replay

SAID = {"en": "its JSON holds the key 'type' twice in one object",
        "es": "su JSON repite la clave 'type' en un mismo objeto"}


def twice(event: dict[str, object]) -> str:
    """The event's JSON with its ``type`` given a second time, a goal's first: a reader may take either."""
    return json.dumps(event).replace('"type": ', '"type": "goal", "type": ', 1)


def test_the_http_append_refuses_a_key_given_twice_as_the_import_does(api: Api) -> None:  # noqa: F811
    event = twice(api.event({"type": "penalty.award", "penalty": "3", "to": "Blue"}))
    appended = api.client.post(f"/api/matches/{CODE}/events", content=f'{{"event": {event}}}'.encode(),
                               headers={"Authorization": f"Bearer {api.scorer}", "Content-Type": "application/json"})
    imported = api.client.post("/api/matches/import", headers=LEAGUE,
                               content=f"{json.dumps({**START, 'match': 'other'})}\n{event}\n".encode())
    assert appended.status_code == imported.status_code == 422, (appended.text, imported.text)
    assert SAID["en"] in appended.json()["detail"] and SAID["en"] in imported.json()["detail"]
    for language, words in SAID.items():
        assert words in appended.json()["words"][language]
    assert len(api.log()) == 1  # nothing written


def test_a_key_given_twice_in_the_body_around_the_event_is_refused_too(api: Api) -> None:  # noqa: F811
    event = json.dumps(api.event({"type": "penalty.award", "penalty": "3", "to": "Blue"}))
    answer = api.client.post(f"/api/matches/{CODE}/events", content=f'{{"event": {event}, "event": {event}}}',
                             headers={"Authorization": f"Bearer {api.scorer}", "Content-Type": "application/json"})
    assert answer.status_code == 422 and "the key 'event' twice" in answer.json()["detail"]


def test_a_log_replayed_refuses_a_line_with_a_key_given_twice(tmp_path: Path) -> None:
    lines = [json.dumps(START), twice({"type": "chukker.start", "chukker": 1, "at": START["at"]})]
    with pytest.raises(InvalidEvent, match="line 2: its JSON holds the key 'type' twice"):
        list(replay(lines))
