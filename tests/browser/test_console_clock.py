"""The console keeps time: a whole short chukker scored by tapping, its clock read from the events and
driven by Playwright's clock (never by waiting), the bell and the horn played once each, a goal after
the horn asked about before it is logged, and the receipts of every event the console recorded,
downloaded and checked by ``matchstate verify --receipts`` against the server's database."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from browser.browsing import TABLET, Console, create, get, league_store, log
from matchstate.tlog.proof import TlogProof
from matchstate.web.process import ServerProcess

SHORT = {"chukker_seconds": 60, "extra_seconds": 10}


@pytest.fixture
def database(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'clock.db'}"
    league_store(url)
    return url


@pytest.fixture
def timed_server(tmp_path: Path, database: str) -> Iterator[ServerProcess]:
    """A server that takes events stamped up to 10 minutes ahead of its clock: Playwright's clock moves the
    console's time forward by the length of a chukker, the server's stays where it is."""
    with ServerProcess(database, log=tmp_path / "server.log", options=["--clock-tolerance", "600"]) as server:
        yield server


def shown_clock(page: Any) -> dict[str, str]:
    shown: dict[str, str] = page.evaluate("""() => {
        const box = document.getElementById('chukker-clock');
        const text = (selector) => box.querySelector(selector).textContent;
        return {chukker: text('.chukker b'), time: text('.time'), running: text('.running'),
                phase: text('.phase'), data_phase: box.dataset.phase};
    }""")
    return shown


def seconds(clock: dict[str, str]) -> int:
    minutes, secs = clock["time"].split(":")
    return int(minutes) * 60 + int(secs)


def log_chukker(console: Console, event_type: str, number: str, shows: str) -> dict[str, str]:
    """Log a chukker's start or end in one tap with the number its button names, which must be ``number``; the
    clock once it ``shows`` (a selector)."""
    named = "start" if event_type == "chukker.start" else "end"
    assert console.page.inner_text(f'#buttons [data-type="{event_type}"] .what') == f"Chukker {number} {named}"
    console.tap(event_type)
    assert console.page.locator("#form").is_hidden()
    console.page.wait_for_selector(shows)
    return shown_clock(console.page)


def cues(page: Any) -> list[str]:
    played: list[str] = page.evaluate("window.matchstateCues || []")
    return played


def test_a_short_chukker_with_the_bell_and_the_horn(timed_server: ServerProcess, database: str, new_page: Any,
                                                    tmp_path: Path) -> None:
    server = timed_server
    code = "clock-1"
    keys = create(server, code, clock=SHORT)
    page = new_page(viewport=TABLET)
    page.clock.install()
    console = Console(page, code).open(server, keys["scorer_key"])
    page.wait_for_selector(".banner.ok")
    assert shown_clock(page)["phase"] == "not started"

    # The first chukker's start is pre-filled with its number.
    clock = log_chukker(console, "chukker.start", "1", '#chukker-clock[data-running="true"]')
    assert (clock["chukker"], clock["running"], clock["phase"]) == ("1", "running", "play")
    assert seconds(clock) <= 1
    console.click("goal", team="Blue", player=1)
    page.wait_for_selector("#score >> text=Blue 1 – Red 1")

    page.clock.fast_forward("00:30")
    page.wait_for_function("() => document.querySelector('#chukker-clock .time').textContent.startsWith('0:3')")
    assert shown_clock(page)["data_phase"] == "play" and cues(page) == []

    # Stopped, the clock shows the same time however long the stoppage.
    console.click("clock.stop")
    page.wait_for_selector('#chukker-clock[data-running="false"]')
    page.wait_for_selector(".banner.ok")
    stopped = shown_clock(page)
    page.clock.fast_forward("00:20")
    page.wait_for_timeout(300)
    assert shown_clock(page)["time"] == stopped["time"]
    assert shown_clock(page)["running"] == "stopped"

    # Running again: the bell at 1:00, once.
    console.click("clock.start")
    page.wait_for_selector('#chukker-clock[data-running="true"]')
    page.clock.fast_forward(60_000 - seconds(stopped) * 1000)
    page.wait_for_selector('#chukker-clock[data-phase="extra"]')
    clock = shown_clock(page)
    assert clock["phase"] == "bell" and 60 <= seconds(clock) < 70, clock
    assert cues(page) == ["bell"]

    # The horn at 1:10, once.
    page.clock.fast_forward("00:10")
    page.wait_for_selector('#chukker-clock[data-phase="over"]')
    clock = shown_clock(page)
    assert clock["phase"] == "horn" and seconds(clock) >= 70, clock
    assert cues(page) == ["bell", "horn"]

    # A goal after the horn: asked first; cancelled, nothing is logged.
    before = len(log(server, code))
    console.click("goal", team="Red", player=2)
    assert "The horn has gone" in page.inner_text("#ask")
    assert "Chukker 1's time has run out" in page.inner_text("#ask")
    console.answer("cancel")
    assert console.outbox() == [] and len(log(server, code)) == before
    # Logged anyway, it counts, and the engine flags it for the officials.
    console.click("goal", team="Red", player=2)
    console.answer("confirm")
    page.wait_for_selector("#score >> text=Blue 1 – Red 2")
    page.wait_for_selector("#recent .tag.flag >> text=after the horn")
    goal = log(server, code)[-1]
    assert (goal["type"], goal["flags"]) == ("goal", ["after-horn"])

    # The chukker's end is pre-filled with the chukker in play; then the match ends.
    clock = log_chukker(console, "chukker.end", "1", '#chukker-clock[data-phase="between"]')
    # The interval is counted down in the clock's place (test_console_interval.py).
    assert (clock["chukker"], clock["running"], clock["phase"]) == ("1", "interval", "between chukkers")
    page.wait_for_selector('#buttons [data-type="match.end"]:not([disabled])')
    console.click("match.end")
    assert "The result will stand at Blue 1 – Red 2" in page.inner_text("#ask")  # asked, never one tap
    console.answer("confirm")
    page.wait_for_selector('#chukker-clock[data-phase="ended"]')
    page.wait_for_selector(".banner.ok")
    view = get(server, f"/api/matches/{code}")
    assert view["ended"] and view["winner"] == "Red"
    assert view["clock"]["phase"] == "ended"
    assert cues(page) == ["bell", "horn"], "one bell and one horn a chukker"

    # Every event the console recorded has its receipt, downloaded as JSON Lines ...
    rows = log(server, code)
    recorded = [row["seq"] for row in rows if row["seq"] > 1]  # match.start was created by the API
    with page.expect_download() as download:
        page.click("#download-receipts")
    path = tmp_path / "receipts.jsonl"
    download.value.save_as(path)
    assert download.value.suggested_filename == f"receipts-{code}.jsonl"
    receipts = [json.loads(line) for line in path.read_text().splitlines()]
    assert [receipt["seq"] for receipt in receipts] == recorded
    assert {(r["match"], r["leaf"]) for r in receipts} == {(code, "append")}  # each a proof in the league log
    entry = TlogProof.parse(receipts[-1]["proof"]).index
    assert page.inner_text("#receipt") == f"Last receipt: seq {recorded[-1]}, entry {entry} of the league log"
    assert [r["hash"] for r in receipts] == [row["hash"] for row in rows[1:]]

    # ... which `matchstate verify --receipts` accepts against the server's database.
    verified = subprocess.run([sys.executable, "-m", "matchstate.cli", "verify", "--receipts", str(path)],
                              env={**os.environ, "MATCHSTATE_DATABASE_URL": database},
                              capture_output=True, text=True, timeout=60)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    assert f"receipts: {len(recorded)} of those read hold" in verified.stdout
    assert page.errors == []
