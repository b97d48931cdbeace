"""`matchstate export --into DIR`, on SQLite and PostgreSQL: every match of the league (or a tournament's, or those
between two dates), a file each, which `matchstate import` takes back into a new store as the same matches, that
`verify` finds clean."""

from __future__ import annotations

import glob
import hashlib
import json
import re
from pathlib import Path
from typing import Any

import pytest
from conftest import BLUE, RED, hand_log, stored
from sqlalchemy import text

from matchstate.cli import COULD_NOT_RUN, FOUND_A_PROBLEM, main
from matchstate.records.export import Exporter
from matchstate.store import Store

FINISHED = ({"type": "chukker.start", "chukker": 1}, {"type": "goal", "team": BLUE, "player": 1},
            {"type": "chukker.end", "chukker": 1}, {"type": "match.end"})
LOGS = [hand_log("otoño-1", "2026-03-14", *FINISHED, event="Copa Otoño"),
        hand_log("final: Ñandú", "2026-05-02", *FINISHED, event="Copa Primavera", handicap_goals={RED: 0.5}),
        hand_log("100%", "2025-11-01", {"type": "chukker.start", "chukker": 1})]
LONG = "😀" * 64  # a code of 256 bytes: its name and ".jsonl" are more than a file system holds
LOGS += [hand_log(code, "2024-01-06", *FINISHED) for code in (".hidden", LONG)]  # a shell's * skips a dotfile


@pytest.fixture
def league(store: Store, monkeypatch: pytest.MonkeyPatch) -> Store:
    """A league's store, which the command line uses: the logs imported, and a match logged live with a goal its
    official struck out."""
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
    live = hand_log("live-1", "2026-03-20", {"type": "chukker.start", "chukker": 1},
                    {"type": "goal", "team": RED, "id": "tablet/3"}, {"type": "void", "seq": 3, "reason": "no goal"},
                    event="Copa Otoño")
    store.create_match(live[0])
    for event in live[1:]:
        store.append("live-1", event, role="official" if event["type"] == "void" else "scorer")
    return stored(store, *LOGS)


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    status = main(list(argv))
    out, err = capsys.readouterr()
    return status, out, err


def listed(capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    """The matches as `matchstate matches --json` lists them, by code, less when each was last appended to."""
    status, out, _ = run(capsys, "matches", "--json")
    assert status == 0
    return sorted(({k: v for k, v in match.items() if k != "last_at"} for match in json.loads(out)),
                  key=lambda match: match["match"])


def test_every_match_exported_into_a_folder_is_imported_back_as_the_same_matches(
        league: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "season"
    status, out, _ = run(capsys, "export", "--into", str(folder))
    assert status == 0
    long_name = "😀" * 58 + "~" + hashlib.sha256(LONG.encode()).hexdigest()[:16] + ".jsonl"  # 255 bytes
    files = {"otoño-1": "otoño-1.jsonl", "final: Ñandú": "final: Ñandú.jsonl", "100%": "100%25.jsonl",
             "live-1": "live-1.jsonl", ".hidden": "%2Ehidden.jsonl", LONG: long_name}
    assert sorted(path.name for path in folder.iterdir()) == sorted(files.values())
    assert sorted(out.splitlines()) == sorted(str(folder / name) for name in files.values())
    singly = {code: main_export(capsys, code) for code in files}
    for code, log in singly.items():  # each file is the match's own export
        assert (folder / files[code]).read_text(encoding="utf-8") == log
    before = listed(capsys)

    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", f"sqlite:///{tmp_path / 'new.db'}")
    monkeypatch.setenv("MATCHSTATE_SECRET_FILE", str(tmp_path / "new.secret"))
    assert run(capsys, "db", "upgrade", "--create")[0] == 0
    status, _, err = run(capsys, "import", *sorted(glob.glob(f"{folder}/*.jsonl")))  # as a shell reads DIR/*.jsonl
    assert status == 0, err
    assert listed(capsys) == before
    for code, log in singly.items():
        assert main_export(capsys, code) == log
    status, out, _ = run(capsys, "verify")
    assert status == 0, out


def main_export(capsys: pytest.CaptureFixture[str], code: str) -> str:
    status, out, err = run(capsys, "export", code)
    assert status == 0, err
    return out


@pytest.mark.parametrize(("options", "codes"), [
    (["--event", "copa otoño"], {"otoño-1", "live-1"}),  # a tournament, named as stats names it
    (["--season", "2026"], {"otoño-1", "final: Ñandú", "live-1"}),
    (["--season", "2026-03-01..2026-03-31"], {"otoño-1", "live-1"}),
    (["--season", "2026-03-15..2026-12-31", "--event", "Copa Otoño"], {"live-1"}),
])
def test_a_tournaments_matches_or_those_between_two_dates_are_exported(
        league: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str], options: list[str], codes: set[str]) -> None:
    folder = tmp_path / "some"
    assert run(capsys, "export", "--into", str(folder), *options)[0] == 0
    assert {path.name for path in folder.iterdir()} == {f"{code}.jsonl" for code in codes}


def test_an_export_of_every_match_is_refused_where_it_cannot_be_what_was_asked(
        league: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Into a folder that holds files (a match removed since an earlier export would be imported back with it),
    with a match named too, a season that is no date, or a filter with no folder: refused, and nothing written."""
    used = tmp_path / "used"
    used.mkdir()
    (used / "gone.jsonl").write_text("{}\n", encoding="utf-8")
    fresh = str(tmp_path / "fresh")
    for argv, said in (
            (["--into", str(used)], f"matchstate: {used} is not empty: every match is exported into a new or "
                                    "empty folder\n"),
            (["otoño-1", "--into", fresh], "matchstate: export MATCH, or every match --into DIR: not both\n"),
            (["--into", fresh, "--season", "26"], "matchstate: season must be a year (2026) or a date range "
                                                  "(2026-03-01..2026-09-30), not '26'\n"),
            (["--season", "2026"], "matchstate: --event and --season choose the matches of --into DIR\n"),
            ([], "matchstate: export MATCH, or every match --into DIR\n")):
        assert run(capsys, "export", *argv) == (COULD_NOT_RUN, "", said)
    assert [path.name for path in used.iterdir()] == ["gone.jsonl"]
    assert not Path(fresh).exists()


def tampered(store: Store, code: str, statement: str) -> None:
    """Run ``statement`` (its ``:id`` the match ``code``'s id) as SQL behind the store's back."""
    with store.engine.begin() as connection:
        found = connection.execute(text("SELECT id FROM matches WHERE code = :code"), {"code": code}).scalar_one()
        connection.execute(text(statement), {"id": found})


def test_a_match_whose_row_cannot_be_read_back_is_judged_by_its_stored_match_start_and_exported(
        league: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Its log is what is exported, as `export MATCH` exports it: a row SQL changed does not leave it out."""
    tampered(league, "otoño-1", "UPDATE matches SET score = '\"3-0\"' WHERE id = :id")
    folder = tmp_path / "otoño"
    status, out, _ = run(capsys, "export", "--into", str(folder), "--event", "Copa Otoño")
    assert (status, out) == (0, f"{folder / 'live-1.jsonl'}\n{folder / 'otoño-1.jsonl'}\n")  # as the store got them
    assert (folder / "otoño-1.jsonl").read_text(encoding="utf-8") == main_export(capsys, "otoño-1")


@pytest.mark.parametrize("store_url", ["sqlite"], indirect=True)  # PostgreSQL keeps no word in a time
def test_a_match_whose_log_cannot_be_read_back_is_named_and_the_others_are_written(
        league: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """As `matchstate matches` names it: the rest of the season is written, and the exit status is 1."""
    tampered(league, "live-1", "UPDATE events SET at = 'yesterday' WHERE match_id = :id AND seq = 2")
    folder = tmp_path / "otoño"
    status, out, err = run(capsys, "export", "--into", str(folder), "--event", "Copa Otoño")
    assert (status, out) == (FOUND_A_PROBLEM, f"{folder / 'otoño-1.jsonl'}\n"), err
    assert re.fullmatch(r"matchstate: match live-1 cannot be read back from the store \(.+\): `matchstate verify` "
                        r"says what was changed\n", err)
    assert [path.name for path in folder.iterdir()] == ["otoño-1.jsonl"]


def test_a_match_whose_file_cannot_be_written_is_named_and_the_others_are_written(
        league: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    """A file system that ignores case takes two codes differing only in case for one file; a full disk, any file:
    the export stopped there, and its folder, no longer empty, refused the export asked again."""
    written_into = Exporter.written_into

    def failing(self: Exporter, store: Store, code: str, folder: Path) -> Path:
        if code == "live-1":
            raise OSError(28, "No space left on device")
        return written_into(self, store, code, folder)

    monkeypatch.setattr(Exporter, "written_into", failing)
    folder = tmp_path / "otoño"
    status, out, err = run(capsys, "export", "--into", str(folder), "--event", "Copa Otoño")
    assert (status, out, err) == (FOUND_A_PROBLEM, f"{folder / 'otoño-1.jsonl'}\n",
                                  "matchstate: [Errno 28] No space left on device\n")
