"""Every page loads its ES modules with no JavaScript error; the records page creates a match; the
service worker is the version of the files served; the server tells its time."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from browser.browsing import (
    LEAGUE_KEY,
    TABLET,
    create,
    fill_new_match,
    get,
    league_store,
    log,
    send,
    wait_until_kept,
)
from matchstate.store import Store
from matchstate.web.app import create_app
from matchstate.web.pages import files_version
from matchstate.web.process import ServerProcess


@pytest.mark.parametrize("page_name", ["records", "console", "review", "sheet", "scoreboard", "every scoreboard"])
def test_every_page_loads_its_modules_with_no_javascript_error(server: ServerProcess, new_page: Any,
                                                               page_name: str) -> None:
    created = create(server, "pages-1")
    path = {"records": "/", "console": f"/matches/pages-1/console#key={created['scorer_key']}",
            "review": f"/matches/pages-1/review#key={created['official_key']}", "sheet": "/matches/pages-1/sheet",
            "scoreboard": "/matches/pages-1/scoreboard", "every scoreboard": "/scoreboard"}
    page = new_page(viewport=TABLET)
    page.goto(server.base + path[page_name])
    page.wait_for_load_state("networkidle")
    if page_name in ("console", "review", "scoreboard", "every scoreboard"):
        page.wait_for_selector(f"#{page_name.split()[-1]}.ready")
    if page_name == "records":
        page.wait_for_selector("#matches >> text=pages-1")
    scripts = page.eval_on_selector_all("script", "nodes => nodes.map((s) => [s.type, s.getAttribute('src')])")
    # Every script is a module (the catalog's words run first in the page's own).
    assert scripts and all(kind == "module" for kind, _ in scripts)
    assert page.errors == []


def test_a_scorer_holding_a_key_opens_the_console_in_one_script_and_asks_for_each_first_read_once(
        server: ServerProcess, new_page: Any) -> None:
    created = create(server, "one-round")
    page = new_page(viewport=TABLET)
    page.goto(f"{server.base}/matches/one-round/console#key={created['scorer_key']}")  # the key is kept
    page.wait_for_selector("#console.ready")
    asked: list[str] = []
    page.on("request", lambda request: asked.append(request.url.removeprefix(server.base).split("?")[0]))
    page.reload()  # as a scorer opens it again, their key in the browser: the worker's copies are not asked for
    page.wait_for_selector("#console.ready")
    page.wait_for_function("() => document.querySelector('#score').textContent !== ''")
    static = sorted(path for path in asked if path.startswith("/static/"))
    assert static == ["/static/bundle-console.mjs", "/static/styles-console.css"], asked
    # Each first read once: the page's preload and the console's own read are one request, the key or not.
    for path in ("/api/event-types", "/api/rules", "/api/matches/one-round", "/api/matches/one-round/events"):
        assert asked.count(path) == 1, (path, asked)
    assert page.errors == []


@pytest.mark.parametrize("role", ["scorer", "official"])
def test_the_console_is_usable_before_the_server_says_what_its_key_may_do(server: ServerProcess, new_page: Any,
                                                                           role: str) -> None:
    """What a key may do is a read of its own, after the console's first reads (on Slow 3G, 2 s more): the console
    waited for it to open. It opens as a scorer's; an official's own buttons come on when the answer does."""
    code = f"role-later-{role}"
    created = create(server, code)
    page = new_page(viewport=TABLET)
    held: list[Any] = []
    page.route(f"**/api/matches/{code}/role", lambda route: held.append(route))  # answered when the test lets it
    page.goto(f"{server.base}/matches/{code}/console#key={created[f'{role}_key']}")
    page.wait_for_selector("#console.ready")
    page.wait_for_function("() => document.querySelector('#score').textContent !== ''")
    assert held and page.get_attribute("#console", "data-role") is None  # asked, not answered
    assert page.is_disabled('#buttons [data-type="video.sync"]')  # an official's, not yet known to be one
    page.click('#buttons [data-type="chukker.start"]')  # a scorer's tap, logged at once
    page.wait_for_selector(".banner.ok >> text=every event recorded")
    assert [row["type"] for row in log(server, code)] == ["match.start", "chukker.start"]
    held[0].continue_()
    page.wait_for_selector(f'#console[data-role="{role}"]')
    assert page.is_enabled('#buttons [data-type="video.sync"]') is (role == "official")
    assert page.errors == []


def test_a_person_creates_a_match_on_the_records_page_and_receives_its_keys(server: ServerProcess,
                                                                             new_page: Any) -> None:
    page = new_page(viewport=TABLET)
    page.goto(server.base + "/")
    page.fill('#new [name="league_key"]', LEAGUE_KEY)
    page.fill('#new [name="match"]', "pilar-final")
    page.fill('#new [name="event"]', "Abierto de Pilar — Final")
    page.fill('#new [name="team1"]', "La Dolfina")
    page.fill('#new [name="team2"]', "Ellerstina")
    page.fill('#new [name="goals2"]', "1")
    page.fill('#new [name="name1_1"]', "A. Cambiaso")
    page.fill('#new [name="hcp1_1"]', "10")
    page.click("#new button.primary")
    page.wait_for_selector("#created >> text=Match pilar-final created")
    scorer_key = page.inner_text("#created .scorer-key")
    official_key = page.inner_text("#created .official-key")
    assert len(scorer_key) >= 20 and len(official_key) >= 20 and scorer_key != official_key
    page.wait_for_selector("#matches >> text=pilar-final")

    start = log(server, "pilar-final")[0]["event"]
    assert start["teams"] == ["La Dolfina", "Ellerstina"] and start["handicap_goals"] == {"Ellerstina": 1}
    assert start["rosters"] == {"La Dolfina": [{"player": 1, "name": "A. Cambiaso", "handicap": 10}]}
    assert start["id"].startswith("web-")

    # Its console link carries the scorer key: the console opens with it and records with it.
    page.click("#created >> text=Open the scorer's console")
    page.wait_for_selector("#console.ready")
    page.click('#buttons [data-type="chukker.start"] >> text=Chukker 1 start')  # one tap, its number named
    page.wait_for_selector(".banner.ok >> text=every event recorded")
    assert [(row["type"], row["role"]) for row in log(server, "pilar-final")] == [
        ("match.start", "official"), ("chukker.start", "scorer")]
    assert page.errors == []


def test_a_second_tap_on_create_while_the_answer_is_on_its_way_sends_nothing_and_the_keys_stay_shown(
        server: ServerProcess, new_page: Any) -> None:
    page = new_page(viewport=TABLET)
    page.goto(server.base + "/")
    held: list[Any] = []
    page.route("**/api/matches", lambda route: held.append(route) if route.request.method == "POST"
               else route.continue_())
    fill_new_match(page, LEAGUE_KEY, "double-tap")
    page.wait_for_function("() => document.querySelector('#new').getAttribute('aria-busy') === 'true'")
    assert page.is_disabled("#new button.primary")
    page.press('#new [name="match"]', "Enter")  # a second submit, by the keyboard: the button is disabled
    page.evaluate("document.querySelector('#new').requestSubmit()")
    assert len(held) == 1
    held[0].continue_()
    page.wait_for_selector("#created >> text=Match double-tap created")
    assert page.is_enabled("#new button.primary")
    page.wait_for_selector("#matches >> text=double-tap")
    assert len(held) == 1 and page.inner_text("#created .scorer-key")
    assert page.errors == []


def test_a_code_already_taken_is_refused_on_the_records_page_with_the_reason(server: ServerProcess,
                                                                              new_page: Any) -> None:
    create(server, "taken")
    page = new_page(viewport=TABLET)
    page.goto(server.base + "/")
    fill_new_match(page, LEAGUE_KEY, "taken")
    page.wait_for_selector("#created .refused >> text=Not created (409)")


@pytest.mark.parametrize("key", ["", "not-the-league-key"], ids=["no-key", "a-wrong-key"])
def test_a_match_is_created_only_with_the_league_key_and_nothing_is_written_without_it(
        server: ServerProcess, new_page: Any, key: str) -> None:
    page = new_page(viewport=TABLET)
    page.goto(server.base + "/")
    fill_new_match(page, key, "no-league")
    if key:  # an empty key is stopped by the form itself, which marks the field required
        page.wait_for_selector("#created .refused >> text=the league key is missing or is not this league's")
        assert page.evaluate("document.activeElement.name") == "league_key"
    else:
        assert page.evaluate("document.querySelector('#new [name=league_key]').validity.valueMissing")
    assert get(server, "/api/matches") == []


def test_the_league_key_is_remembered_on_the_device_only_when_asked(server: ServerProcess, new_page: Any) -> None:
    page = new_page(viewport=TABLET)
    page.goto(server.base + "/")
    for code, remember in (("kept-1", False), ("kept-2", True)):
        page.set_checked('#new [name="remember"]', remember)
        fill_new_match(page, LEAGUE_KEY, code)
        page.wait_for_selector(f"#created >> text=Match {code} created")
        page.reload()
        assert page.input_value('#new [name="league_key"]') == (LEAGUE_KEY if remember else "")
    # Remembered here, it is the tournaments' desk's too: the desk asked for it again.
    page.goto(server.base + "/tournaments")
    assert page.input_value("#desk-key") == LEAGUE_KEY


def test_the_service_worker_keeps_this_version_of_the_pages_and_files(server: ServerProcess, new_page: Any) -> None:
    page = new_page(viewport=TABLET)
    page.goto(server.base + "/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    script = page.request.get(server.base + "/sw.js").text()
    version = script.split('const VERSION = "')[1].split('"')[0]
    assert page.evaluate("caches.keys()") == [f"matchstate-{version}"]
    kept = page.evaluate(f"""async () => (await (await caches.open('matchstate-{version}')).keys())
                              .map((request) => new URL(request.url).pathname)""")
    assert {"/", "/scoreboard", "/api/event-types", "/api/rules", "/static/bundle-console.mjs",
            "/static/bundle-scoreboard.mjs", "/static/style.css", "/static/styles-scoreboard.css"} <= set(kept)


def test_the_service_worker_keeps_a_matchs_scoreboard_and_opens_it_with_the_server_down(
        server: ServerProcess, new_page: Any) -> None:
    create(server, "kept-board")
    page = new_page(viewport=TABLET)
    page.goto(server.base + "/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    page.goto(server.base + "/matches/kept-board/scoreboard")
    page.wait_for_selector("#scoreboard.ready")
    kept = page.evaluate("""async () => (await caches.open((await caches.keys())[0])).keys()
                              .then((requests) => requests.map((request) => new URL(request.url).pathname))""")
    assert "/matches/kept-board/scoreboard" in kept
    server.stop()
    page.reload()  # its page and files come from the worker: the board says the server does not answer
    page.wait_for_selector("#message >> text=The server does not answer")
    assert page.title() == "Scoreboard · kept-board"
    server.start()


def test_a_page_that_did_not_come_through_the_service_worker_is_kept_too(
        server: ServerProcess, new_page: Any) -> None:
    """A page that opened as the worker took over came from the server, not through the worker, and was not
    open yet when the worker looked for pages to keep: it asks the worker to keep it. Chromium's bypass of the
    worker (a hard reload's) opens it that way every time."""
    create(server, "kept-asked")
    page = new_page(viewport=TABLET)
    page.goto(server.base + "/")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null")
    session = page.context.new_cdp_session(page)
    session.send("Network.enable")
    session.send("Network.setBypassServiceWorker", {"bypass": True})
    page.goto(server.base + "/matches/kept-asked/scoreboard")
    page.wait_for_selector("#scoreboard.ready")
    assert page.evaluate("navigator.serviceWorker.controller") is None
    wait_until_kept(page)
    session.send("Network.setBypassServiceWorker", {"bypass": False})
    server.stop()
    page.reload()
    page.wait_for_selector("#message >> text=The server does not answer")
    assert page.title() == "Scoreboard · kept-asked"
    server.start()


def test_the_service_workers_version_changes_with_any_file_served(tmp_path: Path) -> None:
    static, templates = tmp_path / "static", tmp_path / "templates"
    static.mkdir()
    templates.mkdir()
    (static / "console.mjs").write_text("export const a = 1;\n")
    (templates / "console.html").write_text("<main></main>\n")
    first = files_version(static, templates, package_version="1.0")
    assert files_version(static, templates, package_version="1.0") == first
    (static / "console.mjs").write_text("export const a = 2;\n")
    second = files_version(static, templates, package_version="1.0")
    (templates / "console.html").write_text("<main> </main>\n")
    third = files_version(static, templates, package_version="1.0")
    assert len({first, second, third, files_version(static, templates, package_version="1.1")}) == 4


def test_the_server_tells_its_time_to_the_millisecond(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'time.db'}")
    store.upgrade()
    with TestClient(create_app(store)) as client:
        before = datetime.now(UTC)
        now = client.get("/api/time").json()["now"]
        after = datetime.now(UTC)
        script = client.get("/sw.js")
    assert now.endswith("Z") and len(now.split(".")[1]) == 4, now  # "…:05.250Z"
    assert before.replace(microsecond=before.microsecond // 1000 * 1000) <= datetime.fromisoformat(now) <= after
    assert script.headers["content-type"].startswith("text/javascript")
    assert script.headers["cache-control"] == "no-cache"


def test_handicaps_typed_in_the_rosters_give_goals_by_handicap_when_no_goals_are_typed(
        server: ServerProcess, new_page: Any) -> None:
    page = new_page(viewport=TABLET)
    page.goto(server.base + "/")
    page.fill('#new [name="league_key"]', LEAGUE_KEY)
    page.fill('#new [name="match"]', "rosters-only")
    page.fill('#new [name="team1"]', "Blue")
    page.fill('#new [name="team2"]', "Red")
    for side, handicaps in ((1, [8, 7, 6, 5]), (2, [7, 6, 5, 4])):  # 26 against 22: 4 goals over 6 chukkers
        for n, handicap in enumerate(handicaps, start=1):
            page.fill(f'#new [name="name{side}_{n}"]', f"Player {side}.{n}")
            page.fill(f'#new [name="hcp{side}_{n}"]', str(handicap))
    page.click("#new button.primary")
    page.wait_for_selector("#created >> text=Match rosters-only created")
    start = log(server, "rosters-only")[0]["event"]
    assert "handicap_goals" not in start
    assert get(server, "/api/matches/rosters-only")["score"] == {"Blue": 0, "Red": 4}
    assert page.errors == []


@pytest.mark.parametrize(("preset", "own", "clock"), [
    ("450/0", None, {"chukker_seconds": 450, "extra_seconds": 0}),
    ("own", ("360", "0"), {"chukker_seconds": 360, "extra_seconds": 0}),
], ids=["arena", "the club's own"])
def test_the_timekeepers_clock_is_chosen_from_presets_or_the_clubs_own(
        server: ServerProcess, new_page: Any, preset: str, own: tuple[str, str] | None,
        clock: dict[str, int]) -> None:
    page = new_page(viewport=TABLET)
    page.goto(server.base + "/")
    code = f"clock-{clock['chukker_seconds']}"
    page.fill('#new [name="league_key"]', LEAGUE_KEY)
    page.fill('#new [name="match"]', code)
    page.fill('#new [name="team1"]', "Blue")
    page.fill('#new [name="team2"]', "Red")
    assert page.locator("#new .own-clock").is_hidden()
    page.select_option('#new [name="clock"]', preset)
    if own is not None:
        page.fill('#new [name="chukker_seconds"]', own[0])
        page.fill('#new [name="extra_seconds"]', own[1])
    page.click("#new button.primary")
    page.wait_for_selector(f"#created >> text=Match {code} created")
    assert log(server, code)[0]["event"]["clock"] == clock
    assert get(server, f"/api/matches/{code}")["clock"]["chukker_seconds"] == clock["chukker_seconds"]
    assert page.errors == []


def test_a_match_not_yet_started_is_corrected_and_removed_on_the_records_page(server: ServerProcess,
                                                                              new_page: Any) -> None:
    created = create(server, "fix-me", teams=["Blue", "Red"], rosters={}, handicap_goals={"Red": 1})
    send(server, "fix-me", {"type": "chukker.start", "chukker": 1}, created["scorer_key"])  # begun: kept as is
    create(server, "typo-1", teams=["Blue", "Rde"], rosters={}, handicap_goals={"Rde": 1})
    page = new_page(viewport=TABLET)
    page.goto(server.base + "/")
    page.wait_for_selector("#matches >> text=typo-1")
    # Removing needs the league key: without it the page says so and asks nothing.
    page.click('#matches tr:has-text("typo-1") [data-act="remove"]')
    page.wait_for_selector("#created >> text=Remove needs the league key")
    assert page.locator("#ask").count() == 0
    assert page.locator('#matches tr:has-text("fix-me") [data-act]').count() == 0  # begun: voids correct it

    # Without the league key, nothing is asked and nothing changes.
    page.click('#matches tr:has-text("typo-1") [data-act="correct"]')
    page.wait_for_selector("#created >> text=Correcting match typo-1")
    assert page.input_value('#new [name="team2"]') == "Rde" and page.input_value('#new [name="goals2"]') == "1"
    page.fill('#new [name="team2"]', "Red")
    page.click("#new button.primary")
    assert page.evaluate("document.activeElement.name") == "league_key"
    assert log(server, "typo-1")[0]["event"]["teams"] == ["Blue", "Rde"]
    page.fill('#new [name="league_key"]', LEAGUE_KEY)
    page.click("#new button.primary")
    page.fill('#ask [name="value"]', "the second team's name was misspelt")
    page.click('#ask [data-action="confirm"]')
    page.wait_for_selector("#created >> text=Match typo-1 corrected; its keys are the same.")
    assert log(server, "typo-1")[0]["event"]["teams"] == ["Blue", "Red"]
    assert get(server, "/api/matches/typo-1")["score"] == {"Blue": 0, "Red": 1}

    page.click('#matches tr:has-text("typo-1") [data-act="remove"]')
    page.fill('#ask [name="value"]', "created twice")
    page.click('#ask [data-action="confirm"]')
    page.wait_for_selector("#created >> text=Match typo-1 removed.")
    page.wait_for_selector("#matches >> text=typo-1", state="detached")
    assert [row["code"] for row in get(server, "/api/matches")] == ["fix-me"]
    assert page.errors == []


def test_a_correction_on_the_records_page_keeps_what_its_form_does_not_show(server: ServerProcess,
                                                                          new_page: Any) -> None:
    """The form shows no rule set: a club's match corrected there (its venue) was played by the default set after."""
    create(server, "club-1", teams=["Blue", "Red"], rules="club", venue="Cancha 1")
    page = new_page(viewport=TABLET)
    page.goto(server.base + "/")
    page.click('#matches tr:has-text("club-1") [data-act="correct"]')
    page.wait_for_selector("#created >> text=Correcting match club-1")
    page.fill('#new [name="venue"]', "Cancha 2")
    page.fill('#new [name="league_key"]', LEAGUE_KEY)
    page.click("#new button.primary")
    page.fill('#ask [name="value"]', "played on the other field")
    page.click('#ask [data-action="confirm"]')
    page.wait_for_selector("#created >> text=Match club-1 corrected; its keys are the same.")
    start = log(server, "club-1")[0]["event"]
    assert (start["venue"], start["rules"]) == ("Cancha 2", "club")
    assert page.errors == []


def test_the_records_list_starts_with_the_newest_match_and_shows_more_on_asking(server: ServerProcess,
                                                                                new_page: Any) -> None:
    """It showed the first 100 matches, oldest first, and nothing else: today's were out of sight, unsaid."""
    for n in range(103):
        create(server, f"list-{n:03d}")
    page = new_page(viewport=TABLET)
    page.goto(server.base + "/")
    page.wait_for_selector("#matches tr >> text=list-102")
    codes = page.locator("#matches tr td:first-child a").all_inner_texts()
    assert (len(codes), codes[0], codes[-1]) == (100, "list-102", "list-003")
    page.click("#more")
    page.wait_for_function("() => document.querySelectorAll('#matches tr').length === 103")
    assert page.locator("#matches tr td:first-child a").all_inner_texts()[-3:] == ["list-002", "list-001", "list-000"]
    assert page.is_hidden("#more")  # no more to show
    page.select_option("#search [name=sort]", "created")  # oldest first: from the start again
    page.wait_for_function("() => document.querySelector('#matches tr td a').textContent === 'list-000'")
    assert page.locator("#matches tr").count() == 100 and page.is_visible("#more")
    assert page.errors == []


def test_on_a_private_server_the_records_list_is_read_with_the_league_key(tmp_path: Path, new_page: Any) -> None:
    """The list never sent the league key: "this needs the league key" even with it typed and remembered."""
    url = f"sqlite:///{tmp_path / 'private.db'}"
    league_store(url)
    with ServerProcess(url, private=True, log=tmp_path / "server.log") as private:
        create(private, "closed-1")
        page = new_page(viewport=TABLET)
        page.goto(private.base + "/")
        page.wait_for_selector("#matches >> text=give it under “New match” below")
        page.fill("#new [name=league_key]", LEAGUE_KEY)
        page.press("#new [name=league_key]", "Tab")  # given: the list is read with it
        page.wait_for_selector("#matches tr >> text=closed-1")
        page.check("#new [name=remember]")
        page.fill("#new [name=league_key]", LEAGUE_KEY + " ")  # kept on the device as the form is used
        page.press("#new [name=league_key]", "Tab")
        page.evaluate(f"localStorage.setItem('matchstate:league-key', {LEAGUE_KEY!r})")
        page.reload()
        page.wait_for_selector("#matches tr >> text=closed-1")  # remembered: read at once
        assert [error for error in page.errors if "401" not in error] == []
