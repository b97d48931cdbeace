"""Receipts: each acknowledged append's, kept by the device, prove a rewrite even by someone who holds the
database, the secret and the signing key (issue 9, finding 4), on SQLite and PostgreSQL. A receipt is the league
log's proof of the event's leaf in its group's checkpoint (issue 19); those signed one by one before still verify."""

import base64
import hashlib
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import match_log
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from sqlalchemy import text
from test_store_seals import rewrite
from test_store_tamper import Sql, tamper_with

from matchstate import jcs
from matchstate.cli import COULD_NOT_RUN, main
from matchstate.store import Store
from matchstate.store.receipts import ProofReceipt, sign
from matchstate.store.seals import head_seal
from matchstate.tlog import merkle
from matchstate.tlog.checkpoint import Checkpoint
from matchstate.tlog.note import Note, Verifier
from matchstate.tlog.proof import TlogProof

EVENTS = 13


@pytest.fixture
def kept(store: Store) -> list[dict[str, Any]]:
    """m-1 scored to seq 13; the receipts its devices kept, one per event, as JSON."""
    log = match_log("m-1", EVENTS)
    receipts = [store.create_match(log[0]).receipt]
    receipts += [store.append("m-1", event).receipt for event in log[1:]]
    return [receipt.to_json() for receipt in receipts]


@pytest.fixture
def signed(store: Store, kept: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The receipts of m-1's events as the store signed them one by one before the league log."""
    key = store.secrets.signing_key()
    return [sign(key, store.key_fingerprint(), "m-1", event.seq, event.hash, event.received_at).to_json()
            for event in store.events("m-1")]


def test_a_receipt_is_the_logs_proof_of_the_event_it_acknowledges(store: Store, kept: list[dict[str, Any]]) -> None:
    """Worked out here with nothing but the receipt, the public key and the README's words: the leaf's hash, the
    proof to the checkpoint's root, the checkpoint's signature (one per commit group, none per append)."""
    public_key = store.public_key()
    stored = store.events("m-1")
    for receipt, event in zip(kept, stored, strict=True):
        assert set(receipt) == {"match", "seq", "hash", "received_at", "leaf", "proof"}
        assert (receipt["match"], receipt["seq"], receipt["hash"], receipt["leaf"]) == ("m-1", event.seq, event.hash,
                                                                                         "append")
        assert receipt["received_at"] == event.received_at.strftime("%Y-%m-%dT%H:%M:%S.%fZ")
        proof = TlogProof.parse(receipt["proof"])
        note = Note.parse(proof.checkpoint)
        tree = Checkpoint.from_text(note.text)
        assert note.verified_by([Verifier.ed25519(tree.origin, public_key)])
        leaf = merkle.leaf_hash(jcs.canonical({"kind": "append", "match": "m-1", "seq": event.seq,
                                               "hash": event.hash}))
        assert merkle.verify_inclusion(proof.index, tree.size, leaf, proof.hashes, tree.root)


def test_a_retry_gets_a_proof_of_the_same_leaf(store: Store, kept: list[dict[str, Any]]) -> None:
    again = store.append("m-1", match_log("m-1", EVENTS)[6])
    assert isinstance(again.receipt, ProofReceipt)
    assert again.duplicate and TlogProof.parse(again.receipt.proof).index == TlogProof.parse(kept[6]["proof"]).index
    assert store.check_receipts([again.receipt.to_json()]).held == 1


def test_receipts_signed_before_the_league_log_still_verify(store: Store, signed: list[dict[str, Any]], tmp_path: Path,
                                                            monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Worked out here with nothing but the receipt, the public key and the README's words."""
    public = serialization.load_pem_public_key(store.public_key_pem().encode())
    assert isinstance(public, Ed25519PublicKey)
    raw = public.public_bytes(serialization.Encoding.Raw, serialization.PublicFormat.Raw)
    for receipt in signed:
        assert receipt["key"] == hashlib.sha256(raw).hexdigest()[:16] == store.key_fingerprint()
        body = {name: value for name, value in receipt.items() if name != "signature"}
        public.verify(base64.b64decode(receipt["signature"]),
                      json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode())
    status, out = run_verify(store, monkeypatch, capsys, "--receipts", write_receipts(tmp_path / "r.jsonl", signed))
    assert status == 0 and f"receipts: {EVENTS} of those read hold" in out


def write_receipts(path: Path, receipts: list[dict[str, Any]]) -> str:
    path.write_text("".join(json.dumps(receipt) + "\n" for receipt in receipts))
    return str(path)


def run_verify(store: Store, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
               *args: str) -> tuple[int, str]:
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
    status = main(["verify", *args])
    return status, capsys.readouterr().out


def test_receipts_that_agree_with_the_log(store: Store, kept: list[dict[str, Any]], tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    report = store.check_receipts(kept)
    assert (report.held, report.problems, report.removed) == (EVENTS, [], [])
    status, out = run_verify(store, monkeypatch, capsys, "--receipts", write_receipts(tmp_path / "r.jsonl", kept))
    assert status == 0 and f"receipts: {EVENTS} of those read hold" in out and "every seal holds" in out


def test_a_rewrite_by_whoever_holds_the_database_the_secret_and_the_signing_key(store: Store,
        kept: list[dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Seq 5 rewritten, every later hash recomputed, and the head sealed again with the secret: verify finds
    nothing, and the receipts kept from before prove the rewrite, seq by seq."""
    def edit(sql: Sql) -> None:
        rewrite(store, sql)
        head = sql("SELECT code, last_seq, last_hash, acts_seq FROM matches WHERE true").one()
        sql("UPDATE matches SET seal = :seal WHERE true",
            {"seal": head_seal(store.secrets.secret(), *head)})

    tamper_with(store, edit)
    # the secret's holder can make the seals agree; the league log's leaves still name the rewrite (issue 19)
    assert all("is not the one its league log leaf" in problem.what for problem in store.verify())
    report = store.check_receipts(kept)
    assert report.held == 4 and [problem.seq for problem in report.problems] == list(range(5, EVENTS + 1))
    assert "the log was rewritten after the store signed it" in report.problems[0].what
    status, out = run_verify(store, monkeypatch, capsys, "--receipts", write_receipts(tmp_path / "r.jsonl", kept))
    assert status == 1 and "match m-1, seq 5: receipt 5, signed by the store, gives it the hash " in out


def test_events_cut_off_show_in_the_receipts_without_the_secret(store: Store, kept: list[dict[str, Any]]) -> None:
    def edit(sql: Sql) -> None:
        for table in ("rulings", "events"):
            sql(f"DELETE FROM {table} WHERE seq > 10")
        last = sql("SELECT hash FROM events WHERE seq = 10").scalar_one()
        sql("UPDATE matches SET last_seq = 10, last_hash = :hash WHERE true", {"hash": last})

    tamper_with(store, edit)
    public_key = store.public_key()
    store.secrets.path.unlink()
    store.secrets.signing_path.unlink()
    auditor = Store(store.url.render_as_string(hide_password=False))  # the database and the public key alone
    report = auditor.check_receipts(kept, public_key)
    auditor.close()
    assert report.held == 10 and [problem.seq for problem in report.problems] == [11, 12, 13]
    assert "acknowledges seq 11, but the match ends at seq 10: events were removed" in report.problems[0].what


def test_a_deleted_match_and_a_removed_one(store: Store, kept: list[dict[str, Any]]) -> None:
    other = match_log("m-2", 3)
    receipts = [store.create_match(other[0]).receipt.to_json()]
    receipts += [store.append("m-2", event).receipt.to_json() for event in other[1:]]
    store.remove_match("m-2", reason="a test match", by="league")
    with store.engine.begin() as connection:
        for table in ("keys", "rulings", "events"):
            connection.execute(text(f"DELETE FROM {table} WHERE match_id = "
                                    "(SELECT id FROM matches WHERE code = 'm-1')"))
        connection.execute(text("DELETE FROM matches WHERE code = 'm-1'"))

    report = store.check_receipts(kept + receipts)
    assert len(report.problems) == EVENTS and report.held == 0
    assert "the store has no such match and no removal of it: it was deleted" in report.problems[0].what
    assert len(report.removed) == 3 and "seq 1 of a match since removed (match m-2 removed at" in report.removed[0]


def test_a_receipt_altered_or_signed_by_another_key(store: Store, kept: list[dict[str, Any]],
                                                    signed: list[dict[str, Any]]) -> None:
    forged_key = Ed25519PrivateKey.generate()
    for receipts, broken in ((kept, "its proof does not hold"), (signed, "its signature does not hold")):
        altered = {**receipts[3], "hash": "0" * 64}
        report = store.check_receipts([altered, json.dumps(receipts[4]), "{oops", {"match": "m-1"}])
        assert [problem.what.split(":")[0] for problem in report.problems] == [
            "receipt 1", "receipt 3 is not a receipt", "receipt 4 is not a receipt"]
        assert broken in report.problems[0].what and report.held == 1
    other = store.check_receipts([kept[0], signed[0]], public_key=forged_key.public_key())
    assert "its proof does not hold: the checkpoint is of log" in other.problems[0].what
    assert "is signed by key" in other.problems[1].what and "not by this store's key" in other.problems[1].what


def test_a_rollback_and_a_fork_are_named_by_a_kept_receipt(store: Store, kept: list[dict[str, Any]],
                                                           tmp_path: Path) -> None:
    """The log's tree, cut back (a store restored from an older copy) or rebuilt otherwise (a fork): a receipt kept
    from the newer tree says which."""
    with store.engine.begin() as connection:
        size = connection.execute(text("SELECT size FROM log_head")).scalar_one()
    with store.engine.begin() as connection:  # the last leaf's node changed: every tree that holds it differs
        connection.execute(text("UPDATE log_nodes SET hash = :hash WHERE level = 0 AND idx = :idx"),
                           {"hash": "11" * 32, "idx": size - 1})
    fork = Store(store.url.render_as_string(hide_password=False), secret_file=store.secrets.path)
    report = fork.check_receipts(kept[-1:])
    assert "the log was rewritten (a fork)" in report.problems[0].what
    with store.engine.begin() as connection:
        connection.execute(text("UPDATE log_head SET size = :size"), {"size": size - 1})
    report = fork.check_receipts(kept[-1:])
    fork.close()
    assert f"leaves, the league log now {size - 1}: the store was rolled back" in report.problems[0].what


def test_a_match_removed_and_imported_again_rewritten_is_caught_by_its_receipts(store: Store,
        kept: list[dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 19: the league key removes m-1 and imports a rewritten log under the same code. verify alone finds
    nothing; every receipt kept from before names the rewrite, and verify --receipts exits 1."""
    log = match_log("m-1", EVENTS)
    rewritten = [log[0], *({**event, "by": "someone else"} for event in log[1:])]
    store.remove_match("m-1", reason="a correction", by="league")
    store.import_log(json.dumps(event) for event in rewritten)
    # the league log names every event (issue 19); before it, verify found nothing here
    assert all("the league log recorded it before" in problem.what for problem in store.verify())
    report = store.check_receipts(kept)
    assert report.held == 0 and [problem.seq for problem in report.problems] == list(range(1, EVENTS + 1))
    assert "removing and importing it again" in report.problems[0].what  # its time of receipt is the import's
    status, out = run_verify(store, monkeypatch, capsys, "--receipts", write_receipts(tmp_path / "r.jsonl", kept))
    assert status == 1 and "match m-1, seq 1: receipt 1, signed by the store, gives it the hash " in out


def test_receipts_of_a_removed_match_do_not_pass_verify(store: Store, kept: list[dict[str, Any]], tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """A receipt that can no longer be checked does not hold: verify --receipts names it and exits 1."""
    store.remove_match("m-1", reason="a test match", by="league")
    status, out = run_verify(store, monkeypatch, capsys, "--receipts", write_receipts(tmp_path / "r.jsonl", kept))
    assert status == 1 and "receipt 1: seq 1 of a match since removed" in out
    assert "receipts: 0 of those read hold" in out


@pytest.mark.parametrize("pem", ["not a key at all", "-----BEGIN PRIVATE KEY-----", "private"])
def test_a_public_key_file_that_holds_none_is_refused_in_a_sentence(
        store: Store, kept: list[dict[str, Any]], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str], pem: str) -> None:
    """It was a traceback (cryptography's MalformedFraming) and exit 1, which says the receipts disagree."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    key = tmp_path / "key.pem"
    key.write_bytes(Ed25519PrivateKey.generate().private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        if pem == "private" else pem.encode())
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
    status = main(["verify", "--receipts", write_receipts(tmp_path / "r.jsonl", kept), "--public-key", str(key)])
    assert status == COULD_NOT_RUN
    assert f"{key} holds no public key in PEM (-----BEGIN PUBLIC KEY-----)" in capsys.readouterr().err
