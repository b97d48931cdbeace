"""Tamper evidence: rows edited, removed or swapped with plain SQL behind the store's back, and verify names them."""

import pytest
from conftest import match_log
from sqlalchemy import text

from matchstate.store import Store

EVENTS = 13  # three rallies: a Penalty 4 awarded, "Play", the stroke (ruled live), a goal


@pytest.fixture
def played(store: Store) -> Store:
    log = match_log("m-1", EVENTS)
    store.create_match(log[0])
    for event in log[1:]:
        store.append("m-1", event)
    store.create_match(match_log("m-2", 1)[0])  # an untouched match beside it
    assert store.verify() == []
    return store


def swap_rows(sql, a: int, b: int) -> None:
    """Swap everything but the seq between two events, as if they had been logged in the other order."""
    columns = "type, at, raw, device_id, recorded_by, role, received_at, prev_hash, hash"
    rows = {seq: sql(f"SELECT {columns} FROM events WHERE seq = {seq}").one()._asdict() for seq in (a, b)}
    sql(f"UPDATE events SET device_id = NULL WHERE seq IN ({a}, {b})")  # the unique (match, device id)
    for seq, other in ((a, b), (b, a)):
        sql(f"UPDATE events SET {', '.join(f'{c} = :{c}' for c in columns.split(', '))} WHERE seq = {seq}",
            rows[other])


def delete(sql, seq: int) -> None:
    sql(f"DELETE FROM rulings WHERE seq = {seq}")
    sql(f"DELETE FROM events WHERE seq = {seq}")


TAMPERING = {
    "an event's JSON edited": (lambda sql: sql("UPDATE events SET raw = replace(raw, 'Blue', 'Red') WHERE seq = 5"),
                               5, "its JSON does not give its hash: the row was changed"),
    "an event's hash edited": (lambda sql: sql(f"UPDATE events SET hash = '{'a' * 64}' WHERE seq = 3"),
                               3, "its JSON does not give its hash"),
    "a column edited": (lambda sql: sql("UPDATE events SET type = 'whistle' WHERE seq = 7"),
                        7, "columns differ from its JSON"),
    "an event removed": (lambda sql: delete(sql, 6), 6, "missing: the next stored event is seq 7"),
    "the first event removed": (lambda sql: delete(sql, 1), 1, "missing"),
    "the last event removed": (lambda sql: delete(sql, EVENTS), EVENTS, "the chain ends at seq 12, but the "
                               "match's head is seq 13"),
    "two events swapped": (lambda sql: swap_rows(sql, 8, 9), 8, "a row was moved or replaced"),
    "a stored ruling changed": (
        lambda sql: sql("UPDATE rulings SET ruling = NULL, state = 'idle' WHERE seq = 4"),
        4, "the stored ruling is no ruling then state idle; the engine now gives live then state live"),
    "a stored ruling removed": (lambda sql: sql("DELETE FROM rulings WHERE seq = 12"),
                                12, "the engine now gives live then state live"),
}


@pytest.mark.parametrize("tamper, first_bad, what", TAMPERING.values(), ids=TAMPERING.keys())
def test_verify_names_the_first_bad_seq(played, tamper, first_bad, what):
    with played.engine.begin() as connection:
        match_id = connection.execute(text("SELECT id FROM matches WHERE code = 'm-1'")).scalar_one()

        def sql(statement: str, params: dict | None = None):
            return connection.execute(text(statement.replace("WHERE ", f"WHERE match_id = {match_id} AND ")),
                                      params or {})

        tamper(sql)

    problems = played.verify()
    assert [(problem.match, problem.seq) for problem in problems] == [("m-1", first_bad)]
    assert what in problems[0].what
    assert played.verify("m-2") == []
