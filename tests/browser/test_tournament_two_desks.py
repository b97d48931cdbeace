"""Two record keepers at the desk of one tournament, each in a browser of their own: the one whose page shows the
tournament as it was before the other's change is told so in their language, and nothing of theirs is made over
the other's (no schedule, no match); once the page is loaded again, their change is made."""

from __future__ import annotations

from typing import Any

import pytest

from browser.browsing import LEAGUE_KEY, PHONE, fill_schedule, get, post, to_spanish
from matchstate.web.process import ServerProcess

DONE = {"en": "The fixture is scheduled.", "es": "El partido está programado."}
CHANGED = {"en": "the tournament otono changed since you opened it (version 2, now 4): reload it",
           "es": "el torneo otono cambió desde que lo abrió (versión 2, ahora 4): vuelva a cargarlo"}


def desk(server: ServerProcess, new_page: Any, language: str) -> Any:
    """A desk page in a browser of its own, in ``language``, holding the league key."""
    page = new_page(viewport=PHONE)
    page.goto(server.base + "/tournaments/otono/desk")
    if language == "es":
        to_spanish(page)
    page.fill("#desk-key", LEAGUE_KEY)
    return page


def schedule(page: Any, fixture: str, time: str) -> None:
    fill_schedule(page, fixture, day="2026-12-05", time=time)
    page.click("#schedule-form button")


def fixtures(server: ServerProcess) -> dict[str, dict[str, Any]]:
    return {fixture["id"]: fixture for fixture in get(server, "/api/tournaments/otono")["fixtures"]}


@pytest.mark.parametrize("language", ["en", "es"])
def test_a_desk_behind_another_desks_change_is_told_to_reload_and_changes_nothing_until_it_does(
        server: ServerProcess, new_page: Any, language: str) -> None:
    teams = [{"name": name, "roster": [{"player": n, "name": f"{name} {n}", "handicap": 2} for n in range(1, 5)]}
             for name in ("Blue", "Red", "Gold", "Green")]
    post(server, "/api/tournaments", {"slug": "otono", "name": "Copa de Otoño", "teams": teams}, LEAGUE_KEY)
    post(server, "/api/tournaments/otono/draw", {"format": "bracket", "seed": "s"}, LEAGUE_KEY)
    first, second = desk(server, new_page, language), desk(server, new_page, language)
    # The first desk opens a match in place (no reload), then schedules: its own change does not put it behind.
    first.select_option("#open-form select[name=fixture]", "Cup-R1-1")
    first.click("#open-form button")
    first.wait_for_selector("#opened .scorer-key")
    with first.expect_navigation():
        schedule(first, "Cup-R1-1", "15:00")
    first.wait_for_selector(f"#desk-message >> text={DONE[language]}")
    # The second desk, its page made before both changes, schedules another fixture and opens its match.
    schedule(second, "Cup-R1-2", "17:00")
    second.wait_for_selector(f"#desk-message >> text={CHANGED[language]}")
    second.select_option("#open-form select[name=fixture]", "Cup-R1-2")
    with second.expect_response(lambda response: response.url.split("?")[0].endswith("/match")) as answer:
        second.click("#open-form button")
    assert answer.value.status == 409
    second.wait_for_selector(f"#desk-message >> text={CHANGED[language]}")
    assert second.locator("#opened .scorer-key").count() == 0
    now = fixtures(server)
    assert (now["Cup-R1-1"]["time"], now["Cup-R1-1"]["match"]) == ("15:00", "otono-Cup-R1-1")
    assert (now["Cup-R1-2"]["time"], now["Cup-R1-2"]["match"]) == ("", None)
    assert [match["code"] for match in get(server, "/api/matches")] == ["otono-Cup-R1-1"]
    second.reload()
    second.fill("#desk-key", LEAGUE_KEY)
    with second.expect_navigation():
        schedule(second, "Cup-R1-2", "17:00")
    second.wait_for_selector(f"#desk-message >> text={DONE[language]}")
    assert [fixture["time"] for fixture in fixtures(server).values()][:2] == ["15:00", "17:00"]
    assert not first.errors and all("status of 409" in error for error in second.errors)  # the refusals alone
