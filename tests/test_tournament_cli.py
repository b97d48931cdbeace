"""The command line beside the tournament desk, on SQLite and PostgreSQL: a log imported under a code a fixture
holds is checked as the desk checks a result entered for the fixture."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from tournament_helpers import Played, new_tournament, team

from matchstate.cli import COULD_NOT_RUN, main
from matchstate.errors import UnknownMatch
from matchstate.store import Store
from matchstate.tournaments.desk import Desk


@pytest.fixture
def database(store: Store, monkeypatch: pytest.MonkeyPatch) -> Store:
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
    return store


def exported(code: str, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    """Match ``code``'s log as `matchstate export` prints it."""
    assert main(["export", code]) == 0
    return [json.loads(line) for line in capsys.readouterr().out.splitlines()]


def written(path: Path, events: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(event) + "\n" for event in events), encoding="utf-8")
    return str(path)


def test_a_log_imported_under_a_code_a_fixture_holds_is_checked_as_the_desk_checks_its_result(
        database: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A fixture's match removed, then a log imported under its code by the command line, became the fixture's
    result unchecked: six chukkers in a four-chukker tournament, a match that never ended, other teams."""
    desk = Desk(database)
    new_tournament(desk, "cup", [team("Blue", 3, 3, 3, 3), team("Red")], conditions={"chukkers": 4})
    [fixture] = desk.draw_bracket("cup", seed="s").fixtures
    code = Played(database).win(desk, "cup", fixture.id, "Blue")
    log = exported(code, capsys)
    assert main(["remove", code, "--reason", "entered twice"]) == 0
    capsys.readouterr()
    version = desk.opened("cup").version
    start, *rest = log
    other = {**start, "teams": ["Blue", "Green"], "handicap_goals": {}}
    other.pop("rosters")
    for events, said in (
            ([{**start, "chukkers": 6}, *rest], f"the log for fixture {fixture.id} is not the match the tournament "
                                                "plays: its match.start gives chukkers 6, the tournament's match "
                                                "gives 4"),
            (log[:-1], f"a result kept on paper is a whole match: the log for fixture {fixture.id} must end it"),
            ([other, *rest[:1]], f"the log's teams must be fixture {fixture.id}'s: Blue v Red")):
        assert main(["import", written(tmp_path / "again.jsonl", events)]) == COULD_NOT_RUN
        assert capsys.readouterr().err.startswith(f"matchstate: match {code} is fixture {fixture.id}'s of tournament "
                                                  f"cup, and the desk refuses this log as its result: {said}")
        with pytest.raises(UnknownMatch):
            database.match(code)
        assert desk.opened("cup").version == version
        [now] = desk.progress("cup").to_json()["fixtures"]
        assert now["status"] == "removed" and now["winner"] is None

    assert main(["import", written(tmp_path / "again.jsonl", log)]) == 0
    assert f"imported match {code}: {len(log)} events" in capsys.readouterr().out
    [now] = desk.progress("cup").to_json()["fixtures"]
    assert (now["match"], now["status"], now["winner"]) == (code, "ended", "Blue")
