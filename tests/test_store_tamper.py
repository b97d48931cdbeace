"""Tamper evidence: rows edited, removed or swapped with plain SQL behind the store's back, and verify names them."""

import csv
import hashlib
import io
import json
import re
import warnings
from collections.abc import Callable
from typing import Any

import pytest
from conftest import match_log
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]  # it ships no types
from sqlalchemy import text

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from matchstate.cli import COULD_NOT_RUN, FOUND_A_PROBLEM, main
from matchstate.store import Store
from matchstate.version import ENGINE_VERSION
from matchstate.web import create_app

EVENTS = 13  # three rallies: a Penalty 4 awarded, "Play", the stroke (ruled live), a goal


def play(store: Store) -> Store:
    log = match_log("m-1", EVENTS)
    store.create_match(log[0], role="official")
    for event in log[1:]:
        store.append("m-1", event, role="scorer")
    store.create_match(match_log("m-2", 1)[0])  # an untouched match beside it
    assert store.verify() == []
    return store


@pytest.fixture
def played(store: Store) -> Store:
    return play(store)


Sql = Callable[..., Any]  # runs one statement on m-1's rows


def tamper_with(store: Store, edit: Callable[[Sql], None]) -> None:
    """Run ``edit(sql)`` in one committed transaction: ``sql`` runs plain SQL on m-1's rows, each WHERE
    narrowed to m-1 (``matches`` by its id, the other tables by match_id)."""
    with store.engine.begin() as connection:
        match_id = connection.execute(text("SELECT id FROM matches WHERE code = 'm-1'")).scalar_one()

        def sql(statement: str, params: dict[str, Any] | None = None) -> Any:
            key = "id" if " matches " in statement else "match_id"
            return connection.execute(text(statement.replace("WHERE ", f"WHERE {key} = {match_id} AND ")),
                                      params or {})

        edit(sql)


def swap_rows(sql: Sql, a: int, b: int) -> None:
    """Swap everything but the seq between two events, as if they had been logged in the other order."""
    columns = "type, at, raw, device_id, recorded_by, role, received_at, prev_hash, hash"
    rows = {seq: sql(f"SELECT {columns} FROM events WHERE seq = {seq}").one()._asdict() for seq in (a, b)}
    sql(f"UPDATE events SET device_id = NULL WHERE seq IN ({a}, {b})")  # the unique (match, device id)
    for seq, other in ((a, b), (b, a)):
        sql(f"UPDATE events SET {', '.join(f'{c} = :{c}' for c in columns.split(', '))} WHERE seq = {seq}",
            rows[other])


def delete(sql: Sql, seq: int) -> None:
    sql(f"DELETE FROM rulings WHERE seq = {seq}")
    sql(f"DELETE FROM events WHERE seq = {seq}")


def edit_ruling(sql: Sql, seq: int, **changes: Any) -> None:
    """Rewrite the stored ruling of ``seq``: its keys in ``changes`` replaced (``text_en`` is ``text.en``)."""
    ruling = sql(f"SELECT ruling FROM rulings WHERE seq = {seq}").scalar_one()
    ruling = json.loads(ruling) if isinstance(ruling, str) else ruling
    if "text_en" in changes:
        ruling["text"]["en"] = changes.pop("text_en")
    sql(f"UPDATE rulings SET ruling = :ruling WHERE seq = {seq}", {"ruling": json.dumps({**ruling, **changes})})


HASHED = "its JSON, role, received_at and ruling's engine_version do not give its hash: the row was changed"
# Each: the edit, the first bad seq, what verify says of it.
TAMPERING = {
    "an event's JSON edited": (lambda sql: sql("UPDATE events SET raw = replace(raw, 'Blue', 'Red') WHERE seq = 5"),
                               5, HASHED),
    "an event's hash edited": (lambda sql: sql(f"UPDATE events SET hash = '{'a' * 64}' WHERE seq = 3"), 3, HASHED),
    "an event's role edited": (lambda sql: sql("UPDATE events SET role = 'official' WHERE seq = 6"), 6, HASHED),
    "an event's role cleared": (lambda sql: sql("UPDATE events SET role = NULL WHERE seq = 1"), 1, HASHED),
    "an event's received_at edited": (
        lambda sql: sql("UPDATE events SET received_at = '2026-11-29 15:00:09.000000' WHERE seq = 9"), 9, HASHED),
    "a ruling's engine_version edited": (
        lambda sql: sql("UPDATE rulings SET engine_version = '0.0.9' WHERE seq = 10"), 10, HASHED),
    "an event's type edited": (lambda sql: sql("UPDATE events SET type = 'whistle' WHERE seq = 7"),
                               7, 'its type column is "whistle", but its JSON gives "play"'),
    "an event's at edited": (lambda sql: sql("UPDATE events SET at = '2026-11-29 15:00:11.500000' WHERE seq = 11"),
                             11, "2026-11-29T15:00:11.500000Z, but its JSON gives 2026-11-29T15:00:11.000000Z"),
    "an event's device id edited": (lambda sql: sql("UPDATE events SET device_id = 'forged' WHERE seq = 4"),
                                    4, 'its device_id column is "forged", but its JSON gives "m-1/4"'),
    "an event's by edited": (lambda sql: sql("UPDATE events SET recorded_by = 'Umpire 2' WHERE seq = 2"),
                             2, 'its by column is "Umpire 2", but its JSON gives null'),
    "an event removed": (lambda sql: delete(sql, 6), 6, "missing: the next stored event is seq 7"),
    "the first event removed": (lambda sql: delete(sql, 1), 1, "missing"),
    "the last event removed": (lambda sql: delete(sql, EVENTS), EVENTS, "the chain ends at seq 12, but the "
                               "match's head is seq 13"),
    "two events swapped": (lambda sql: swap_rows(sql, 8, 9), 8, "a row was moved or replaced"),
    "a stored ruling changed": (
        lambda sql: sql("UPDATE rulings SET ruling = NULL, state = 'idle' WHERE seq = 4"),
        4, "the stored ruling differs from the engine's: stored no ruling, the engine gives the ruling "
           '{"kind": "live", "against": null, "violation": null, "cite": ["36/one-stroke"],…; '
           "state after it: stored idle, engine live"),
    "a stored ruling's keys changed": (
        lambda sql: edit_ruling(sql, 8, cite=["36/one-stroke", "36/five"], against="Red",
                                text_en="Ball in play: the ball was hit or hit at, by Red."),
        8, 'the stored ruling differs from the engine\'s: against: stored "Red", engine null; '
           'cite: stored ["36/one-stroke", "36/five"], engine ["36/one-stroke"]; '
           'text.en: stored …"it or hit at, by Red.", engine …"it or hit at."'),
    "a stored ruling removed": (lambda sql: sql("DELETE FROM rulings WHERE seq = 12"),
                                12, "its ruling row is missing: it was removed"),
}


def run_verify(store: Store, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> tuple[int, str]:
    """``matchstate verify`` on ``store``: its exit status and what it printed."""
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
    status = main(["verify"])
    return status, capsys.readouterr().out


@pytest.mark.parametrize("edit, first_bad, what", TAMPERING.values(), ids=TAMPERING.keys())
def test_verify_names_the_first_bad_seq(played: Store, edit: Callable[[Sql], None], first_bad: int, what: str,
                                        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    tamper_with(played, edit)

    problems = played.verify()
    assert [(problem.match, problem.seq, problem.column) for problem in problems] == [("m-1", first_bad, None)]
    assert what in problems[0].what
    assert played.verify("m-2") == []
    assert run_verify(played, monkeypatch, capsys) == (1, f"{problems[0]}\n")


# Each: the edit of the match's row, the column named, what verify says of it.
ROW_TAMPERING = {
    "score": ("UPDATE matches SET score = '{\"Blue\": 0, \"Red\": 9}' WHERE true",
              'it is {"Blue": 0, "Red": 9}, but the chain and its replay give {"Blue": 3, "Red": 0}'),
    "state": ("UPDATE matches SET state = 'live' WHERE true", 'it is "live", but the chain and its replay give "idle"'),
    "teams": ("UPDATE matches SET teams = '[\"Blue\", \"Green\"]' WHERE true",
              'it is ["Blue", "Green"], but the chain and its replay give ["Blue", "Red"]'),
    "conditions": ("UPDATE matches SET conditions = '{}' WHERE true", "it is {}, but the chain and its replay give"),
    "created": ("UPDATE matches SET created = '2026-11-28 10:00:00' WHERE true",
                "it is 2026-11-28T10:00:00.000000Z, but the chain and its replay give"),
    "last_at": ("UPDATE matches SET last_at = '2026-11-29 15:00:12' WHERE true",
                "it is 2026-11-29T15:00:12.000000Z, but the chain and its replay give 2026-11-29T15:00:13.000000Z"),
    "last_seq": ("UPDATE matches SET last_seq = 14 WHERE true",
                 "it is 14, but the chain ends at seq 13 with the row's last_hash"),
    "last_hash": (f"UPDATE matches SET last_hash = '{'b' * 64}' WHERE true",
                  "it is not the hash of seq 13, where the chain ends"),
    "code": ("UPDATE matches SET code = 'm-9' WHERE true", 'it is "m-9", but the chain and its replay give "m-1"'),
}


def test_verify_names_a_row_whose_time_was_overwritten_with_a_word(played: Store) -> None:
    """SQLite keeps the word in its time column, which then fails as it is read back; PostgreSQL reads
    'yesterday' as a time. Either way the row was changed, and verify names it."""
    tamper_with(played, lambda sql: sql("UPDATE events SET received_at = 'yesterday' WHERE seq = 7"))
    [problem] = played.verify("m-1")
    assert problem.seq == 7 and "changed" in problem.what


@pytest.mark.parametrize("column", ROW_TAMPERING)
def test_verify_names_a_changed_column_of_the_match_row(played: Store, column: str, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    edit, what = ROW_TAMPERING[column]
    tamper_with(played, lambda sql: sql(edit))

    code = "m-9" if column == "code" else "m-1"
    problems = played.verify()
    assert [(problem.match, problem.seq, problem.column) for problem in problems] == [(code, None, column)]
    assert what in problems[0].what
    assert str(problems[0]) == f"match {code}, its row's {column}: {problems[0].what}"
    assert played.verify(code) == problems and played.verify("m-2") == []
    assert run_verify(played, monkeypatch, capsys) == (1, f"{problems[0]}\n")


def test_verify_names_the_first_of_several_bad_seqs_and_every_bad_column(played: Store) -> None:
    def edit(sql: Sql) -> None:
        sql("UPDATE events SET role = 'official' WHERE seq = 9")
        sql("UPDATE events SET received_at = '2026-11-29 15:00:00' WHERE seq = 4")
        sql("UPDATE rulings SET engine_version = '9.9.9' WHERE seq = 12")

    tamper_with(played, edit)
    assert [(problem.seq, problem.what) for problem in played.verify()] == [(4, HASHED)]

    tamper_with(played, lambda sql: sql("UPDATE matches SET score = '{}', state = 'ended' WHERE true"))
    assert [problem.seq for problem in played.verify()] == [4]  # the row is checked only where the chain holds


def test_verify_names_every_bad_column_of_a_whole_chain(played: Store) -> None:
    tamper_with(played, lambda sql: sql("UPDATE matches SET score = '{}', state = 'ended', last_seq = 2 WHERE true"))
    assert [(problem.seq, problem.column) for problem in played.verify()] == [
        (None, "last_seq"), (None, "state"), (None, "score")]


def test_what_each_hash_covers(played: Store) -> None:
    """The hashed form as the README gives it, worked out here without the store's own functions."""
    with played.engine.connect() as connection:
        rows = connection.execute(text(
            "SELECT e.raw, e.role, e.received_at, e.prev_hash, e.hash, r.engine_version FROM events e "
            "JOIN rulings r ON r.match_id = e.match_id AND r.seq = e.seq JOIN matches m ON m.id = e.match_id "
            "WHERE m.code = 'm-1' ORDER BY e.seq")).all()
    stored = played.events("m-1")
    previous = "0" * 64
    for row, event in zip(rows, stored, strict=True):
        material = {"engine_version": row.engine_version, "event": json.loads(row.raw),
                    "received_at": event.received_at.strftime("%Y-%m-%dT%H:%M:%S.%fZ"), "role": row.role}
        canonical = json.dumps(material, ensure_ascii=False, sort_keys=True, separators=(",", ":")).encode("utf-8")
        assert (row.prev_hash, row.hash) == (previous, hashlib.sha256(previous.encode("ascii") + canonical).hexdigest())
        previous = row.hash
    assert [row.role for row in rows] == ["official"] + ["scorer"] * (EVENTS - 1)
    assert {row.engine_version for row in rows} == {ENGINE_VERSION}


def test_a_ruling_stored_by_another_engine_version(store: Store) -> None:
    older = Store(store.url.render_as_string(hide_password=False), engine_version="0.0.9")
    play(older)  # m-1 ruled by "engine 0.0.9"
    older.close()
    assert store.verify() == []  # it rules as this engine does: nothing wrong

    tamper_with(store, lambda sql: edit_ruling(sql, 4, kind="goal", to="Red"))  # as if 0.0.9 had ruled otherwise
    [problem] = store.verify()
    assert (problem.seq, problem.what) == (4, (
        'the stored ruling differs from the engine\'s: kind: stored "goal", engine "live"; '
        f'to: stored "Red", engine nothing (no such key) (ruled by engine 0.0.9; this is engine {ENGINE_VERSION})'))


@pytest.mark.parametrize(("table", "statement", "read_back"), [
    ("its acts", "UPDATE acts SET act = 'no-such-act'", True),
    ("its league log", "UPDATE log_leaves SET body = 'not a leaf' WHERE idx = 1", True),
    ("its keys", "UPDATE keys SET issued_at = 'yesterday'", False),
])
def test_verify_names_a_table_a_row_of_which_cannot_be_read_back(
        played: Store, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], table: str,
        statement: str, read_back: bool) -> None:
    """It was a traceback (exit 1 all the same, and nothing for --json to print). SQLite keeps a word in a time
    column, which then fails as it is read back; PostgreSQL reads 'yesterday' as a time, and the row is named
    otherwise. Either way verify says what it found, and exits 1."""
    with played.engine.begin() as connection:
        connection.execute(text(statement))
    problems = played.verify()
    sqlite = played.engine.dialect.name == "sqlite"
    if read_back or sqlite:
        [unread] = [str(problem) for problem in problems if "cannot be read back" in problem.what]
        assert unread.startswith(f"the store: {table} cannot be read back (") and unread.endswith(
            "): a row was changed behind the store's back, and what comes after it is not checked")
    else:
        assert problems
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", played.url.render_as_string(hide_password=False))
    assert main(["verify", "--json"]) == 1
    shown = json.loads(capsys.readouterr().out)
    assert shown["status"] == 1 and shown["problems"] and shown["matches"] == 2


@pytest.mark.parametrize("store_url", ["sqlite"], indirect=True)  # PostgreSQL refuses what is no JSON or time
@pytest.mark.parametrize("statement", ["UPDATE matches SET created = 'yesterday' WHERE true",
                                       "UPDATE matches SET score = '{garbled' WHERE true"])
def test_verify_names_the_match_whose_row_cannot_be_read_back_and_checks_the_others(played: Store,
                                                                                    statement: str) -> None:
    """It said "its matches' rows cannot be read back" and checked nothing after: not which match, nor the rest."""
    tamper_with(played, lambda sql: sql(statement))
    problems = played.verify()
    assert [(problem.match, problem.what.split(" (")[0]) for problem in problems] == [
        ("m-1", "its row cannot be read back")]
    assert problems[0].what.endswith("): it was changed behind the store's back")
    assert played.verify("m-1") == problems and played.verify("m-2") == []  # one match asked: no IndexError


UNREAD = r"match m-1 cannot be read back from the store \(.+\): `matchstate verify` says what was changed"
# Each: a change SQL makes to m-1's rows that no listing can read back as a match, and whether only SQLite keeps
# it (it keeps any text in any column; PostgreSQL refuses invalid JSON in a JSON column, and reads 'yesterday'
# as a time).
UNREADABLE_ROWS = {
    "its score not JSON": ("UPDATE matches SET score = '{garbled' WHERE true", True),
    "its score no object": ("UPDATE matches SET score = '\"3-0\"' WHERE true", False),
    "its creation a word": ("UPDATE matches SET created = 'yesterday' WHERE true", True),
    "its match.start not JSON": ("UPDATE events SET raw = '{garbled' WHERE seq = 1", False),
    "its match.start's time a word": ("UPDATE events SET at = 'yesterday' WHERE seq = 1", True),
}


UNREADABLE_CASES = [(change, database) for change, (_, sqlite_only) in UNREADABLE_ROWS.items()
                    for database in ("sqlite",) + ("postgresql",) * (not sqlite_only)]


@pytest.mark.parametrize(("change", "store_url"), UNREADABLE_CASES, indirect=["store_url"])
def test_the_match_lists_name_a_match_whose_row_cannot_be_read_back_and_list_the_others(
        played: Store, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], change: str) -> None:
    """One row SQL changed stopped the league's list: `matchstate matches` was a traceback, `/api/matches` (and the
    records page with it) a 500. The others are listed as before, and the match is named as unreadable."""
    statement, _ = UNREADABLE_ROWS[change]
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", played.url.render_as_string(hide_password=False))
    healthy = {argv: (main(argv), capsys.readouterr()) for argv in (("matches",), ("matches", "--json"))}
    with TestClient(create_app(played)) as client:
        listed = {match["code"]: match for match in client.get("/api/matches").json()}
        tamper_with(played, lambda sql: sql(statement))
        found = client.get("/api/matches")
        searched = client.get("/api/matches", params={"venue": "nowhere"})  # a text search cannot tell: kept
        document = client.get("/openapi.json").json()

    assert main(["matches"]) == FOUND_A_PROBLEM
    out, err = capsys.readouterr()
    status, shown = healthy["matches",]
    assert status == 0 and out == "".join(line for line in shown.out.splitlines(keepends=True)
                                          if not line.startswith("m-1 "))
    assert re.fullmatch(f"matchstate: {UNREAD}\n", err)
    assert main(["matches", "--json"]) == FOUND_A_PROBLEM
    out, err = capsys.readouterr()
    status, shown = healthy["matches", "--json"]
    assert status == 0 and json.loads(out) == [match for match in json.loads(shown.out) if match["match"] != "m-1"]
    assert re.fullmatch(f"matchstate: {UNREAD}\n", err)

    assert found.status_code == 200 and searched.status_code == 200
    schema = document["paths"]["/api/matches"]["get"]["responses"]["200"]["content"]["application/json"]["schema"]
    assert not list(Draft202012Validator({**schema, **document}).iter_errors(found.json()))  # as documented
    by_code = {match["code"]: match for match in found.json()}
    assert by_code["m-2"] == listed["m-2"] and set(by_code["m-1"]) == {"code", "unreadable", "detail", "words"}
    assert re.fullmatch(UNREAD, by_code["m-1"]["detail"]) and by_code["m-1"]["words"]["en"] == by_code["m-1"]["detail"]
    assert by_code["m-1"]["words"]["es"].startswith("el partido m-1 no se puede leer del almacén (")
    assert [match["code"] for match in searched.json()] == ["m-1"]


def test_statistics_count_the_others_and_a_match_whose_log_cannot_be_read_back_is_named(
        played: Store, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """An event's JSON SQL changed into what is no JSON made `matchstate stats`, `/api/stats` and the statistics
    page a traceback or a 500 for the whole league, and `show` and `export --format csv` of the match a traceback.
    The statistics count the other matches and name it; its own log is said to be unreadable."""
    tamper_with(played, lambda sql: sql("UPDATE events SET raw = '{garbled' WHERE seq = 5"))
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", played.url.render_as_string(hide_password=False))
    assert main(["stats", "--format", "json"]) == FOUND_A_PROBLEM
    out, err = capsys.readouterr()
    assert json.loads(out)["matches"] == 1 and re.fullmatch(f"matchstate: {UNREAD}\n", err)
    assert main(["stats", "rebuild"]) == FOUND_A_PROBLEM
    assert capsys.readouterr().out == "1 matches counted from their logs\n"
    for argv in (["show", "m-1"], ["export", "m-1", "--format", "csv"]):
        assert main(argv) == COULD_NOT_RUN
        assert re.fullmatch(f"matchstate: {UNREAD}\n", capsys.readouterr().err)
    assert main(["show", "m-2"]) == 0
    with TestClient(create_app(played)) as client:
        counted = client.get("/api/stats").json()
        assert counted["matches"] == 1 and [match["code"] for match in counted["unreadable"]] == ["m-1"]
        page = client.get("/stats")
        assert page.status_code == 200
        assert re.search(f'<p class="refused" data-unreadable="m-1">{UNREAD}</p>', page.text)
        sheet = list(csv.reader(io.StringIO(client.get("/api/stats.csv").content.decode("utf-8-sig"))))
        assert sheet[-1] == ["unreadable", "m-1"] + [""] * (len(sheet[0]) - 2)  # the sheet says what it lacks
        lines = sheet[1:-1]
        assert "team" in {row[0] for row in lines} <= {"team", "player"} and not any("m-1" in row for row in lines)
        refused = client.get("/api/matches/m-1/log.csv")
        assert refused.status_code == 400 and re.fullmatch(UNREAD, refused.json()["detail"])
