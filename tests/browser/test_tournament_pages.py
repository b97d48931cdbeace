"""The tournament desk and the public tournament page as a record keeper and a spectator use them, on a phone
and a laptop, in English and Spanish: a draw, a schedule and a result kept on paper flowing into the bracket;
a live score updating; axe finding nothing serious."""

from __future__ import annotations

import json
import urllib.request
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from browser.browsing import LEAGUE_KEY, NARROW_PHONE, PHONE, TIMEOUT_MS, fill_schedule, get, post, send, to_spanish
from browser.conftest import watch
from browser.test_accessibility import GRAVE, described
from browser.test_accessibility import axe as axe  # the fixture
from matchstate.web.process import ServerProcess
from matchstate.words import phrase

LAPTOP = {"width": 1280, "height": 800}
DONE = {"en": ("The draw is made.", "The fixture is scheduled.", "The result is entered."),
        "es": ("El sorteo está hecho.", "El partido está programado.", "El resultado está cargado.")}


def roster(name: str, handicap: int) -> dict[str, Any]:
    return {"name": name, "roster": [{"player": n, "name": f"{name} {n}", "handicap": handicap} for n in range(1, 5)]}


def tournament(server: ServerProcess) -> None:
    post(server, "/api/tournaments", {"slug": "otono", "name": "Copa de Otoño", "starts": "2026-12-05",
                                      "ends": "2026-12-12", "venue": "Pilar",
                                      "teams": [roster("Blue", 3), roster("Red", 2), roster("Gold", 1),
                                                roster("Green", 0)]}, LEAGUE_KEY)


def paper_rest(home: str, start: datetime | None = None, step: timedelta = timedelta(seconds=1)) -> str:
    """The lines of a result kept on paper after its match.start (at ``start``, now unless given): ``home`` scores
    once in one chukker, an event each ``step``."""
    begun = start or datetime.now(UTC)

    def at(n: int) -> str:
        return (begun + n * step).isoformat().replace("+00:00", "Z")

    events = [{"type": "chukker.start", "chukker": 1, "at": at(1)}, {"type": "goal", "team": home, "at": at(2)},
              {"type": "chukker.end", "chukker": 1, "at": at(3)}, {"type": "match.end", "at": at(4)}]
    return "\n".join(json.dumps(event) for event in events)


def in_language(page: Any, language: str) -> None:
    if language == "es":
        to_spanish(page)


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_desk_draws_schedules_and_takes_a_result_kept_on_paper(server: ServerProcess, new_page: Any,
                                                                    viewport: dict[str, int], language: str) -> None:
    tournament(server)
    page = new_page(viewport=viewport)
    page.goto(server.base + "/tournaments/otono/desk")
    in_language(page, language)
    drawn, scheduled, entered = DONE[language]
    page.fill("#desk-key", LEAGUE_KEY)
    page.select_option("#draw-form select[name=format]", "bracket")
    page.fill("#draw-form input[name=seed]", "otoño-2026")
    with page.expect_navigation():
        page.click("#draw-form button")
    page.wait_for_selector(f"#desk-message >> text={drawn}")
    assert page.locator("svg.bracket .fixture").count() == 3
    fill_schedule(page, "Cup-R1-1", day="2026-12-05", time="15:00", field="Cancha 1")
    with page.expect_navigation():
        page.click("#schedule-form button")
    page.wait_for_selector(f"#desk-message >> text={scheduled}")
    assert "2026-12-05 15:00 · Cancha 1" in page.inner_text('.fixture-row[data-fixture="Cup-R1-1"]')
    # The log's first line is the desk's: the match the tournament plays (its rosters, conditions and name).
    page.select_option("#import-form select[name=fixture]", "Cup-R1-1")
    log = page.locator("#import-form textarea[name=log]")
    page.click("#paper-start")
    page.wait_for_function("() => document.querySelector('#import-form textarea').value.includes('match.start')")
    start = json.loads(log.input_value().splitlines()[0])
    assert (start["teams"], start["event"], start["rosters"]["Blue"][0]) == (
        ["Blue", "Green"], "Copa de Otoño", {"player": 1, "name": "Blue 1", "handicap": 3})
    # Stamped at the fixture's kickoff, past: stamped now, a match of 20 minutes typed after it was refused as
    # "ahead of the server's clock".
    kickoff = datetime.fromisoformat(start["at"])
    assert kickoff.astimezone().strftime("%Y-%m-%d %H:%M") == "2026-12-05 15:00"  # the desk's time, the venue's
    page.keyboard.insert_text(paper_rest("Blue", kickoff, timedelta(minutes=7)))  # typed on after it
    with page.expect_navigation():
        page.click("#import-form button:not(#paper-start)")
    page.wait_for_selector(f"#desk-message >> text={entered}")
    # The winner has gone on into the final, drawn in the bracket: Green, 12 goals up on handicap to Blue's one.
    final = page.locator('svg.bracket [data-fixture="Cup-R2-1"] text.team').first
    assert final.text_content() == "Green"
    assert page.locator('svg.bracket [data-fixture="Cup-R1-1"] text.won').text_content() == "Green"
    width = page.evaluate("() => document.documentElement.scrollWidth")
    assert width <= viewport["width"], "the page is wider than the screen"
    assert not page.errors


def test_a_wrong_key_is_refused_in_words(server: ServerProcess, new_page: Any) -> None:
    tournament(server)
    page = new_page(viewport=PHONE)
    page.goto(server.base + "/tournaments/otono/desk")
    page.fill("#desk-key", "not-the-key")
    page.fill("#draw-form input[name=seed]", "x")
    page.click("#draw-form button")
    page.wait_for_selector("#desk-message:not(:empty)")
    assert "league" in page.inner_text("#desk-message").lower()
    assert page.evaluate("document.activeElement.id") == "desk-key"  # where the key is given again (it was the page)


def test_the_desks_schedule_shows_what_the_fixture_has_so_a_new_time_keeps_its_field(server: ServerProcess,
                                                                                   new_page: Any) -> None:
    tournament(server)
    post(server, "/api/tournaments/otono/draw", {"format": "bracket", "seed": "s"}, LEAGUE_KEY)
    post(server, "/api/tournaments/otono/fixtures/Cup-R1-2/schedule",
         {"day": "2026-12-05", "time": "15:00", "field": "Cancha 2"}, LEAGUE_KEY, method="PUT")
    page = new_page(viewport=PHONE)
    page.goto(server.base + "/tournaments/otono/desk")
    page.fill("#desk-key", LEAGUE_KEY)
    page.select_option("#schedule-form select[name=fixture]", "Cup-R1-2")
    assert [page.input_value(f"#schedule-form input[name={name}]") for name in ("day", "time", "field")] == [
        "2026-12-05", "15:00", "Cancha 2"]
    page.fill("#schedule-form input[name=time]", "16:30")
    with page.expect_navigation():
        page.click("#schedule-form button")
    page.wait_for_selector(f"#desk-message >> text={DONE['en'][1]}")
    assert "2026-12-05 16:30 · Cancha 2" in page.inner_text('.fixture-row[data-fixture="Cup-R1-2"]')
    page.select_option("#schedule-form select[name=fixture]", "Cup-R1-1")  # one not scheduled: nothing shown
    assert page.input_value("#schedule-form input[name=field]") == ""
    assert not page.errors


@pytest.mark.parametrize("language", ["en", "es"])
def test_long_names_keep_the_desk_the_packet_and_the_page_within_a_narrow_phone(server: ServerProcess,
                                                                                new_page: Any, language: str) -> None:
    """A consolation bracket fed by losers made the desk's fixture list 562 pixels wide in Spanish, a results
    packet's table 550, and a field named in one long word the fixture list 5,543."""
    tournament(server)
    post(server, "/api/tournaments/otono/draw", {"format": "bracket", "seed": "s"}, LEAGUE_KEY)
    post(server, "/api/tournaments/otono/brackets", {"stage": "Copa Consuelo de Invierno", "consolation": True,
                                                    "entrants": [{"kind": "loser", "ref": "Cup-R1-1"},
                                                                 {"kind": "loser", "ref": "Cup-R1-2"}]}, LEAGUE_KEY)
    post(server, "/api/tournaments/otono/fixtures/Cup-R1-1/schedule",
         {"day": "2026-12-05", "time": "15:00", "field": "CanchaPrincipalDelClubDePoloLaQuerenciaDelNorte" * 2},
         LEAGUE_KEY, method="PUT")
    page = new_page(viewport=NARROW_PHONE)
    page.goto(server.base + "/tournaments/otono")
    in_language(page, language)  # kept for the pages after it
    for path in ("/tournaments/otono/desk", "/tournaments/otono/packet", "/tournaments/otono"):
        page.goto(server.base + path)
        width = page.evaluate("() => document.documentElement.scrollWidth")
        assert width <= NARROW_PHONE["width"], f"{path} is {width} pixels wide"
    assert not page.errors


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_desk_opens_a_fixtures_match_and_shows_its_keys_once_with_links_that_open_it(
        server: ServerProcess, new_page: Any, language: str) -> None:
    """The desk drew, scheduled and took results on paper, but a match to score live had to be opened through the
    API: its keys now show in the desk, once, each with the link that opens the console or the review."""
    tournament(server)
    post(server, "/api/tournaments/otono/draw", {"format": "bracket", "seed": "s"}, LEAGUE_KEY)
    page = new_page(viewport=NARROW_PHONE)
    page.goto(server.base + "/tournaments/otono/desk")
    in_language(page, language)
    page.fill("#desk-key", LEAGUE_KEY)
    page.select_option("#open-form select[name=fixture]", "Cup-R1-1")
    page.click("#open-form button")
    page.wait_for_selector("#opened .scorer-key")
    scorer, official = page.inner_text("#opened .scorer-key"), page.inner_text("#opened .official-key")
    assert scorer and official and scorer != official
    said = {"en": "is open. Its keys are shown only now", "es": "está abierto. Sus claves se muestran solo ahora"}
    assert said[language] in page.inner_text("#opened")
    for form in ("open-form", "import-form"):  # it has its match: neither form offers it again
        assert page.locator(f'#{form} option[value="Cup-R1-1"]').count() == 0
    assert page.evaluate("() => document.documentElement.scrollWidth") <= NARROW_PHONE["width"]
    console = page.get_attribute("#opened .links a:first-child", "href")
    assert console is not None and console.endswith(f"#key={scorer}")
    page.click("#opened .links a:first-child")
    page.wait_for_selector("#console, main")
    assert "/console" in page.url
    fixture = next(f for f in get(server, "/api/tournaments/otono")["fixtures"] if f["id"] == "Cup-R1-1")
    code = fixture["match"]
    assert code and send(server, code, {"type": "chukker.start", "chukker": 1}, scorer)  # the key scores it
    assert not page.errors


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_desk_form_with_no_fixture_to_offer_says_why_and_its_buttons_wait(server: ServerProcess, new_page: Any,
                                                                           language: str) -> None:
    """Before the draw, and once every fixture had its match, the desk's pickers went empty without a word, and
    their buttons did nothing."""
    post(server, "/api/tournaments", {"slug": "pair", "name": "Pair", "teams": [roster("Blue", 2), roster("Red", 2)]},
         LEAGUE_KEY)
    page = new_page(viewport=PHONE)
    page.goto(server.base + "/tournaments/pair/desk")
    in_language(page, language)
    said = {form: page.locator(f"#{form} .no-fixture") for form in ("schedule-form", "open-form", "import-form")}
    assert said["schedule-form"].inner_text() == phrase("tournament", "no-fixture-drawn", language)
    for form in ("open-form", "import-form"):
        assert said[form].inner_text() == phrase("tournament", "no-fixture-waiting", language)
    assert page.locator("#schedule-form button, #open-form button, #import-form button").evaluate_all(
        "all => all.every((button) => !button.checkVisibility())")  # in place of the fields: nothing to tap

    post(server, "/api/tournaments/pair/draw", {"format": "bracket", "seed": "s"}, LEAGUE_KEY)
    page.reload()
    page.wait_for_selector('#open-form select[name=fixture] option[value="Cup-R1-1"]', state="attached")
    assert all(not locator.is_visible() for locator in said.values())
    page.fill("#desk-key", LEAGUE_KEY)
    page.click("#open-form button")  # the one fixture's match: no other waits for one
    page.wait_for_selector("#opened .scorer-key")
    for form in ("open-form", "import-form"):
        assert said[form].is_visible() and page.locator(f"#{form} button").first.is_hidden()
    assert not said["schedule-form"].is_visible() and page.locator("#schedule-form button").is_visible()
    assert not page.errors


def test_a_fixture_whose_match_was_removed_says_so_and_the_desk_opens_it_a_new_match(server: ServerProcess,
                                                                                    new_page: Any) -> None:
    """It showed as scheduled, and neither of the desk's forms offered it again: only the command line could."""
    tournament(server)
    post(server, "/api/tournaments/otono/draw", {"format": "bracket", "seed": "s"}, LEAGUE_KEY)
    code = post(server, "/api/tournaments/otono/fixtures/Cup-R1-1/match", {}, LEAGUE_KEY)["code"]
    post(server, f"/api/matches/{code}", {"reason": "opened by mistake"}, LEAGUE_KEY, method="DELETE")
    page = new_page(viewport=PHONE)
    page.goto(server.base + "/tournaments/otono/desk")
    row = page.locator('.fixture-row[data-fixture="Cup-R1-1"]')
    assert "its match was removed from the store: a new match is needed" in row.inner_text()
    page.fill("#desk-key", LEAGUE_KEY)
    page.select_option("#open-form select[name=fixture]", "Cup-R1-1")
    page.click("#open-form button")
    page.wait_for_selector("#opened .scorer-key")
    assert get(server, "/api/tournaments/otono")["fixtures"][0]["match"] == f"{code}~1"
    assert not page.errors


def test_what_is_typed_on_the_tournament_pages_outlasts_a_change_of_language(server: ServerProcess,
                                                                            new_page: Any) -> None:
    """The toggle renders these pages again, and every field typed was emptied: a tournament's teams, a result
    pasted at the desk."""
    page = new_page(viewport=LAPTOP)
    page.goto(server.base + "/tournaments")
    page.wait_for_selector("#new-tournament")
    page.fill("#desk-key", LEAGUE_KEY)
    page.fill('#new-tournament [name="name"]', "Copa de Invierno")
    page.click("#add-team")
    for n, name in enumerate(["Blue", "Red", "Gold"], 1):
        page.fill(f'#teams .team-entry:nth-child({n}) [name="team"]', name)
    page.fill('#teams .team-entry:nth-child(3) [name="player-2"]', "Juan Pérez")
    page.fill('#teams .team-entry:nth-child(3) [name="handicap-2"]', "5")
    to_spanish(page)
    assert page.input_value('#new-tournament [name="slug"]') == "copa-de-invierno"
    assert [page.input_value(f'#teams .team-entry:nth-child({n}) [name="team"]') for n in (1, 2, 3)] == [
        "Blue", "Red", "Gold"]
    assert page.input_value('#teams .team-entry:nth-child(3) [name="player-2"]') == "Juan Pérez"
    assert page.input_value('#teams .team-entry:nth-child(3) [name="handicap-2"]') == "5"
    assert page.input_value("#desk-key") == LEAGUE_KEY  # the page's own, as ever: no key is kept with the rest

    tournament(server)
    post(server, "/api/tournaments/otono/draw", {"format": "bracket", "seed": "s"}, LEAGUE_KEY)
    page.goto(server.base + "/tournaments/otono/desk")
    pasted = paper_rest("Blue")
    page.fill("#import-form textarea[name=log]", pasted)
    page.click("#lang")  # back to English: rendered again
    page.wait_for_selector("html[lang=en] #lang >> text=Español")
    assert page.input_value("#import-form textarea[name=log]") == pasted
    assert not page.errors


def test_a_draw_made_again_is_asked_for_before_it_replaces_the_fixtures_and_their_schedule(
        server: ServerProcess, new_page: Any) -> None:
    """A second draw dropped the brackets added by hand and every fixture's day, time and field, unasked."""
    tournament(server)
    post(server, "/api/tournaments/otono/draw", {"format": "bracket", "seed": "s"}, LEAGUE_KEY)
    post(server, "/api/tournaments/otono/fixtures/Cup-R1-1/schedule", {"day": "2026-12-05", "time": "15:00"},
         LEAGUE_KEY, method="PUT")
    page = new_page(viewport=PHONE)
    page.goto(server.base + "/tournaments/otono/desk")
    page.fill("#desk-key", LEAGUE_KEY)
    page.select_option("#draw-form select[name=format]", "groups")
    page.fill("#draw-form input[name=seed]", "again")
    page.click("#draw-form button")  # not asked yet: the form is not sent
    assert page.evaluate("() => document.querySelector('#draw-form input[name=again]').validity.valueMissing")
    assert get(server, "/api/tournaments/otono")["fixtures"][0]["day"] == "2026-12-05"
    page.check("#draw-form input[name=again]")
    with page.expect_navigation():
        page.click("#draw-form button")
    page.wait_for_selector(f"#desk-message >> text={DONE['en'][0]}")
    assert all(f["kind"] == "group" for f in get(server, "/api/tournaments/otono")["fixtures"])
    assert not page.errors


def test_enter_in_the_key_field_keeps_the_key_on_the_page_and_out_of_the_address(server: ServerProcess,
                                                                                 new_page: Any) -> None:
    tournament(server)
    page = new_page(viewport=PHONE)
    page.goto(server.base + "/tournaments/otono/desk")
    page.fill("#desk-key", LEAGUE_KEY)
    page.press("#desk-key", "Enter")
    page.wait_for_function("key => sessionStorage.getItem('matchstate:league-key') === key", arg=LEAGUE_KEY)
    assert page.url == server.base + "/tournaments/otono/desk"  # not ?key=...: no history or address holds it
    assert page.input_value("#desk-key") == LEAGUE_KEY
    page.fill("#draw-form input[name=seed]", "s")
    with page.expect_navigation():
        page.click("#draw-form button")  # the key kept is the one the desk acts with
    page.wait_for_selector(f"#desk-message >> text={DONE['en'][0]}")
    assert not page.errors


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["phone", "laptop"])
def test_the_public_page_keeps_a_score_live(server: ServerProcess, new_page: Any, viewport: dict[str, int],
                                            language: str) -> None:
    tournament(server)
    post(server, "/api/tournaments/otono/draw", {"format": "bracket", "seed": "s"}, LEAGUE_KEY)
    opened = post(server, "/api/tournaments/otono/fixtures/Cup-R1-1/match", {}, LEAGUE_KEY)
    send(server, opened["code"], {"type": "chukker.start", "chukker": 1}, opened["scorer_key"])
    page = new_page(viewport=viewport)
    page.goto(server.base + "/tournaments/otono")
    in_language(page, language)
    row = page.locator('.fixture-row[data-fixture="Cup-R1-1"]')
    before = row.locator("[data-score]").inner_text()
    assert before == "0 – 12"  # Green's goals by handicap: 12 against 0, over 6 chukkers
    page.wait_for_load_state("networkidle")
    send(server, opened["code"], {"type": "goal", "team": "Blue"}, opened["scorer_key"])
    page.wait_for_selector('.fixture-row[data-fixture="Cup-R1-1"] [data-score] >> text="1 – 12"')
    playing = {"en": "playing", "es": "en juego"}[language]
    assert row.locator("[data-status]").inner_text() == playing
    assert not page.errors


@pytest.mark.parametrize("language", ["en", "es"])
def test_the_public_page_says_live_that_a_knockout_ended_level_and_that_it_plays_on(
        server: ServerProcess, new_page: Any, language: str) -> None:
    """A knockout that ended level showed "ended" on the live page until it was loaded again: its words are now the
    ones a page loaded afresh has, as the match ends and as its end is voided to play on."""
    post(server, "/api/tournaments", {"slug": "final", "name": "Final", "teams": [roster("Blue", 2), roster("Red", 2)],
                                      "fixtures": [{"id": "F", "stage": "Cup", "kind": "knockout", "round": 1,
                                                    "home": "Blue", "away": "Red"}]}, LEAGUE_KEY)
    opened = post(server, "/api/tournaments/final/fixtures/F/match", {}, LEAGUE_KEY)
    code, scorer = opened["code"], opened["scorer_key"]
    send(server, code, {"type": "chukker.start", "chukker": 1}, scorer)
    page = new_page(viewport=PHONE)
    page.goto(server.base + "/tournaments/final")
    in_language(page, language)
    row = '.fixture-row[data-fixture="F"]'
    page.evaluate("""row => {  // every status the row says, kept on the page: gone, were it loaded again
      window.said = [];
      const status = document.querySelector(`${row} [data-status]`);
      new MutationObserver(() => window.said.push(status.textContent)).observe(status, {childList: true});
    }""", row)
    send(server, code, {"type": "goal", "team": "Blue"}, scorer)
    page.wait_for_selector(f'{row} [data-score] >> text="1 – 0"')  # the stream is followed
    for event in ({"type": "goal", "team": "Red"}, {"type": "chukker.end", "chukker": 1}, {"type": "match.end"}):
        last = send(server, code, event, scorer)
    level = phrase("tournament", "status-level", language)
    page.wait_for_selector(f"{row}.level [data-status] >> text={level}")
    assert page.inner_text(f"{row} [data-score]") == "1 – 1"
    send(server, code, {"type": "void", "seq": last["event"]["seq"], "reason": "played on"}, opened["official_key"])
    page.wait_for_selector(f"{row}.playing [data-status] >> text={phrase('tournament', 'status-playing', language)}")
    ended = phrase("tournament", "status-ended", language)
    assert ended not in page.evaluate("() => window.said"), "the knockout said it had ended, not that it ended level"
    assert not page.errors


@pytest.mark.parametrize("language", ["en", "es"])
@pytest.mark.parametrize("path", ["/tournaments", "/tournaments/otono", "/tournaments/otono/desk"])
def test_axe_finds_nothing_serious_on_the_tournament_pages(server: ServerProcess, new_page: Any, axe: Path,
                                                           path: str, language: str) -> None:
    tournament(server)
    post(server, "/api/tournaments/otono/draw", {"format": "groups", "groups": 1, "seed": "s"}, LEAGUE_KEY)
    post(server, "/api/tournaments/otono/brackets", {"stage": "Cup", "entrants": [
        {"kind": "place", "ref": "A", "place": n} for n in range(1, 5)]}, LEAGUE_KEY)
    page = new_page(viewport=LAPTOP, bypass_csp=True)  # axe-core goes in as an inline script, which the CSP refuses
    page.goto(server.base + path)
    in_language(page, language)
    page.add_script_tag(path=str(axe))
    results = page.evaluate("async () => await axe.run(document, {resultTypes: ['violations']})")
    grave = [v for v in results["violations"] if v["impact"] in GRAVE]
    assert not grave, f"{path} in {language}:\n{described(grave)}"


def test_the_next_match_console_and_review_say_who_sits_out_before_the_first_chukker(server: ServerProcess,
                                                                                     new_page: Any) -> None:
    tournament(server)
    post(server, "/api/tournaments/otono/draw", {"format": "bracket", "seed": "s"}, LEAGUE_KEY)
    start = datetime.now(UTC) - timedelta(hours=3)

    def paper(fixture: str, code: str, cards: bool) -> str:
        """The fixture's result: its home team scores once, its away team wins on handicap (and, with ``cards``,
        its player 1 has two yellow cards)."""
        def at(n: int) -> str:
            return (start + timedelta(minutes=10 if cards else 0, seconds=n)).isoformat().replace("+00:00", "Z")

        request = urllib.request.Request(f"{server.base}/api/tournaments/otono/fixtures/{fixture}/start",
                                         headers={"Authorization": f"Bearer {LEAGUE_KEY}"})
        with urllib.request.urlopen(request, timeout=10) as answer:
            begun = {**json.load(answer), "at": at(0), "match": code}
        home, away = begun["teams"]
        events = [begun, {"type": "chukker.start", "chukker": 1, "at": at(1)}]
        if cards:
            events += [{"type": "card", "team": away, "player": 1, "colour": "yellow", "at": at(n)} for n in (2, 3)]
        events += [{"type": "goal", "team": home, "at": at(4)}, {"type": "chukker.end", "chukker": 1, "at": at(5)},
                   {"type": "match.end", "at": at(6)}]
        return "\n".join(json.dumps(event) for event in events)

    for fixture, code, cards in (("Cup-R1-1", "semi-1", True), ("Cup-R1-2", "semi-2", False)):
        request = urllib.request.Request(f"{server.base}/api/tournaments/otono/fixtures/{fixture}/import",
                                         paper(fixture, code, cards).encode(), method="POST",
                                         headers={"Authorization": f"Bearer {LEAGUE_KEY}"})
        urllib.request.urlopen(request, timeout=10).close()
    final = post(server, "/api/tournaments/otono/fixtures/Cup-R2-1/match", {}, LEAGUE_KEY)
    page = new_page(viewport=PHONE)
    for path in (f"/matches/{final['code']}/console#key={final['scorer_key']}",
                 f"/matches/{final['code']}/review#key={final['official_key']}"):
        page.goto(server.base + path)
        notice = page.wait_for_selector(".sit-outs li")
        assert notice.inner_text() == ("Green 1 (Green): the first 2:00 of play, for two yellow cards "
                                       "(the second in semi-1)")
    assert not page.errors


def busy_day(server: ServerProcess, matches: int = 8) -> dict[str, Any]:
    """A day of ``matches`` fixtures, each with its match opened in the morning and none started: each one's keys,
    by fixture."""
    names = [f"Team {n}" for n in range(2 * matches)]
    fixtures: list[dict[str, Any]] = [
        {"id": f"M{n}", "stage": "Day", "kind": "knockout", "round": 1, "home": names[2 * n], "away": names[2 * n + 1],
         "day": "2026-12-07", "time": f"{9 + n:02d}:00", "field": f"Field {n % 4 + 1}"} for n in range(matches)]
    post(server, "/api/tournaments", {"slug": "busy", "name": "Busy day", "starts": "2026-12-07", "ends": "2026-12-07",
                                      "teams": [roster(name, 0) for name in names], "fixtures": fixtures}, LEAGUE_KEY)
    return {f["id"]: post(server, f"/api/tournaments/busy/fixtures/{f['id']}/match", {}, LEAGUE_KEY) for f in fixtures}


def test_a_busy_day_keeps_every_score_live_and_leaves_the_browser_room_for_the_desk(server: ServerProcess,
                                                                                    new_page: Any) -> None:
    opened = busy_day(server, 9)
    public = new_page(viewport=LAPTOP)
    streams: set[str] = set()
    public.on("request", lambda request: streams.add(request.url) if "/stream" in request.url else None)
    public.goto(server.base + "/tournaments/busy")
    last = opened["M8"]
    send(server, last["code"], {"type": "chukker.start", "chukker": 1}, last["scorer_key"])
    send(server, last["code"], {"type": "goal", "team": "Team 16"}, last["scorer_key"])
    row = '.fixture-row[data-fixture="M8"]'
    public.wait_for_selector(f'{row}.playing [data-score] >> text="1 – 0"')
    assert public.inner_text(f"{row} [data-status]") == "playing"
    # The desk in another tab of the same browser, which a browser allows six connections to the server in all.
    desk = watch(public.context.new_page())
    desk.set_default_timeout(TIMEOUT_MS)
    desk.goto(server.base + "/tournaments/busy/desk")
    desk.fill("#desk-key", LEAGUE_KEY)
    fill_schedule(desk, "M3", time="18:00")
    with desk.expect_navigation():
        desk.click("#schedule-form button")
    desk.wait_for_selector(f"#desk-message >> text={DONE['en'][1]}")
    first = opened["M0"]
    send(server, first["code"], {"type": "chukker.start", "chukker": 1}, first["scorer_key"])
    send(server, first["code"], {"type": "goal", "team": "Team 1"}, first["scorer_key"])
    public.wait_for_selector('.fixture-row[data-fixture="M0"] [data-score] >> text="0 – 1"')
    assert len(streams) == 1, f"the page opened {len(streams)} streams"
    assert not public.errors and not desk.errors


@pytest.mark.parametrize(("language", "viewport"), [("en", PHONE), ("es", LAPTOP)], ids=["en-phone", "es-laptop"])
def test_a_record_keeper_creates_a_tournament_with_its_teams_from_the_records_page(
        server: ServerProcess, new_page: Any, language: str, viewport: dict[str, int]) -> None:
    """A tournament could be made only by a POST to the API: no page listed tournaments or created one."""
    page = new_page(viewport=viewport)
    page.goto(server.base + "/")
    in_language(page, language)
    page.click('nav a[href="/tournaments"]')
    page.wait_for_selector("#new-tournament")
    assert page.inner_text("#tournaments .quiet") == phrase("tournament", "none-yet", language)
    for name, value in {"name": "Copa de Verano", "slug": "verano", "starts": "2027-01-08", "ends": "2027-01-17",
                        "venue": "Pilar", "chukkers": "4"}.items():
        page.fill(f'#new-tournament [name="{name}"]', value)
    page.click("#add-team")  # a third team: its name has the keyboard
    assert page.evaluate("document.activeElement.name") == "team"
    for n, team in enumerate(["Blue", "Red", "Gold"], 1):
        entry = f"#teams .team-entry:nth-child({n})"
        page.fill(f'{entry} [name="team"]', team)
        for player in (1, 2, 3):  # the fourth left unnamed: not entered
            page.fill(f'{entry} [name="player-{player}"]', f"{team} {player}")
            page.fill(f'{entry} [name="handicap-{player}"]', str(player))
    page.fill("#desk-key", "not-the-league-key")
    page.click('#new-tournament button:not([type="button"])')
    page.wait_for_selector(f"#desk-message >> text={phrase('refusal', 'league-key-wrong', language)}")
    assert get(server, "/api/tournaments") == []  # refused: nothing made, and the form keeps what was typed
    assert page.input_value('#teams .team-entry:nth-child(3) [name="team"]') == "Gold"
    page.fill("#desk-key", LEAGUE_KEY)
    page.click('#new-tournament button:not([type="button"])')
    page.wait_for_url("**/tournaments/verano/desk")
    page.wait_for_selector(f"#desk-message >> text={phrase('tournament', 'done-created', language)}")
    made = get(server, "/api/tournaments/verano")
    assert (made["name"], made["starts"], made["ends"], made["venue"], made["conditions"]["chukkers"]) == (
        "Copa de Verano", "2027-01-08", "2027-01-17", "Pilar", 4)
    entered = [(team["name"], [(p["player"], p["name"], p["handicap"]) for p in team["roster"]])
               for team in made["teams"]]
    assert entered == [(team, [(n, f"{team} {n}", n) for n in (1, 2, 3)]) for team in ["Blue", "Red", "Gold"]]
    page.go_back()
    page.reload()
    assert page.inner_text(".tournament-list").startswith("Copa de Verano")
    assert [error for error in page.errors if "403 (Forbidden)" not in error] == []  # the wrong key's refusal


def test_a_tournaments_address_follows_its_name_until_one_is_typed_and_its_end_cannot_precede_its_start(
        server: ServerProcess, new_page: Any) -> None:
    """The address had to be made up and typed on a phone; the end's picker offered days before the start."""
    page = new_page(viewport=PHONE)
    page.goto(server.base + "/tournaments")
    page.wait_for_selector("#new-tournament")
    name, slug = page.locator('#new-tournament [name="name"]'), page.locator('#new-tournament [name="slug"]')
    name.press_sequentially("Copa Días de Otoño 2026")
    assert slug.input_value() == "copa-dias-de-otono-2026"
    slug.fill("otono")
    name.fill("Copa de Otoño")
    assert slug.input_value() == "otono"  # typed by the record keeper: the name no longer changes it
    slug.fill("")
    name.fill("Abierto del Sur")
    assert slug.input_value() == "abierto-del-sur"  # emptied: it follows the name again
    page.fill('#new-tournament [name="starts"]', "2027-03-10")
    assert page.get_attribute('#new-tournament [name="ends"]', "min") == "2027-03-10"
    page.fill('#new-tournament [name="ends"]', "2027-03-12")
    for n, team in enumerate(["Blue", "Red"], 1):
        page.fill(f'#teams .team-entry:nth-child({n}) [name="team"]', team)
    page.fill("#desk-key", LEAGUE_KEY)
    page.click("#add-team")  # a third team's players typed, its name forgotten: it was left out without a word
    page.fill('#teams .team-entry:nth-child(3) [name="player-1"]', "Juan Pérez")
    page.click('#new-tournament button:not([type="button"])')
    page.wait_for_selector("#desk-message >> text=Team 3 has players but no name")
    assert page.evaluate("document.activeElement.name") == "team" and get(server, "/api/tournaments") == []
    page.fill('#teams .team-entry:nth-child(3) [name="team"]', "Gold")
    page.click('#new-tournament button:not([type="button"])')
    page.wait_for_url("**/tournaments/abierto-del-sur/desk")
    made = get(server, "/api/tournaments/abierto-del-sur")
    assert made["name"] == "Abierto del Sur" and [team["name"] for team in made["teams"]] == ["Blue", "Red", "Gold"]
    assert page.errors == []


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_page_refused_in_a_browser_says_why_in_words_not_json(server: ServerProcess, new_page: Any,
                                                                 language: str) -> None:
    """The desk's ledger link before its key, an unknown tournament's desk: the browser showed the API's JSON."""
    page = new_page(viewport=NARROW_PHONE)
    page.goto(server.base + "/")
    in_language(page, language)
    for path, status, reason in [
            ("/discipline", 401, phrase("refusal", "league-key-missing", language)),
            ("/tournaments/nowhere/desk", 404, "nowhere"),
            ("/matches/nowhere/console", 404, "nowhere"),  # a kept page's address: no "no offline copy" said
            ("/no-such-page", 404, phrase("page", "not-found", language))]:
        answer = page.goto(server.base + path)
        assert answer is not None and answer.status == status, path
        assert page.inner_text("h1") == phrase("page", "error-title", language, status=status)
        assert reason in page.inner_text(".refused-page .reason") and "{" not in page.inner_text("body"), path
        assert page.evaluate("document.documentElement.scrollWidth <= innerWidth"), f"{path} overflows"
        assert page.get_attribute("body", "data-kept-offline") is None and page.is_hidden("#unkept"), path
    page.goto(server.base + "/discipline?team=Blue")  # the league's ledger: its key asked for on the page
    page.fill(".key-form [name=key]", LEAGUE_KEY)
    page.click(".key-form button")
    page.wait_for_url("**/discipline?team=Blue&key=*")  # opened with it, its search kept
    assert page.locator(".refused-page").count() == 0
    page.go_back()
    page.click(".refused-page a")
    page.wait_for_selector("#matches")  # back on the records page
    assert [error for error in page.errors if "404" not in error and "401" not in error] == []


def test_a_tournament_created_with_no_answer_from_the_server_says_so(server: ServerProcess, new_page: Any) -> None:
    """Its request unanswered, the page said nothing at all (an unhandled rejection)."""
    page = new_page(viewport=LAPTOP)
    page.goto(server.base + "/tournaments")
    for name, value in {"name": "Copa", "slug": "copa", "starts": "2027-01-08", "ends": "2027-01-17"}.items():
        page.fill(f'#new-tournament [name="{name}"]', value)
    page.fill("#desk-key", LEAGUE_KEY)
    page.route("**/api/tournaments", lambda route: route.abort())
    page.click('#new-tournament button:not([type="button"])')
    page.wait_for_selector(f"#desk-message >> text={phrase('tournament', 'unanswered', 'en')}")
    assert page.input_value('#new-tournament [name="slug"]') == "copa"  # kept, to send again
    assert [error for error in page.errors if "ERR_FAILED" not in error] == []
