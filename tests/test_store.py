"""The store: appending, retries, refusals, import and export, and the commands, on SQLite and PostgreSQL."""

import io
import json
import os
import sys
from datetime import UTC, datetime, timedelta, timezone
from pathlib import Path
from typing import Any

import pytest
from conftest import BLUE, RED, known, match_log, stamp
from sqlalchemy import event, text

from matchstate import Match
from matchstate.cli import main
from matchstate.errors import ConflictError, DuplicateMatch, RefusedEvent, UnknownMatch
from matchstate.log import MAX_LINE_BYTES
from matchstate.store import KeyCheck, Store, Summary, hash_key


def stored_rows(store: Store) -> list[Any]:
    """Every row of every table, to see that a refusal changed nothing."""
    with store.engine.connect() as connection:
        return [connection.execute(text(f"SELECT * FROM {table} ORDER BY 1, 2")).all()
                for table in ("matches", "events", "rulings")]


@pytest.fixture
def started(store: Store) -> list[dict[str, Any]]:
    """Match m-1 stored with its first 6 events; returns its whole log of 40."""
    log = match_log("m-1", 40)
    store.create_match(log[0], keys={"scorer": "s-hash", "official": "o-hash"}, role="official")
    for seq, logged in enumerate(log[1:6], 2):
        store.append("m-1", logged, expected_seq=seq - 1, role="scorer")
    return log


def test_appends_are_ruled_and_stored_as_received(store: Store, started: list[dict[str, Any]]) -> None:
    expected = Match()
    rulings = [expected.feed(event) for event in started[:8]]
    store.append("m-1", started[6], expected_seq=6)
    appended = store.append("m-1", started[7], expected_seq=7)

    assert (appended.event.seq, appended.event.state, appended.duplicate) == (8, expected.state, False)
    assert appended.event.ruling == known(rulings[7]).to_json() and known(appended.event.ruling)["kind"] == "live"
    assert appended.match == store.match("m-1")
    stored = store.events("m-1")
    assert [e.seq for e in stored] == list(range(1, 9))
    assert [json.loads(e.raw) for e in stored] == started[:8]
    assert [e.ruling for e in stored] == [r.to_json() if r else None for r in rulings]
    assert [e.role for e in stored] == ["official"] + ["scorer"] * 5 + [None] * 2
    assert stored[1].device_id == "m-1/2" and stored[1].type == "penalty.award"
    assert stored[7] == appended.event
    assert stored[1].prev_hash == stored[0].hash
    assert [e.seq for e in store.events("m-1", after_seq=6)] == [7, 8]
    assert (store.match("m-1").seq, store.match("m-1").score) == (8, expected.score)
    assert store.key_hashes("m-1") == ("s-hash", "o-hash")
    [summary] = store.summaries()
    assert isinstance(summary, Summary)
    assert (summary.code, summary.teams, summary.score, summary.state, summary.last_seq) == (
        "m-1", [BLUE, RED], expected.score, expected.state, 8)
    assert summary.last_at == stored[-1].at and summary.started == stored[0].at
    assert store.verify() == []


def test_a_snapshot_is_the_match_at_its_seq_and_never_changes(store: Store, started: list[dict[str, Any]]) -> None:
    before = store.match("m-1")  # a Penalty 4 awarded at seq 6: a free hit in progress
    appended = store.append("m-1", started[6], expected_seq=6)  # "Play"
    after = store.append("m-1", started[7], expected_seq=7).match

    expected = Match()
    for logged in started[:6]:
        expected.feed(logged)
    assert (before.seq, before.state, dict(before.score), before.free_hit) == (
        6, expected.state, expected.score, expected.free_hit)
    assert before.hash == store.events("m-1")[5].hash and before.void == frozenset()
    assert before.accepted_types() == expected.accepted_types() and before.teams == (BLUE, RED)
    assert (before.state, known(before.free_hit).penalty, before.play_at) == ("awarded", "4", None)
    assert (appended.match.seq, appended.match.state, after.seq, after.state) == (7, "play_called", 8, "live")
    assert appended.match.play_at == datetime.fromisoformat(started[6]["at"])  # still the moment of seq 7
    with pytest.raises(AttributeError):
        appended.match.seq = 9  # type: ignore[misc]  # frozen: the test writes it to see it refused
    with pytest.raises(TypeError):
        after.score[BLUE] = 99  # type: ignore[index]
    with pytest.raises(TypeError):
        after.info["teams"] = ["x"]  # type: ignore[index]
    with pytest.raises(TypeError):
        after.info["handicap_goals"][BLUE] = 9
    assert store.match("m-1") == after and json.loads(json.dumps(after.score)) == dict(after.score)
    assert not isinstance(after, Match)


def test_the_clock_and_the_engine_version_are_the_stores_own(store_url: str) -> None:
    moments = iter([datetime(2026, 11, 29, 15, 0, 1, 250_000, tzinfo=UTC),
                    datetime(2026, 11, 29, 18, 0, 2, tzinfo=timezone(timedelta(hours=3)))])
    Store(store_url).upgrade()
    store = Store(store_url, clock=lambda: next(moments), engine_version="9.9.9")
    log = match_log("m-1", 2)
    store.create_match(log[0])
    store.append("m-1", log[1])
    stored = store.events("m-1")
    assert [event.received_at for event in stored] == [datetime(2026, 11, 29, 15, 0, 1, 250_000, tzinfo=UTC),
                                                       datetime(2026, 11, 29, 15, 0, 2, tzinfo=UTC)]
    with store.engine.connect() as connection:
        assert connection.execute(text("SELECT DISTINCT engine_version FROM rulings")).scalars().all() == ["9.9.9"]
    assert store.verify() == []
    store.close()


def test_a_retried_event_returns_the_stored_result_and_writes_nothing(store: Store,
                                                                      started: list[dict[str, Any]]) -> None:
    first = store.append("m-1", started[6], expected_seq=6)
    store.append("m-1", started[7])
    before = stored_rows(store)

    again = store.append("m-1", json.dumps(started[6]), expected_seq=6)  # a stale view: still the stored answer

    assert (again.event, again.duplicate, again.match.seq) == (first.event, True, 8)
    assert stored_rows(store) == before
    with pytest.raises(RefusedEvent, match="id 'm-1/7' is the id of seq 7 already, a different event"):
        store.append("m-1", {**started[8], "id": "m-1/7"})
    assert stored_rows(store) == before


def test_an_append_returns_the_event_as_it_reads_back(store: Store) -> None:
    log = match_log("m-1", 30)
    at = datetime.fromisoformat(log[4]["at"]).astimezone(timezone(timedelta(hours=-3)))
    log[4] = {**log[4], "at": at.isoformat()}  # the same moment at another offset: stored in UTC

    answers = [store.create_match(log[0]), *(store.append("m-1", event) for event in log[1:])]

    assert [answer.event for answer in answers] == store.events("m-1")
    assert answers[4].event.at == at and answers[4].event.at.utcoffset() == timedelta(0)


def test_a_stale_expected_seq_is_a_conflict(store: Store, started: list[dict[str, Any]]) -> None:
    before = stored_rows(store)
    with pytest.raises(ConflictError, match="match m-1 is at seq 6, not 4") as conflict:
        store.append("m-1", started[6], expected_seq=4)
    assert conflict.value.current_seq == 6
    assert stored_rows(store) == before


def test_a_match_is_created_once(store: Store, started: list[dict[str, Any]]) -> None:
    before = stored_rows(store)
    with pytest.raises(DuplicateMatch, match="'m-1' is in the store already"):
        store.create_match({**started[0], "id": "other"})
    with pytest.raises(RefusedEvent, match=r"the first event must be match\.start"):
        store.create_match(started[2])
    assert stored_rows(store) == before


BAD_EVENTS = {
    "malformed JSON": ('{"type": "play", "at": ', "not JSON"),
    "not an object": ('["play"]', "an event must be a JSON object, not list"),
    "unknown type": ({"type": "timeout", "at": stamp(10_000)}, "unknown type 'timeout'"),
    "wrong team": ({"type": "knockin.award", "to": "Green", "at": stamp(10_000)}, "unknown team 'Green'"),
    "time going backwards": ({"type": "whistle", "at": stamp(1_000)}, "is earlier than the event before it"),
    "makes no sense now": ({"type": "decide", "option": 1, "at": stamp(10_000)}, "there is nothing to choose"),
    "a second start": ({**match_log("m-1", 1)[0], "id": "again", "at": stamp(10_000)},
                       "match.start is allowed only as the first event"),
    "oversized object": ({"type": "tick", "at": stamp(10_000), "by": "x" * MAX_LINE_BYTES},
                         f"longer than {MAX_LINE_BYTES} bytes"),
    "oversized line": (json.dumps({"type": "tick", "at": stamp(10_000)}) + " " * MAX_LINE_BYTES,
                       f"longer than {MAX_LINE_BYTES} bytes"),
    "lone surrogate": (f'{{"type": "tick", "at": "{stamp(10_000)}", "by": "\\ud800"}}', "lone surrogate"),
    "not JSON-able": ({"type": "tick", "at": stamp(10_000), "by": {1, 2}}, "not JSON"),
}


@pytest.mark.parametrize("event, reason", BAD_EVENTS.values(), ids=BAD_EVENTS.keys())
def test_a_refused_event_says_why_and_changes_nothing(store: Store, started: list[dict[str, Any]], event: Any,
                                                      reason: str) -> None:
    before = stored_rows(store)
    with pytest.raises(RefusedEvent, match=reason):
        store.append("m-1", event)
    assert stored_rows(store) == before
    assert store.append("m-1", started[6]).event.seq == 7


def test_an_unknown_match_is_named(store: Store, started: list[dict[str, Any]]) -> None:
    before = stored_rows(store)
    for call in (lambda: store.append("m-2", started[6]), lambda: store.events("m-2"),
                 lambda: store.match("m-2"), lambda: store.key_hashes("m-2"), lambda: store.verify("m-2")):
        with pytest.raises(UnknownMatch, match="no match 'm-2' in the store"):
            call()
    assert stored_rows(store) == before


def test_quotes_and_sql_in_strings_round_trip_exactly(store: Store) -> None:
    code = "O'Brien \"Cup\"; DROP TABLE matches;--"
    lines = [
        f'{{"type":"match.start",  "match": {json.dumps(code)}, '
        '"teams": ["Robert\'); DROP TABLE events;--", "Los \\"Ceibos\\""],'
        ' "at": "2026-11-29T15:00:00Z", "venue": "Cañada Honda 🐎"}',
        '{"at": "2026-11-29T15:00:01Z", "type": "knockin.award", "to": "Los \\"Ceibos\\"",'
        ' "by": "\' OR 1=1; --", "id": "\'; DELETE FROM rulings; --", "extra": [1, 2.50, null]}',
    ]
    store.create_match(lines[0])
    store.append(code, lines[1])

    assert [stored.raw for stored in store.events(code)] == lines
    assert store.events(code)[1].by == "' OR 1=1; --"
    assert store.append(code, lines[1]).duplicate
    assert [summary.code for summary in store.summaries()] == [code]
    assert store.verify() == []


def test_a_failed_commit_leaves_the_cached_engine_right(store: Store, started: list[dict[str, Any]],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    def fail(*_: Any) -> None:
        raise OSError("the disk is full")

    monkeypatch.setattr(store.database.statements, "write", fail)
    with pytest.raises(OSError):
        store.append("m-1", started[6])  # the cached engine took the event, the database did not
    monkeypatch.undo()

    assert store.match("m-1").seq == 6
    assert store.append("m-1", started[6], expected_seq=6).event.seq == 7


def test_an_append_costs_the_same_at_seq_10_and_200(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    log = match_log("long", 204)
    store.create_match(log[0])
    statements: list[str] = []
    # Every statement, an append's own too (sent to the driver, they fire the engine's cursor events as it does).
    event.listen(store.engine, "before_cursor_execute", lambda *args: statements.append(args[2]))

    def statements_of_append(seq: int) -> list[str]:
        statements.clear()
        store.append("long", log[seq - 1], expected_seq=seq - 1)
        return list(statements)

    for seq in range(2, 10):
        store.append("long", log[seq - 1])
    at_10 = statements_of_append(10)
    for seq in range(11, 200):
        store.append("long", log[seq - 1])
    assert statements_of_append(200) == at_10
    # The head with the device id's event, then the event, its ruling and the new head: on PostgreSQL in
    # one statement, a round trip of its own before the commit's.
    own = [statement for statement in at_10 if "log_" not in statement and "pg_advisory" not in statement]
    assert len(own) == (4 if store.database.sqlite else 2)
    # The league log's, once per group: its lock (PostgreSQL), its head read, the leaves, nodes and head written.
    assert len(at_10) - len(own) == (4 if store.database.sqlite else 5)
    assert not any("ORDER BY events.seq" in statement for statement in at_10)  # no replay: not one read of the events

    store.issue_key("long", "scorer", hash_key("scorer"))
    held: list[str | None] = []
    statements.clear()
    def admit(role: str | None, known: bool) -> str:
        held.append(role)
        return "scorer"

    appended = store.append("long", log[200], expected_seq=200, key=KeyCheck(hash_key("scorer"), admit))
    assert held == ["scorer"] and appended.event.role == "scorer"
    assert len(statements) == len(at_10)  # the key is read in the head's own statement


def test_appends_by_another_store_are_noticed(store: Store, started: list[dict[str, Any]]) -> None:
    other = Store(str(store.url.render_as_string(hide_password=False)))
    assert other.match("m-1").seq == 6  # replayed from the database
    other.append("m-1", started[6], expected_seq=6)
    other.append("m-1", started[7], expected_seq=7)

    assert store.match("m-1").seq == 8  # the cached engine caught up
    assert store.append("m-1", started[8], expected_seq=8).event.seq == 9
    assert other.match("m-1").state == store.match("m-1").state
    other.close()


# -- the commands ----------------------------------------------------------------------------

@pytest.fixture
def database(store: Store, monkeypatch: pytest.MonkeyPatch) -> Store:
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
    return store


def test_import_then_export_gives_the_log_back_line_for_line(database: Store, tmp_path: Path,
                                                             capsysbinary: pytest.CaptureFixture[bytes]) -> None:
    lines = [json.dumps(event, ensure_ascii=False, indent=None, separators=sep)
             for event, sep in zip(match_log("Copa Ñandú", 30), [(", ", ": "), (",", ":")] * 15, strict=False)]
    lines[3] = lines[3].replace('"type"', ' "type"') + "  "
    log = tmp_path / "match.jsonl"
    log.write_text("\n".join(lines[:10]) + "\n\n" + "\n".join(lines[10:]) + "\n", encoding="utf-8")

    assert main(["import", str(log)]) == 0
    assert b"imported match Copa \xc3\x91and\xc3\xba: 30 events" in capsysbinary.readouterr().out
    assert main(["export", "Copa Ñandú"]) == 0
    assert capsysbinary.readouterr().out.decode("utf-8") == "".join(line + "\n" for line in lines)


def test_import_is_all_or_nothing(database: Store, tmp_path: Path) -> None:
    lines = [json.dumps(event) for event in match_log("m-9", 30)]
    for broken, reason in (([*lines[:20], '{"type": "goal", "team": "Green", "at": "2026-11-29T15:01:00Z"}'],
                            "line 21: goal: field 'team' names an unknown team 'Green'"),
                           ([*lines[:20], lines[12]], "line 21: id 'm-9/13' is the id of seq 13 already")):
        with pytest.raises(RefusedEvent, match=reason):
            database.import_log(broken)
        assert stored_rows(database) == [[], [], []]
    log = tmp_path / "bad.jsonl"
    log.write_text("\n".join([*lines[:5], "{oops"]), encoding="utf-8")
    assert main(["import", str(log)]) == 2
    assert stored_rows(database) == [[], [], []]
    assert database.import_log(lines) == ("m-9", 30)
    with pytest.raises(DuplicateMatch):
        database.import_log(lines)


def test_import_takes_several_logs_in_turn_naming_one_refused_and_going_on(database: Store, tmp_path: Path,
                                                                        capsys: pytest.CaptureFixture[str]) -> None:
    paths = []
    for code in ("m-1", "m-2", "m-3"):
        paths.append(tmp_path / f"{code}.jsonl")
        lines = [json.dumps(event) for event in match_log(code, 4)]
        paths[-1].write_text("\n".join([*lines, "{oops"] if code == "m-2" else lines) + "\n", encoding="utf-8")
    assert main(["import", *map(str, paths)]) == 2  # one was refused
    out, err = capsys.readouterr()
    assert "imported match m-1: 4 events" in out and "imported match m-3: 4 events" in out and "m-2" not in out
    assert f"matchstate: {paths[1]}: line 5: " in err and err.endswith("2 of 3 logs imported\n")
    assert [summary.code for summary in database.summaries()] == ["m-1", "m-3"]
    (tmp_path / "m-4.jsonl").write_text("".join(json.dumps(event) + "\n" for event in match_log("m-4", 2)))
    assert main(["import", str(tmp_path / "m-4.jsonl"), str(paths[0]), "--json"]) == 2  # m-1 is there already
    out, err = capsys.readouterr()
    [imported] = json.loads(out)
    assert (imported["match"], imported["events"], imported["log"]) == ("m-4", 2, str(tmp_path / "m-4.jsonl"))
    assert "is in the store already" in err and err.endswith("1 of 2 logs imported\n")


class _Closed(io.StringIO):
    """Standard output whose reader stopped reading (`matchstate import ... | head -1`)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def fileno(self) -> int:
        return os.open(os.devnull, os.O_WRONLY)


def test_import_whose_keys_cannot_be_shown_says_so_and_imports_no_more(database: Store, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """Piped into a reader that stopped, it imported the first log, lost its keys, stopped, and exited 0."""
    paths = []
    for code in ("m-1", "m-2"):
        paths.append(tmp_path / f"{code}.jsonl")
        paths[-1].write_text("".join(json.dumps(event) + "\n" for event in match_log(code, 3)), encoding="utf-8")
    monkeypatch.setattr(sys, "stdout", _Closed())
    assert main(["import", *map(str, paths)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("matchstate: m-1 stored, but the keys could not be shown (Broken pipe): make new ones with "
                          "`matchstate keys issue MATCH scorer`")
    assert [summary.code for summary in database.summaries()] == ["m-1"]  # m-2's keys would be lost too


def test_matches_show_and_verify_commands(database: Store, started: list[dict[str, Any]],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["matches"]) == 0
    listed = capsys.readouterr().out
    assert "m-1" in listed and "Blue 1 – Red 0" in listed and "6 events" in listed
    assert main(["show", "m-1", "--json"]) == 0
    shown = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [step.get("seq") for step in shown[:-1]] == list(range(1, 7))
    assert shown[-1]["final"]["score"] == {BLUE: 1, RED: 0}
    assert main(["verify"]) == 0
    assert "verified" in capsys.readouterr().out
    with database.engine.begin() as connection:
        connection.execute(text("UPDATE events SET raw = replace(raw, 'Blue', 'Red') WHERE seq = 5"))
    assert main(["verify", "m-1"]) == 1
    assert "match m-1, seq 5: its JSON, role, received_at and ruling's engine_version do not give its hash" \
        in capsys.readouterr().out
    assert main(["show", "nope"]) == 2


def test_commands_ask_for_an_upgrade_first(store_url: str, monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store_url)
    assert main(["matches"]) == 2
    err = capsys.readouterr().err
    assert "run `matchstate db upgrade`" in err or "`matchstate db upgrade --create` makes one" in err
    assert main(["db", "upgrade", "--create"]) == 0
    assert main(["db", "upgrade"]) == 0
    assert main(["matches"]) == 0
