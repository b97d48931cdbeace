"""Fewer taps for the usual case: the console fills in what the match makes likely (a clean hit by the usual
player, the hitting team's goal), logs a penalty's place (``from``) only where the log has one, records the
whistle with an award while the clock runs, logs a converted Penalty 2 in five taps (the penalty's number and
its team one tap in the form's grid), names the card's player in the Penalty form, undoes any past event of the
scorer's through a void, and logs a chukker's start or end in one tap."""

from __future__ import annotations

from typing import Any

from browser.browsing import TABLET, Console, Taps, checked, create, get, grid_choice, log, to_spanish
from matchstate.web.process import ServerProcess


def test_a_chukkers_start_and_end_are_one_tap_each_named_with_their_number(server: ServerProcess,
                                                                          scorer: Any) -> None:
    console: Console = scorer("taps-edges")
    page = console.page
    taps = Taps(page)
    start, end = '#buttons [data-type="chukker.start"] .what', '#buttons [data-type="chukker.end"] .what'
    assert (page.inner_text(start), page.inner_text(end)) == ("Chukker 1 start", "Chukker 1 end")
    taps.event("chukker.start")
    page.wait_for_selector(f"{end} >> text=Chukker 1 end")
    taps.event("chukker.end")
    page.wait_for_selector(f"{start} >> text=Chukker 2 start")
    to_spanish(page)
    assert page.inner_text(start) == "Inicio del chukker 2"
    taps.event("chukker.start")
    page.wait_for_selector(f"{end} >> text=Fin del chukker 2")
    console.wait_until_sent()
    assert taps.taps == 3 and page.locator("#form").is_hidden()
    assert [(row["type"], row["event"].get("chukker")) for row in log(server, "taps-edges")[1:]] == [
        ("chukker.start", 1), ("chukker.end", 1), ("chukker.start", 2)]
    assert page.errors == []


def test_a_converted_penalty_2_is_five_taps(server: ServerProcess, scorer: Any) -> None:
    console: Console = scorer("taps-1")
    page = console.page
    console.click("chukker.start")
    taps = Taps(page)
    taps.event("penalty.award")
    assert checked(page, "whistle") == ["true"]  # the clock runs: the umpire blew, recorded with the award
    taps.award("2", "Blue")  # "2" in Blue's row: the penalty and the team in one tap, which logs it
    taps.tap('#quick [data-quick="play"]')
    assert page.inner_text('#quick .usual[data-quick="hit"]') == "Hit #3"  # no Blue stroke yet: by habit
    taps.tap('#quick [data-quick="hit"][data-player="3"]')
    page.wait_for_selector("#ruling >> text=Ball in play")
    taps.tap('#quick [data-quick="goal"][data-team="Blue"]')
    console.wait_until_sent()
    assert taps.taps == 5
    rows = log(server, "taps-1")
    events = [row["event"] for row in rows]
    assert [e["type"] for e in events] == ["match.start", "chukker.start", "whistle", "penalty.award", "play", "hit",
                                           "goal"]
    assert (events[3]["penalty"], events[3]["to"], events[3]["from"]) == ("2", "Blue", "center")
    assert {k: events[5][k] for k in ("player", "contact")} == {"player": 3, "contact": "hit"}
    assert events[6]["team"] == "Blue"
    assert get_score(server, "taps-1") == {"Blue": 1, "Red": 1}  # Red's 1 is its goal by handicap
    assert page.errors == []


def test_the_stroke_form_comes_with_the_teams_last_hitter(server: ServerProcess, scorer: Any) -> None:
    console: Console = scorer("taps-3")
    page = console.page
    console.click("chukker.start")
    console.click("knockin.award", to="Red")
    console.click("play")
    console.click("hit", player="2", contact="hit")
    console.click("penalty.award", penalty="4", to="Red")
    console.click("play")
    assert page.inner_text('#quick .usual[data-quick="hit"]') == "Hit #2"
    console.tap("hit")
    assert checked(page, "player") == ["2"]
    # The contact is its Log button: a mis-hit is two taps (the usual clean stroke is the quick row's one).
    assert page.locator('#form .sends[data-field="contact"] button').all_inner_texts() == ["hit", "mis-hit", "miss"]
    page.click('#form [data-field="contact"] [data-value="mishit"]')
    console.wait_until_sent()
    stroke = log(server, "taps-3")[-1]["event"]
    assert (stroke["type"], stroke["player"], stroke["contact"]) == ("hit", 2, "mishit")
    assert page.errors == []


def test_a_penalty_other_than_2_is_logged_with_no_place_and_no_whistle_on_a_stopped_clock(
        server: ServerProcess, scorer: Any) -> None:
    console: Console = scorer("taps-2")
    page = console.page
    console.tap("penalty.award")
    assert checked(page, "whistle") == ["false"]  # no chukker runs: no whistle to record
    # The place is chosen before the grid's tap, so it is there to choose; it says whose it is.
    assert page.inner_text('#form .field:has([data-field="from"]) .name') == "From (Penalty 2)"
    page.click('#form [data-field="from"] [data-value="spot"]')
    assert page.inner_text('#form [data-field="to"][data-value="Red"] .send-to') == "To Red"  # no whistle
    page.click(grid_choice("4", "Red"))
    console.wait_until_sent()
    award = log(server, "taps-2")[-1]["event"]
    assert (award["type"], award["penalty"], award["to"]) == ("penalty.award", "4", "Red")
    assert "from" not in award  # a Penalty 4 has no place: what was chosen for a Penalty 2 is not logged
    assert page.errors == []


def test_a_ball_out_is_logged_by_its_lines_button(server: ServerProcess, scorer: Any) -> None:
    console: Console = scorer("taps-4")
    page = console.page
    taps = Taps(page)
    taps.event("ball.out")
    assert page.evaluate("document.activeElement.dataset.value") == "backline"  # the keyboard is on the first
    taps.tap('#form [data-field="over"] >> text=sideline')
    console.wait_until_sent()
    assert taps.taps == 2
    assert log(server, "taps-4")[-1]["event"]["over"] == "sideline"
    assert page.errors == []


def test_a_yellow_card_names_the_fouling_teams_player_and_makes_a_penalty_2_a_goal(
        server: ServerProcess, scorer: Any) -> None:
    console: Console = scorer("card-1")
    page = console.page
    console.click("chukker.start")
    console.tap("penalty.award")
    assert page.locator('#form [data-field="card_player"]').is_hidden()
    page.click('#form [data-field="card"] [data-value="yellow"]')
    page.wait_for_selector('#form [data-field="card_player"]:visible')
    assert page.inner_text("#form").count("Card to player") == 1
    page.click(grid_choice("2", "Blue"))  # the player is needed first
    page.wait_for_selector("#form .missing >> text=Card to player")
    assert page.get_attribute(grid_choice("2", "Blue"), "aria-pressed") == "true"  # the tap's choice is kept
    # The fouling team is Red: its roster names the players.
    page.click('#form [data-field="card_player"] >> text=N. Beltrán')
    page.click(grid_choice("2", "Blue"))
    console.wait_until_sent()
    rows = log(server, "card-1")
    assert [row["type"] for row in rows[2:]] == ["whistle", "penalty.award", "card"]
    assert rows[3]["event"]["card"] == "yellow"
    assert {k: rows[4]["event"][k] for k in ("team", "player", "colour")} == {"team": "Red", "player": 2,
                                                                                "colour": "yellow"}
    assert rows[3]["ruling"]["kind"] == "goal" and rows[4]["ruling"] is None  # one Penalty 1, not two
    assert get_score(server, "card-1") == {"Blue": 1, "Red": 1}
    assert page.errors == []


def test_a_red_card_in_spanish(server: ServerProcess, scorer: Any) -> None:
    console: Console = scorer("card-2")
    page = console.page
    to_spanish(page)
    console.tap("penalty.award")
    page.click('#form [data-field="card"] [data-value="red"]')
    assert "Tarjeta al jugador" in page.inner_text("#form")
    assert "Desde (penal 2)" in page.inner_text("#form")
    assert "roja" in page.inner_text('#form [data-field="card"]')
    page.click('#form [data-field="card_player"] [data-value="1"]')
    page.click('#form [data-field="to"]:has(.send-to:text-is("Para Blue")) [data-value="4"]')
    console.wait_until_sent()
    rows = log(server, "card-2")
    award, card = rows[-2]["event"], rows[-1]["event"]
    assert (award["type"], award["penalty"], award["to"], "card" in award) == ("penalty.award", "4", "Blue", False)
    assert {k: card[k] for k in ("type", "team", "player", "colour")} == {"type": "card", "team": "Red", "player": 1,
                                                                             "colour": "red"}
    assert page.errors == []


def test_any_past_event_of_the_scorers_is_undone_with_one_question(server: ServerProcess, scorer: Any) -> None:
    console: Console = scorer("undo-1")
    page = console.page
    console.click("chukker.start")
    console.click("goal", team="Red")
    console.click("goal", team="Blue")
    console.wait_until_sent()
    page.click('#recent .undo[data-seq="3"]')  # the first goal, not the last event
    page.wait_for_selector("#ask >> text=Undo #3 Goal, Red?")
    console.answer("confirm")
    console.wait_until_sent()
    last = log(server, "undo-1")[-1]["event"]
    assert (last["type"], last["seq"]) == ("void", 3)
    assert get_score(server, "undo-1") == {"Blue": 1, "Red": 1}  # Red's 1 is its goal by handicap
    page.wait_for_selector('#recent .undo[data-seq="4"]')
    assert page.locator('#recent .undo[data-seq="3"]').count() == 0  # struck out: nothing more to undo
    assert page.errors == []


def get_score(server: ServerProcess, code: str) -> dict[str, int]:
    score: dict[str, int] = get(server, f"/api/matches/{code}")["score"]
    return score


def test_what_only_an_official_logs_is_offered_to_the_official_alone_so_a_scorers_tap_never_holds_the_queue(
        server: ServerProcess, scorer: Any, new_page: Any) -> None:
    console: Console = scorer("officials-only")
    page = console.page
    console.click("chukker.start")
    console.click("chukker.end")
    console.wait_until_sent()
    confirm, sync = '#buttons [data-type="chukker.confirm"]', '#buttons [data-type="video.sync"]'
    page.wait_for_selector(f"{confirm}:disabled")  # the engine accepts a confirmation now: not from a scorer
    assert page.is_disabled(sync) and page.is_enabled('#buttons [data-type="chukker.start"]')
    # A review's asker: a team (its challenge) for the scorer; the umpire and the referee for an official too.
    askers = '#form [data-field="asked_by"] [data-value]'
    console.tap("review.request")
    assert [page.get_attribute(f"{askers} >> nth={n}", "data-value") for n in range(2)] == ["Blue", "Red"]
    assert page.locator(askers).count() == 2
    official = Console(new_page(viewport=TABLET), "officials-only").open(server, console.keys["official_key"])
    official.page.wait_for_selector(f"{confirm}:enabled")
    assert official.page.is_enabled(sync)
    official.tap("review.request")
    assert official.page.locator(askers).all_inner_texts() == ["umpire", "referee", "Blue", "Red"]
    assert page.errors == [] and official.page.errors == []


def test_a_console_that_never_heard_its_keys_role_offers_nothing_only_an_official_logs(
        server: ServerProcess, new_page: Any) -> None:
    """Cut between the match's first answers and its key's role, a console offered a scorer every official's
    button but "Decide": a tap on Confirm chukker was refused with 403 and held every later event."""
    keys = create(server, "role-unheard")
    page = new_page(viewport=TABLET)
    page.route("**/api/matches/role-unheard/role", lambda route: route.abort())
    console = Console(page, "role-unheard").open(server, keys["scorer_key"])
    console.click("chukker.start")
    console.click("chukker.end")
    console.wait_until_sent()  # what a scorer logs goes on as before
    for kind in ("chukker.confirm", "video.sync", "review.outcome", "decide"):
        assert page.is_disabled(f'#buttons [data-type="{kind}"]'), kind
    assert page.is_enabled('#buttons [data-type="chukker.start"]')


def test_a_chukkers_end_tapped_again_once_it_has_ended_is_asked_first_and_logged_only_if_meant(
        server: ServerProcess, scorer: Any) -> None:
    console: Console = scorer("edge-again")
    page = console.page
    console.click("chukker.start")
    console.click("chukker.end")
    console.wait_until_sent()
    console.tap("chukker.end")  # a second tap, well after the first: the chukker has ended
    page.wait_for_selector("#ask >> text=No chukker is in play")
    page.keyboard.press("Enter")  # a reflex Enter: the focus was on "Log the end anyway", which it logged
    page.wait_for_selector("#ask", state="detached")
    assert console.outbox() == []
    console.tap("chukker.end")
    console.answer("confirm")  # meant: logged, and flagged for the officials
    console.wait_until_sent()
    rows = log(server, "edge-again")
    assert [row["type"] for row in rows[1:]] == ["chukker.start", "chukker.end", "chukker.end"]
    assert rows[-1]["flags"] == ["chukker-order"]
    assert page.errors == []


def test_an_award_over_a_free_hit_not_yet_taken_is_asked_first_and_replaces_it_only_if_meant(
        server: ServerProcess, scorer: Any) -> None:
    console: Console = scorer("replace-1")
    page = console.page
    console.click("chukker.start")
    console.click("knockin.award", to="Blue")
    page.wait_for_selector("#freehit >> text=Knock-in to Blue")
    console.click("knockin.award", to="Red")  # the other team's, with Blue's not taken: a slip, most likely
    page.wait_for_selector("#ask >> text=Replace the free hit in progress?")
    assert "Knock-in to Blue, 300 yards from goal is awarded and not yet taken" in page.inner_text("#ask")
    page.keyboard.press("Enter")  # a reflex Enter: Cancel, the question's first answer here
    page.wait_for_selector("#ask", state="detached")
    console.wait_until_sent()
    assert awards(server, "replace-1") == [("knockin.award", "Blue")]
    assert "Knock-in to Blue" in page.inner_text("#freehit")

    console.click("knockin.award", to="Red")
    console.answer("confirm")  # meant: the umpire changed the call
    page.wait_for_selector("#freehit >> text=Knock-in to Red")
    console.wait_until_sent()
    assert awards(server, "replace-1") == [("knockin.award", "Blue"), ("knockin.award", "Red")]
    assert page.errors == []


def awards(server: ServerProcess, code: str) -> list[tuple[str, str]]:
    """The match's awards as logged, each with its team."""
    return [(row["type"], row["event"]["to"]) for row in log(server, code) if row["type"].endswith(".award")]
