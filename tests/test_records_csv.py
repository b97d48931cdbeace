"""A match's log exported: JSON Lines line for line as received, and the CSV a league keeps, read back
with Python's csv module as a spreadsheet would read it; the same from the web and from the command."""

from __future__ import annotations

import csv
import io
import json
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

from matchstate import records
from matchstate.records.export import Exporter
from matchstate.store import Store
from matchstate.web import create_app

ROSTERS = {RED: [{"player": 2, "name": "=Fede", "handicap": 3}]}
LOG = hand_log(
    "csv-1", "2026-03-14",
    {"type": "chukker.start", "chukker": 1},
    {"type": "goal", "team": BLUE, "player": 1, "by": "+scorer"},
    {"type": "penalty.award", "penalty": "2", "to": RED},
    {"type": "play"}, {"type": "hit", "player": 3, "contact": "hit"}, {"type": "goal", "team": RED, "player": 3},
    {"type": "chukker.end", "chukker": 1}, {"type": "chukker.start", "chukker": 2},
    {"type": "penalty.award", "penalty": "3", "to": BLUE},
    {"type": "penalty.award", "penalty": "5a", "to": RED, "yards_to_goal": 100},
    {"type": "hit", "player": 2, "contact": "hit"},
    {"type": "goal", "team": RED, "player": 2}, {"type": "void", "seq": 13, "reason": "-no goal"},
    event="Copa Otoño", handicap_goals={RED: 0.5}, rosters=ROSTERS,
)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[Store]:
    store = Store(f"sqlite:///{tmp_path / 'records.db'}")
    store.upgrade()
    yield stored(store, LOG)
    store.close()


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(store)) as client:
        yield client


def read_csv(data: bytes) -> list[dict[str, str]]:
    assert data.startswith("\ufeff".encode()), "the byte-order mark Excel needs to read UTF-8"
    return list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"), newline="")))


def test_jsonl_gives_each_line_as_received(client: TestClient) -> None:
    answer = client.get("/api/matches/csv-1/log.jsonl")
    assert answer.headers["content-disposition"] == 'attachment; filename="csv-1.jsonl"'
    assert answer.headers["content-type"].startswith("application/jsonl")
    assert [json.loads(line) for line in answer.text.splitlines()] == LOG


def test_the_csv_has_a_column_per_field_and_a_row_per_event(client: TestClient) -> None:
    answer = client.get("/api/matches/csv-1/log.csv")
    assert answer.headers["content-type"].startswith("text/csv")
    assert 'filename="csv-1.csv"' in answer.headers["content-disposition"]
    rows = read_csv(answer.content)
    assert list(rows[0])[:17] == ["seq", "at", "chukker", "type", "team", "player", "player_name", "penalty", "from",
                                  "yards", "ruling_kind", "awarded_to", "against", "violation", "cite",
                                  "Blue score", "Red score"]  # a score column per team, in match.start's order
    assert [row["seq"] for row in rows] == [str(n) for n in range(1, len(LOG) + 1)]
    assert [row["chukker"] for row in rows] == ["", "1", "1", "1", "1", "1", "1", "1", "2", "2", "2", "2", "2", "2"]
    p2, p3, p5a, foul = rows[3], rows[9], rows[10], rows[11]
    assert (p2["penalty"], p2["from"], p2["yards"], p2["awarded_to"], p2["against"]) == ("2", "center", "30", RED, BLUE)
    assert (p3["penalty"], p3["from"], p3["yards"]) == ("3", "", "40")  # `from` is a Penalty 2's alone
    assert (p5a["penalty"], p5a["yards"], p5a["awarded_to"]) == ("5a", "100", RED)
    # Red's no. 2 hits before Play: the ruling gives Penalty 5.a to Blue from the same spot.
    assert (foul["team"], foul["player"], foul["ruling_kind"], foul["penalty"], foul["yards"], foul["awarded_to"],
            foul["against"], foul["violation"]) == (RED, "2", "award", "5a", "200", BLUE, RED, "hit-before-play")
    assert foul["cite"] == "36/table:hit-before-play:5a" and foul["ruling_en"].startswith("Penalty 5.a to Blue")
    hit = rows[5]
    assert (hit["team"], hit["player"], hit["ruling_kind"], hit["cite"], hit["details"]) == (
        RED, "3", "live", "36/one-stroke", "contact=hit")


def test_the_scores_sort_and_sum(client: TestClient) -> None:
    rows = read_csv(client.get("/api/matches/csv-1/log.csv").content)
    blue = [float(row["Blue score"]) for row in rows]
    red = [float(row["Red score"]) for row in rows]
    assert red[0] == 0.5 and rows[0]["Red score"] == "0.5"  # goals by handicap, from the start
    assert (blue[-1], red[-1]) == (1, 1.5)
    goals = [row for row in rows if row["type"] == "goal" and not row["void"]]
    assert sum(row["team"] == BLUE for row in goals) == blue[-1] - blue[0]
    assert sum(row["team"] == RED for row in goals) == red[-1] - red[0]
    struck = rows[12]  # the goal the void strikes: shown, marked, not counted
    assert (struck["type"], struck["void"], struck["Red score"]) == ("goal", "yes", "1.5")
    assert rows[13]["details"] == "seq=13; reason=-no goal"  # the void's own fields


def test_the_csv_keeps_formulas_as_text(client: TestClient) -> None:
    rows = read_csv(client.get("/api/matches/csv-1/log.csv").content)
    assert rows[2]["by"] == "'+scorer"
    fede = next(row for row in rows if row["player_name"].endswith("Fede"))
    assert fede["player_name"] == "'=Fede"
    assert rows[1]["at"].startswith("2026-03-14T15:00")  # a time, untouched


def test_an_unknown_format_or_match_is_404(client: TestClient) -> None:
    assert client.get("/api/matches/csv-1/log.xml").status_code == 404
    assert "jsonl, csv" in client.get("/api/matches/csv-1/log.xml").json()["detail"]
    assert client.get("/api/matches/nope/log.csv").status_code == 404


def export(url: str, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run([sys.executable, "-m", "matchstate", "export", *args], capture_output=True, timeout=60,
                          env={**os.environ, "MATCHSTATE_DATABASE_URL": url})


def test_the_export_command_gives_the_webs_exports(client: TestClient, tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'records.db'}"
    default = export(url, "csv-1")
    assert default.returncode == 0 and default.stdout == client.get("/api/matches/csv-1/log.jsonl").content
    as_csv = export(url, "csv-1", "--format", "csv")
    assert as_csv.returncode == 0
    assert read_csv(as_csv.stdout) == read_csv(client.get("/api/matches/csv-1/log.csv").content)
    refused = export(url, "csv-1", "--format", "xml")
    assert refused.returncode == 2 and b"invalid choice: 'xml'" in refused.stderr


def test_a_new_format_is_one_exporter_registered_in_one_place(client: TestClient,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    def count(rows: object) -> str:
        return f"{len(list(rows))} events\n"  # type: ignore[call-overload]

    monkeypatch.setitem(records.EXPORTERS, "count", Exporter("count", "text/plain; charset=utf-8", count, "a count"))
    answer = client.get("/api/matches/csv-1/log.count")
    assert answer.text == f"{len(LOG)} events\n" and 'filename="csv-1.count"' in answer.headers["content-disposition"]
    from matchstate.cli import parser
    assert parser().parse_args(["export", "csv-1", "--format", "count"]).format == "count"
