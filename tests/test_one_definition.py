"""One definition of a valid event at every door (issue 16, finding 3: the HTTP append took an event whose JSON
gives a key twice, 201, while the import refused it, 422): the HTTP append, the import and a log's replay each
refuse it, naming the key, in English and Spanish."""

from __future__ import annotations

import json
import re
from pathlib import Path

import orjson
import pytest
from test_service import CODE, LEAGUE, START, Api, api, client, store  # noqa: F401 (the API's fixtures)

from matchstate.errors import InvalidEvent
from matchstate.log import refuse_repeated_keys, replay
from matchstate.store import Store

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


@pytest.mark.parametrize("text", [
    '{"a": 1, "a": 1}',
    '{"a": "x", "b": {"c": 1, "c": 2}}',
    '{"a": [{"b": 1}, {"b": 1, "b": "y"}]}',
    '{"a" :1,"a" :2,"b":"\\":"}',  # the one left out holds nothing to count, the rest hold a quote written \"
    '{"a": "\\u0022\\u0022", "a": 1}',  # two quotes written \u0022 for the two of the key given again
    '{"n\\"": 1, "n\\"": 2}',
    '{"a": ' * 300 + '{"b": 1, "b": 2}' + '}' * 300,  # deeper than orjson writes again
])
def test_a_key_given_twice_is_refused_however_the_text_writes_its_quotes(text: str) -> None:
    with pytest.raises(InvalidEvent, match="twice in one object"):
        refuse_repeated_keys(text, orjson.loads(text))
    with pytest.raises(InvalidEvent, match="twice in one object"):
        refuse_repeated_keys(text.encode(), orjson.loads(text))


@pytest.mark.parametrize("text", ['{"a": "\\"x\\"", "b": ["c", {"d": "\\u0022"}], "e": null}', '{}', '{"a": "\\\\"}'])
def test_an_object_whose_keys_are_given_once_each_passes(text: str) -> None:
    refuse_repeated_keys(text, orjson.loads(text))


DEEP = '{"a": ' * 1000 + "1" + "}" * 1000  # within orjson's depth, past what Python's own parser goes


def test_an_event_nested_past_what_can_be_checked_is_refused_at_every_door_saying_so(
        api: Api, store: Store) -> None:  # noqa: F811
    """Checking for a key given twice needs Python's own parser, which stops short of orjson's depth: such an
    event is refused, naming its depth, where it was an error (a 500 from the import)."""
    said = {"en": "the JSON nests 1000 deep, deeper than it can be checked for a key given twice",
            "es": "el JSON anida 1000 niveles, más de lo que se puede revisar en busca de una clave repetida"}
    imported = api.client.post("/api/matches/import", headers=LEAGUE,
                               content=f"{json.dumps({**START, 'match': 'deep'})}\n{DEEP}\n".encode())
    assert imported.status_code == 422, imported.text
    assert imported.json()["line"] == 2
    for language, words in said.items():
        assert words in imported.json()["words"][language]
    with pytest.raises(InvalidEvent, match=said["en"]):
        store.append(CODE, DEEP)
    with pytest.raises(InvalidEvent, match=f"line 2: {said['en']}"):
        list(replay([json.dumps(START), DEEP]))
    assert len(api.log()) == 1 and api.client.get("/api/matches/deep").status_code == 404


def test_an_event_nested_past_what_a_line_is_read_to_is_refused_naming_its_depth(
        api: Api, store: Store) -> None:  # noqa: F811
    """Past orjson's depth, the refusal names the depth and the most a line is read to, in both languages (it
    was the parser's own words, in English in the Spanish too)."""
    deeper = '{"a": ' * 1100 + "1" + "}" * 1100
    said = {"en": "the JSON nests 1100 deep, deeper than a line is read (1024)",
            "es": "el JSON anida 1100 niveles, más de los 1024 hasta los que se lee una línea"}
    imported = api.client.post("/api/matches/import", headers=LEAGUE,
                               content=f"{json.dumps({**START, 'match': 'deeper'})}\n{deeper}\n".encode())
    assert imported.status_code == 422 and imported.json()["line"] == 2, imported.text
    assert imported.json()["words"] == {"en": f"line 2: {said['en']}", "es": f"línea 2: {said['es']}"}
    with pytest.raises(InvalidEvent, match=f"line 2: {re.escape(said['en'])}"):
        list(replay([json.dumps(START), deeper]))
    with pytest.raises(InvalidEvent, match=re.escape(said["en"])):
        store.append(CODE, deeper)
    assert len(api.log()) == 1 and api.client.get("/api/matches/deeper").status_code == 404


def test_an_import_of_brackets_past_any_parsers_depth_is_refused_naming_the_line(api: Api) -> None:  # noqa: F811
    imported = api.client.post("/api/matches/import", headers=LEAGUE, content=b"[" * 1000)
    assert imported.status_code == 422 and imported.json()["line"] == 1, imported.text
