"""An answer in the reader's language (a page, the tournament calendar) chosen by the browser's Accept-Language
says so in `Vary`, once, beside Accept-Encoding, so a shared cache gives no English reader a Spanish page; an
answer the same in every language does not."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from conftest import stored
from test_stats import MATCH_A
from tournament_helpers import team

from matchstate.store import Store
from matchstate.web import create_app
from matchstate.web.access import hash_key

LEAGUE = {"Authorization": "Bearer the-league's-key"}
BROWSER = {"accept": "text/html", "accept-encoding": "gzip, br"}
# Spanish, as a browser in Argentina asks for it, and English.
ASKED = [("es-AR,es;q=0.9,en;q=0.8", "es"), ("en-GB,en;q=0.9", "en")]
CALENDAR = "/api/tournaments/cup/calendar.ics"
pytestmark = pytest.mark.parametrize("store_url", ["sqlite"], indirect=True)  # headers: no database's own


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    store.set_league_key(hash_key("the-league's-key"))
    with TestClient(create_app(stored(store, MATCH_A))) as client:
        made = client.post("/api/tournaments", json={"slug": "cup", "name": "Cup", "teams": [team("Blue")]},
                           headers=LEAGUE)
        assert made.status_code == 201, made.text
        yield client


def vary(client: TestClient, path: str, language: str, **headers: str) -> tuple[list[bytes], str]:
    """The `Vary` headers of the answer to ``path`` as they came, and the language of its page ("": no page)."""
    answer = client.get(path, headers={**BROWSER, "accept-language": language, **headers})
    assert answer.status_code < 500, answer.text
    said = re.search(r'<html lang="(\w+)"', answer.text)
    return [value for name, value in answer.headers.raw if name.lower() == b"vary"], said.group(1) if said else ""


@pytest.mark.parametrize("path", ["/", "/stats", "/tournaments", "/tournaments/cup",
                                  f"/matches/{MATCH_A[0]['match']}/sheet", "/docs", "/matches/nowhere/console",
                                  "/no-such-page"])
@pytest.mark.parametrize(("asked", "language"), ASKED)
def test_a_page_in_the_language_the_browser_asks_for_says_it_varies_by_it(
        client: TestClient, path: str, asked: str, language: str) -> None:
    assert vary(client, path, asked) == ([b"Accept-Language, Accept-Encoding"], language)


def test_the_calendar_in_the_readers_language_says_it_varies_by_it_and_a_chosen_language_too(
        client: TestClient) -> None:
    """The calendar's words are the reader's (a team to come, "winner of ..."): chosen by the header, or by the
    toggle's cookie, whose absence the same address answers by the header."""
    for asked, _ in ASKED:
        assert vary(client, CALENDAR, asked)[0] == [b"Accept-Language"]  # too small to compress
    client.cookies.set("matchstate_lang", "en")
    assert vary(client, "/stats", "es") == ([b"Accept-Language, Accept-Encoding"], "en")


@pytest.mark.parametrize("path", ["/api/time", "/api/matches", "/api/rules", "/api/tournaments/cup",
                                  "/static/style.css", "/sw.js", "/manifest.webmanifest"])
def test_an_answer_the_same_in_every_language_does_not_say_it_varies_by_it(client: TestClient, path: str) -> None:
    for asked, _ in ASKED:
        assert not any(b"accept-language" in value.lower() for value in vary(client, path, asked)[0]), path
