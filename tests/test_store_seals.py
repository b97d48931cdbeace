"""The seals: edits of the database the hash chain alone cannot show, made with plain SQL by someone who does
not hold the store's secret, each named by verify (issue 9, finding 4), on SQLite and PostgreSQL."""

import json
import re
import sqlite3
from typing import Any

import pytest
from conftest import known, match_log
from sqlalchemy import text
from sqlalchemy.exc import IntegrityError
from test_store_tamper import EVENTS, Sql, play, tamper_with

from matchstate import Match
from matchstate.cli import main
from matchstate.errors import InvalidEvent
from matchstate.store import Store, chain_hash, hash_key, sealed
from matchstate.store.seals import head_seal
from matchstate.version import ENGINE_VERSION


@pytest.fixture
def played(store: Store) -> Store:
    """m-1 (13 events) with its scorer and official keys, and m-2 beside it."""
    play(store)
    store.issue_key("m-1", "scorer", hash_key("scorer"))
    store.issue_key("m-1", "official", hash_key("official"))
    assert store.verify() == []
    return store


def found(store: Store) -> list[tuple[Any, ...]]:
    return [(problem.match, problem.seq, problem.column) for problem in store.verify()]


def surviving_head(sql: Sql, seq: int) -> None:
    """Set m-1's row to the head of its first ``seq`` events, worked out from the rows that survive (no hashing)."""
    rows = sql(f"SELECT raw, hash, at FROM events WHERE seq <= {seq} ORDER BY seq").all()
    replayed = Match()
    for row in rows:
        replayed.feed(json.loads(row.raw))
    sql("UPDATE matches SET last_seq = :seq, last_hash = :hash, last_at = :at, state = :state, score = :score "
        "WHERE true", {"seq": seq, "hash": rows[-1].hash, "at": rows[-1].at, "state": replayed.state,
                       "score": json.dumps(replayed.score)})


def test_events_cut_off_the_end_with_the_head_set_to_match(played: Store) -> None:
    def edit(sql: Sql) -> None:
        for table in ("rulings", "events"):
            sql(f"DELETE FROM {table} WHERE seq > 10")
        surviving_head(sql, 10)

    tamper_with(played, edit)
    [problem] = played.verify()
    assert (problem.match, problem.column) == ("m-1", "seal")
    assert "it does not seal the row's head (seq 10)" in problem.what and "events cut off" in problem.what


def rewrite(store: Store, sql: Sql) -> None:
    """Give seq 5's goal to Red, and recompute every hash from there on and the match's row, with nothing but
    the chain's public contract and the engine: what someone who holds the database, not the secret, can do."""
    stored = store.events("m-1")
    digest, replayed = stored[3].hash, Match()
    for event in stored[:4]:
        replayed.feed(json.loads(event.raw))
    for event in stored[4:]:
        raw = event.raw.replace('"team": "Blue"', '"team": "Red"') if event.seq == 5 else event.raw
        replayed.feed(json.loads(raw))
        new = chain_hash(digest, sealed(json.loads(raw), event.role, event.received_at, ENGINE_VERSION))
        sql("UPDATE events SET raw = :raw, prev_hash = :prev, hash = :hash WHERE seq = :seq",
            {"raw": raw, "prev": digest, "hash": new, "seq": event.seq})
        digest = new
    sql("UPDATE matches SET last_hash = :hash, score = :score WHERE true",
        {"hash": digest, "score": json.dumps(replayed.score)})


def test_a_rewrite_that_recomputes_every_hash_and_the_head(played: Store) -> None:
    tamper_with(played, lambda sql: rewrite(played, sql))
    [problem] = played.verify()
    assert (problem.match, problem.column) == ("m-1", "seal")


def test_a_key_hash_replaced_opens_nothing_and_verify_names_it(played: Store) -> None:
    tamper_with(played, lambda sql: sql("UPDATE keys SET key_hash = :mine WHERE role = 'official'",
                                        {"mine": hash_key("mine")}))
    assert played.role_of_key("m-1", hash_key("mine")) is None  # not sealed: it hands over nothing
    assert played.role_of_key("m-1", hash_key("official")) is None
    problems = played.verify()
    assert [problem.match for problem in problems] == ["m-1", "m-1"]
    assert "its official key (row" in problems[0].what and "not sealed as the store issued it" in problems[0].what
    assert "its official key that the acts issued is not live" in problems[1].what


def test_another_matchs_key_row_moved_over_opens_nothing(played: Store) -> None:
    played.issue_key("m-2", "official", hash_key("m-2 official"))

    def edit(sql: Sql) -> None:
        sql("UPDATE keys SET revoked_at = issued_at WHERE role = 'official'")  # m-1's own, revoked by hand
        sql("UPDATE keys SET match_id = (SELECT id FROM matches WHERE code = 'm-1') WHERE key_hash = :theirs",
            {"theirs": hash_key("m-2 official")})

    with played.engine.begin() as connection:  # across matches: tamper_with narrows to m-1's rows
        edit(lambda statement, params=None: connection.execute(text(statement), params or {}))
    assert played.role_of_key("m-1", hash_key("m-2 official")) is None
    assert len([problem for problem in played.verify() if problem.match == "m-1"]) >= 2


def test_a_revoked_key_set_live_again_opens_nothing(played: Store) -> None:
    played.issue_key("m-1", "scorer", hash_key("scorer 2"))  # "scorer" is revoked now

    def edit(sql: Sql) -> None:
        sql("DELETE FROM keys WHERE key_hash = :live", {"live": hash_key("scorer 2")})
        sql("UPDATE keys SET revoked_at = NULL WHERE key_hash = :old", {"old": hash_key("scorer")})

    tamper_with(played, edit)
    assert played.role_of_key("m-1", hash_key("scorer")) is None
    assert any("its scorer key" in problem.what for problem in played.verify())


def test_a_whole_match_deleted(played: Store, monkeypatch: pytest.MonkeyPatch,
                               capsys: pytest.CaptureFixture[str]) -> None:
    def edit(sql: Sql) -> None:
        for table in ("keys", "rulings", "events"):
            sql(f"DELETE FROM {table} WHERE true")
        sql("DELETE FROM matches WHERE true")

    tamper_with(played, edit)
    [problem] = played.verify()
    assert problem.match == "m-1" and "it is gone: act" in problem.what and "no act removed it" in problem.what
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", played.url.render_as_string(hide_password=False))
    assert main(["verify"]) == 1
    assert "match m-1: it is gone" in capsys.readouterr().out


def test_a_whole_match_deleted_then_stored_again_is_still_named_with_no_removal_recorded(played: Store) -> None:
    log = match_log("m-1", EVENTS)

    def edit(sql: Sql) -> None:
        for table in ("keys", "rulings", "events"):
            sql(f"DELETE FROM {table} WHERE true")
        sql("DELETE FROM matches WHERE true")

    tamper_with(played, edit)
    played.import_log(json.dumps(event) for event in log)  # the same log: the store has no match of its code
    def again() -> list[str]:
        return [problem.what for problem in played.verify() if "created it again" in problem.what]

    found = again()
    assert len(found) == 1 and found[0].startswith("act ") and "created it again, though act " in found[0]
    assert "no act removed it: its rows were deleted behind the store's back, then it was stored again" in found[0]
    played.remove_match("m-1", reason="an honest removal", by="the league")  # recorded: and stored again
    played.import_log(json.dumps(event) for event in log)
    assert again() == found  # the first told still, and nothing of the honest one


def test_events_cut_off_the_end_by_the_secrets_holder_with_the_head_sealed_again(played: Store) -> None:
    """The chain and the seal held, so verify said nothing, where a bundle of the same store said lines were cut."""
    def edit(sql: Sql) -> None:
        for table in ("rulings", "events"):
            sql(f"DELETE FROM {table} WHERE seq > 10")
        surviving_head(sql, 10)
        head = sql("SELECT code, last_seq, last_hash, acts_seq FROM matches WHERE true").one()
        sql("UPDATE matches SET seal = :seal WHERE true", {"seal": head_seal(played.secrets.secret(), *head)})

    tamper_with(played, edit)
    [problem] = played.verify()
    assert (problem.match, problem.seq) == ("m-1", 11)
    assert problem.what.startswith("the league log records 3 of its events, seq 11 to 13 (leaves from ")
    assert "which the store no longer holds, and no act removed the match" in problem.what


def test_the_newest_match_deleted_with_its_acts_and_nothing_after(played: Store) -> None:
    """Its rows, keys and acts deleted, as the last thing the store did: no later seal refers to them, and verify
    said every seal holds."""
    played.create_match(match_log("m-3", 1)[0])
    played.issue_key("m-3", "scorer", hash_key("m-3 scorer"))
    with played.engine.begin() as connection:
        m3 = "(SELECT id FROM matches WHERE code = 'm-3')"
        for table in ("keys", "rulings", "events"):
            connection.execute(text(f"DELETE FROM {table} WHERE match_id = {m3}"))
        connection.execute(text("DELETE FROM matches WHERE code = 'm-3'"))
        connection.execute(text("DELETE FROM acts WHERE code = 'm-3'"))
    told = [str(problem) for problem in played.verify()]
    assert len(told) == 2, told
    assert re.fullmatch(r"the store: the league log records 2 acts, (\d+) to \d+ \(leaves from \d+\), which the "
                        r"store no longer holds: acts were deleted behind the store's back", told[0])
    assert told[1].startswith("match m-3, seq 1: the league log records it (leaf ")


def test_a_revoked_key_made_live_again_with_its_revocation_deleted(played: Store) -> None:
    """The key's old row and seal put back, and its revoking act, the last, deleted: the seals all held."""
    with played.engine.begin() as connection:
        old = connection.execute(text("SELECT * FROM keys WHERE key_hash = :key"), {"key": hash_key("scorer")}).one()
    played.revoke_key("m-1", "scorer")
    with played.engine.begin() as connection:
        connection.execute(text("UPDATE keys SET revoked_at = NULL, seal = :seal WHERE key_hash = :key"),
                           {"seal": old.seal, "key": hash_key("scorer")})
        connection.execute(text("DELETE FROM acts WHERE seq = (SELECT max(seq) FROM acts)"))
    assert played.role_of_key("m-1", hash_key("scorer")) == "scorer"  # live again to the store
    [problem] = played.verify()
    assert re.fullmatch(r"the league log records act \d+ \(leaf \d+\), which the store no longer holds: acts were "
                        r"deleted behind the store's back", problem.what)


def test_the_newest_match_deleted_with_its_acts_shows_once_another_match_moves_on(played: Store) -> None:
    log = match_log("m-1", EVENTS + 1)
    played.create_match(match_log("m-3", 1)[0])
    played.append("m-1", log[EVENTS])  # sealed after m-3's creation

    with played.engine.begin() as connection:
        connection.execute(text("DELETE FROM rulings WHERE match_id = (SELECT id FROM matches WHERE code = 'm-3')"))
        connection.execute(text("DELETE FROM events WHERE match_id = (SELECT id FROM matches WHERE code = 'm-3')"))
        connection.execute(text("DELETE FROM matches WHERE code = 'm-3'"))
        connection.execute(text("DELETE FROM acts WHERE code = 'm-3'"))
    seal, acts_gone, events_gone = played.verify()
    assert (seal.match, seal.column) == ("m-1", "seal") and "acts were removed from their end" in seal.what
    assert "acts were deleted behind the store's back" in acts_gone.what  # the league log's word, before it too
    assert (events_gone.match, events_gone.seq) == ("m-3", 1)


def test_an_act_edited(played: Store) -> None:
    with played.engine.begin() as connection:
        connection.execute(text("UPDATE acts SET recorded_by = 'someone else' WHERE code = 'm-2'"))
    [problem] = played.verify()
    assert (problem.match, problem.act) == ("m-2", 3) and "its seal does not hold" in problem.what
    assert str(problem).startswith("match m-2, act 3: match m-2 created at ")


def test_the_first_act_edited_is_named_as_edited_and_every_other_check_still_runs(played: Store) -> None:
    """Act 1's seal alone does not hold: the secret seals act 2 over it, so the secret is this store's."""
    with played.engine.begin() as connection:
        connection.execute(text("UPDATE acts SET recorded_by = 'someone else' WHERE seq = 1"))
        connection.execute(text("DELETE FROM keys WHERE match_id = (SELECT id FROM matches WHERE code = 'm-1')"))
    found = played.verify()
    assert [(problem.act, problem.what.split(": ", 1)[-1]) for problem in found if problem.act] == [
        (1, "its seal does not hold: the act was changed, added, or one before it removed")]
    assert any(problem.match == "m-1" and "key that the acts issued is not live" in problem.what for problem in found)


def test_a_stored_text_with_a_key_twice(played: Store) -> None:
    """A goal's text holds "team" twice: Python reads the last, another reader the first; the hash covers what
    Python read, so only the check for repeated keys shows it (and export would hand the altered text back)."""
    tamper_with(played, lambda sql: sql(
        """UPDATE events SET raw = replace(raw, '"team": "Blue"', '"team": "Red", "team": "Blue"') WHERE seq = 9"""))
    [problem] = played.verify()
    assert (problem.seq, problem.what) == (9, "its JSON is not an event: its JSON holds the key 'team' twice in "
                                              "one object")


def test_an_event_with_a_key_twice_is_refused(played: Store) -> None:
    goal = match_log("m-1", EVENTS + 2)[EVENTS]
    text_twice = json.dumps(goal).replace('"type": "penalty.award"', '"type": "whistle", "type": '
                                                                                    '"penalty.award"')
    with pytest.raises(InvalidEvent, match="its JSON holds the key 'type' twice in one object"):
        played.append("m-1", text_twice)
    nested = '{"type": "tick", "at": "2026-11-29T15:01:00Z", "by": "x", "extra": {"a": 1, "a": 2}}'
    with pytest.raises(InvalidEvent, match="the key 'a' twice"):
        played.append("m-1", nested)
    assert played.match("m-1").seq == EVENTS


@pytest.mark.parametrize("field", ["by", "id"])
def test_a_nul_in_a_text_field_is_refused_on_either_database(played: Store, field: str) -> None:
    event = {"type": "tick", "at": "2026-11-29T15:01:00Z", field: "a\u0000b"}
    with pytest.raises(InvalidEvent, match=f"field '{field}' holds a NUL character"):
        played.append("m-1", event)
    with pytest.raises(InvalidEvent, match="field 'match' holds a NUL"):
        played.create_match({**match_log("x", 1)[0], "match": "x\u0000"})
    assert played.match("m-1").seq == EVENTS


def test_foreign_keys_hold_and_orphan_rows_are_named(played: Store) -> None:
    with pytest.raises(IntegrityError), played.engine.begin() as connection:  # SQLite checks them too, now
        connection.execute(text("DELETE FROM matches WHERE code = 'm-1'"))
    assert played.verify() == []

    if played.database.sqlite:  # a plain sqlite3 shell checks no foreign keys
        with sqlite3.connect(known(played.url.database)) as plain:
            plain.execute("DELETE FROM matches WHERE code = 'm-1'")
    else:  # nor does PostgreSQL for a session in replica mode
        with played.engine.begin() as connection:
            connection.execute(text("SET LOCAL session_replication_role = replica"))
            connection.execute(text("DELETE FROM matches WHERE code = 'm-1'"))
    problems = [str(problem) for problem in played.verify()]
    assert any(problem.startswith("match m-1: it is gone") for problem in problems)
    assert any(f"{EVENTS} event row(s) of match id" in problem and "refer to a match that is not stored" in problem
               for problem in problems)
    assert any("2 key row(s)" in problem for problem in problems)
