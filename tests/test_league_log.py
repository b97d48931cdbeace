"""The league log: every append, import and act a leaf of one RFC 6962 tree, one checkpoint signed per group,
each append's answer a C2SP tlog proof that verifies with the store's public key alone; SQLite and PostgreSQL."""

import json
import sqlite3
import threading
from typing import Any

import psycopg
import pytest
from conftest import known, live_match, match_log
from sqlalchemy.exc import OperationalError

from matchstate import jcs
from matchstate.errors import TamperedStore
from matchstate.store import Store, importing
from matchstate.tlog import merkle
from matchstate.tlog.checkpoint import SignedCheckpoint
from matchstate.tlog.note import Verifier
from matchstate.tlog.proof import TlogProof


def verifier(store: Store) -> Verifier:
    return store.log.signer.verifier


def leaf(kind: str, code: str, seq: int, digest: str) -> bytes:
    return merkle.leaf_hash(jcs.canonical({"kind": kind, "match": code, "seq": seq, "hash": digest}))


def test_each_append_answers_with_a_proof_of_its_leaf(store: Store) -> None:
    log = match_log("m-1", 6)
    answers = [store.create_match(log[0], role="official")]
    answers += [store.append("m-1", event, role="scorer") for event in log[1:]]
    sizes = []
    for answer in answers:
        proof = TlogProof.parse(known(answer.proof))
        signed = proof.verify(leaf("append", "m-1", answer.event.seq, answer.event.hash), store.log.origin,
                              [verifier(store)])
        sizes.append(signed.checkpoint.size)
    assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes)
    again = store.append("m-1", log[3], role="scorer")  # a retry: its leaf, in the latest checkpoint
    assert again.duplicate
    assert TlogProof.parse(known(again.proof)).verify(leaf("append", "m-1", 4, again.event.hash), store.log.origin,
                                               [verifier(store)]).checkpoint.size == sizes[-1]


def test_a_group_signs_one_checkpoint_for_all_its_appends(store: Store) -> None:
    codes = [f"m-{n}" for n in range(8)]
    logs = {code: match_log(code, 4) for code in codes}
    for code in codes:
        store.create_match(logs[code][0])
    answers: dict[str, list[Any]] = {code: [] for code in codes}
    barrier = threading.Barrier(len(codes))

    def score(code: str) -> None:
        barrier.wait(timeout=60)
        for event in logs[code][1:]:
            answers[code].append(store.append(code, event))

    threads = [threading.Thread(target=score, args=(code,)) for code in codes]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=300)
    checkpoints = [TlogProof.parse(known(answer.proof)).checkpoint for code in codes for answer in answers[code]]
    assert len(checkpoints) == 24
    for code in codes:
        for answer in answers[code]:
            TlogProof.parse(known(answer.proof)).verify(leaf("append", code, answer.event.seq, answer.event.hash),
                                                 store.log.origin, [verifier(store)])
    # every checkpoint is one size of the tree: as many checkpoints as groups, at most one per append
    sizes = {SignedCheckpoint.open(text, store.log.origin, [verifier(store)]).checkpoint.size for text in checkpoints}
    assert len(set(checkpoints)) == len(sizes) <= 24


def test_consistency_between_every_two_checkpoints(store: Store) -> None:
    log = match_log("m-1", 5)
    answers = [store.create_match(log[0])] + [store.append("m-1", event) for event in log[1:]]
    heads = [SignedCheckpoint.open(TlogProof.parse(known(answer.proof)).checkpoint, store.log.origin,
                                   [verifier(store)]).checkpoint for answer in answers]
    with store.database.transaction() as connection:
        for old in heads:
            for new in heads:
                if 0 < old.size <= new.size:
                    proof = store.log.consistency(connection, old.size, new.size)
                    assert merkle.verify_consistency(old.size, new.size, proof, old.root, new.root)


def test_a_match_removed_and_imported_again_keeps_its_old_leaves(store: Store) -> None:
    log = match_log("m-1", 4)
    first = [store.create_match(log[0])] + [store.append("m-1", event) for event in log[1:]]
    store.remove_match("m-1", reason="a correction", by="league")
    store.import_log(json.dumps({**event, "by": "someone else"}) for event in log)
    with store.database.transaction() as connection:
        size, root, checkpoint = store.log.head(connection)
        kinds = [json.loads(row.body)["kind"] for row in connection.exec_driver_sql(
            "SELECT body FROM log_leaves ORDER BY idx")]
    assert kinds.count("append") == 4 and kinds.count("import") == 4 and kinds.count("act") >= 3
    old = TlogProof.parse(known(first[2].proof))
    with store.database.transaction() as connection:  # the old leaf is still proven in today's tree
        proof = store.log.inclusion(connection, old.index, size)
    assert merkle.verify_inclusion(old.index, size, leaf("append", "m-1", 3, first[2].event.hash), proof, root)
    assert SignedCheckpoint.open(known(checkpoint), store.log.origin, [verifier(store)]).checkpoint.size == size


def test_an_import_that_died_publishing_then_its_match_created_anew_is_no_problem(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its first batches of leaves were taken for the new match's history at its create act: verify said seq 1 was
    recorded before with another hash, and that seqs 2 to 9 were deleted behind the store's back."""
    monkeypatch.setattr(importing, "LEAVES", 3)
    log = match_log("died-1", 10)

    def refused(*_: Any) -> None:
        raise RuntimeError("the fixture is refused as the import is made whole")

    with pytest.raises(RuntimeError):
        store.import_log((json.dumps(event) for event in log), also=refused)
    store.create_match(log[0])  # the same code, anew
    assert store.verify() == []
    for event in log[1:4]:
        store.append("died-1", event)
    assert store.verify() == []


def test_verify_names_a_match_removed_and_imported_again_with_another_log(store: Store) -> None:
    log = match_log("m-1", 4)
    store.create_match(log[0])
    for event in log[1:]:
        store.append("m-1", event)
    assert store.verify() == []
    store.remove_match("m-1", reason="a correction", by="league")
    store.import_log(json.dumps({**event, "by": "someone else"}) for event in log)
    problems = store.verify()
    assert [problem.seq for problem in problems] == [1, 2, 3, 4]
    assert "recorded it before with another hash" in problems[0].what
    assert [problem.seq for problem in store.verify("m-1")] == [1, 2, 3, 4]


def test_verify_names_a_leaf_or_head_changed(store: Store) -> None:
    log = match_log("m-1", 3)
    store.create_match(log[0])
    for event in log[1:]:
        store.append("m-1", event)
    with store.engine.begin() as connection:
        connection.exec_driver_sql("UPDATE log_leaves SET body = replace(body, '\"seq\":2', '\"seq\":7') "
                                   "WHERE kind = 'append' AND seq = 2")
    whats = [problem.what for problem in store.verify()]
    assert any("is not its leaves' hash" in what for what in whats)
    assert any("its leaves give" in what for what in whats)


def test_verify_names_a_leaf_changed_to_json_that_is_no_object(store: Store) -> None:
    """A leaf's body made `[]` (canonical JSON, but no leaf) stopped verify with an AttributeError."""
    live_match(store, "m-1", 3, appended=3)
    with store.engine.begin() as connection:
        connection.exec_driver_sql("UPDATE log_leaves SET body = '[]' WHERE kind = 'append' AND seq = 2")
    [problem] = store.verify()
    assert problem.what.startswith("its league log cannot be read back (")


@pytest.mark.parametrize("changed", ["unreadable", "another digest"])
def test_a_frontier_changed_is_named_by_verify_and_an_unreadable_one_stops_appends_in_words(store: Store,
                                                                                          changed: str) -> None:
    """verify said nothing of the head's frontier: an unreadable one made every append a traceback, and one with
    another digest had the next append sign a root its leaves do not give."""
    log = match_log("m-1", 4)
    store.create_match(log[0])
    for event in log[1:3]:
        store.append("m-1", event)
    with store.engine.begin() as connection:
        frontier = connection.exec_driver_sql("SELECT frontier FROM log_head").scalar_one()
        edge: dict[str, str] = json.loads(frontier) if isinstance(frontier, str) else frontier
        level = max(edge, key=int)
        edge[level] = ("0" if edge[level][0] != "0" else "1") + edge[level][1:]
        text = json.dumps("not a frontier" if changed == "unreadable" else edge)  # what jsonb takes, as SQLite's
        connection.exec_driver_sql("UPDATE log_head SET frontier = %s" if "postgresql" in str(store.url) else
                                   "UPDATE log_head SET frontier = ?", (text,))
    whats = [problem.what for problem in store.verify()]
    assert any("the league log's head's frontier is not the right edge its leaves give" in what for what in whats)
    if changed == "unreadable":
        with pytest.raises(TamperedStore, match="the league log's head cannot be read"):
            store.append("m-1", log[3])
        assert store.match("m-1").seq == 3  # nothing of it kept


def test_leaves_rolled_back_leave_no_nodes_behind_for_a_server_sharing_the_log(store_url: str, store: Store) -> None:
    """Two servers share one database: what one added in a transaction that rolled back is not in its cache when
    the other fills those places with other leaves, so its roots and consistency proofs (a page's check that the
    log only grew) stay those of the stored tree."""
    store.create_match(match_log("m-1", 2)[0], role="official")
    with store.database.transaction(write=True) as connection:
        store.log.add(connection, ACTS)
        connection.rollback()
    assert_the_tree_of_another_server(store, store_url)


def test_leaves_whose_commit_failed_leave_no_nodes_behind_for_a_server_sharing_the_log(
        store_url: str, store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """As a rollback: the COMMIT itself fails (a full disk, a connection cut as it commits), after every statement
    of the transaction ran. The server that failed writes again at once (SQLite's transaction, left open by a
    failed COMMIT, is rolled back), and the other is not locked out."""
    start, event = match_log("m-1", 2)[:2]
    store.create_match(start, role="official")
    failure = sqlite3.OperationalError if store.database.sqlite else psycopg.OperationalError

    def fail(_: Any) -> None:
        raise failure("database or disk is full")

    with monkeypatch.context() as patched:
        patched.setattr(store.database.engine.dialect, "do_commit", fail)
        with pytest.raises(OperationalError), store.database.transaction(write=True) as connection:
            store.log.add(connection, ACTS)
    assert store.append("m-1", event, role="scorer").event.seq == 2
    assert_the_tree_of_another_server(store, store_url)


ACTS = [{"kind": "act", "act": "abandoned", "n": n} for n in range(3)]


def assert_the_tree_of_another_server(first: Store, url: str) -> None:
    """Another server of the database at ``url`` appends a match; ``first`` then gives the roots and consistency
    proofs of the tree it stored."""
    second = Store(url)
    try:
        second.create_match(match_log("m-2", 3)[0], role="official")
        for event in match_log("m-2", 3)[1:]:
            second.append("m-2", event, role="scorer")
        with first.database.transaction() as mine, second.database.transaction() as theirs:
            size = second.log.head(theirs)[0]
            assert [first.log.root(mine, n) for n in range(1, size + 1)] == \
                [second.log.root(theirs, n) for n in range(1, size + 1)]
            assert first.log.consistency(mine, 1, size) == second.log.consistency(theirs, 1, size)
    finally:
        second.close()
