"""Cards as records (issue 23): a ``card`` event and a penalty award's yellow ``card`` are on the score sheet,
in the statistics (per team and per player, the kept ones too) and in the CSV export."""

from __future__ import annotations

import csv
import io
import os
import subprocess
import sys
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from conftest import BLUE, RED, hand_log, stored

from matchstate.records.sheet import score_sheet
from matchstate.store import Store
from matchstate.web import create_app
from matchstate.web.templating import LANG_COOKIE

LOG = hand_log(
    "cards-1", "2026-03-14",
    {"type": "chukker.start", "chukker": 1},
    {"type": "card", "team": BLUE, "player": 2, "colour": "yellow"},
    {"type": "penalty.award", "penalty": "3", "to": BLUE, "card": "yellow"},  # Red's foul, no player named
    {"type": "card", "team": RED, "player": 1, "colour": "red"},
    {"type": "card", "team": BLUE, "player": 4, "colour": "yellow"},
    {"type": "void", "seq": 6, "reason": "wrong player"},  # a card struck out counts nowhere
    event="Copa Tarjetas", rosters={RED: [{"player": 1, "name": "Juan Heguy", "handicap": 3}]},
)


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = Store(f"sqlite:///{tmp_path / 'cards.db'}")
    store.upgrade()
    with TestClient(create_app(stored(store, LOG))) as client:
        yield client
    store.close()


def test_the_sheet_lists_every_card_standing_with_its_team_player_and_colour() -> None:
    sheet = score_sheet(LOG)
    assert [(card.chukker, card.team, card.player, card.colour) for card in sheet.cards] == [
        (1, BLUE, "2", "yellow"), (1, RED, "", "yellow"), (1, RED, "1 Juan Heguy", "red")]


@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Cards", "Blue 2: yellow card", "Red: yellow card", "Red 1 Juan Heguy: red card"]),
    ("es", ["Tarjetas", "Blue 2: tarjeta amarilla", "Red: tarjeta amarilla", "Red 1 Juan Heguy: tarjeta roja"]),
])
def test_the_sheet_page_shows_the_cards(client: TestClient, lang: str, words: list[str]) -> None:
    client.cookies.set(LANG_COOKIE, lang)  # as the page's language toggle keeps it
    page = client.get("/matches/cards-1/sheet").text
    cards = page.split('<section class="cards">')[1].split("</section>")[0]
    for word in words:
        assert word in cards
    assert "Blue 4" not in cards


def test_the_statistics_count_cards_per_team_and_per_player(client: TestClient) -> None:
    stats = client.get("/api/stats", params={"event": "Copa Tarjetas"}).json()
    teams = {line["team"]: line["cards"] for line in stats["teams"]}
    assert teams == {BLUE: {"yellow": 1, "red": 0}, RED: {"yellow": 1, "red": 1}}
    players = {(line["team"], line["player"]): line["cards"] for line in stats["players"]}
    assert players[(BLUE, "No. 2")] == {"yellow": 1, "red": 0}
    assert players[(RED, "Juan Heguy")] == {"yellow": 0, "red": 1}
    assert (BLUE, "No. 4") not in players  # struck out
    rows = list(csv.DictReader(io.StringIO(client.get("/api/stats.csv").content.decode("utf-8-sig"))))
    assert {(row["kind"], row["team"], row["player"]): (row["yellow_cards"], row["red_cards"]) for row in rows}[
        ("team", RED, "")] == ("1", "1")


def test_the_stats_page_has_the_card_columns(client: TestClient) -> None:
    client.cookies.set(LANG_COOKIE, "es")
    page = client.get("/stats").text
    assert "Tarjetas amarillas" in page and "Tarjetas rojas" in page
    assert "la tarjeta amarilla de un penal otorgado, para el equipo que cometió la falta" in page  # the legend


def test_the_csv_export_gives_each_rows_card(client: TestClient) -> None:
    data = client.get("/api/matches/cards-1/log.csv").content.decode("utf-8-sig")
    rows = list(csv.DictReader(io.StringIO(data)))
    assert [row["card"] for row in rows] == ["", "", "yellow", "yellow", "red", "yellow", ""]
    assert "colour" not in rows[2]["details"] and "card" not in rows[3]["details"]


def test_an_upgrade_to_0011_has_the_kept_lines_counted_again_with_their_cards(tmp_path: Path) -> None:
    """The lines kept before migration 0011 had no cards: the upgrade drops them, and the next read recounts."""
    url = f"sqlite:///{tmp_path / 'upgraded.db'}"
    store = Store(url)
    store.upgrade()
    stored(store, LOG).close()
    env = {**os.environ, "MATCHSTATE_DATABASE_URL": url}

    def alembic(*args: str) -> None:
        done = subprocess.run([sys.executable, "-m", "alembic", *args], cwd=Path(__file__).parent.parent, env=env,
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0, done.stderr

    def red_cards() -> dict[str, int]:
        reading = Store(url)
        with TestClient(create_app(reading)) as client:
            teams = client.get("/api/stats").json()["teams"]
        reading.close()
        return {line["team"]: line["cards"]["red"] for line in teams}

    assert red_cards() == {BLUE: 0, RED: 1}  # kept at head
    alembic("downgrade", "0009")
    alembic("upgrade", "head")
    assert red_cards() == {BLUE: 0, RED: 1}  # counted again after the upgrade
