"""A league server with witnesses (``serve --witness-policy``): each new checkpoint is sent to the witnesses (run
as ``matchstate witness`` subprocesses, over real HTTP), the one that meets the quorum is kept with their
cosignatures and served; a store restored from an older copy is refused by every witness (409) and the server
stops taking writes, says why on /readyz and the witnesses' status, rather than fork."""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from conftest import match_log
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from fastapi.testclient import TestClient
from witness_helpers import running_witness, until

from matchstate.cli import main
from matchstate.evidence import CHECKPOINT, POLICY
from matchstate.store import Store, hash_key
from matchstate.store.backup import backup, restore
from matchstate.tlog import tiles
from matchstate.tlog.cosignature import Cosigner
from matchstate.tlog.note import Note
from matchstate.tlog.policy import Policy
from matchstate.web import create_app
from matchstate.web.witnessing import Witnessing

SCORER = "scorer-key"


@pytest.fixture
def league(store: Store, tmp_path: Path) -> Iterator[tuple[Path, Store, Policy]]:
    """A store (SQLite, PostgreSQL) with a match, two witnesses following its log, and the league's policy (both
    must cosign)."""
    store.create_match(match_log("m-1", 1)[0], keys={"scorer": hash_key(SCORER)})
    follows = f"log {store.log.signer.verifier.vkey()}\n"
    with contextlib.ExitStack() as stack:
        lines = []
        for name in ("w1", "w2"):
            (tmp_path / name).mkdir()
            _, line = stack.enter_context(running_witness(tmp_path / name, follows, f"witness.example/{name}"))
            lines.append(line)
        policy = Policy.parse(f"{follows}{''.join(line + chr(10) for line in lines)}"
                              "group both all witness.example/w1 witness.example/w2\nquorum both\n")
        yield tmp_path, store, policy


def wiped(store: Store) -> None:
    """The store's database emptied, as before a restore into it; the store closed."""
    if store.url.get_backend_name() == "sqlite":
        store.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{store.url.database}{suffix}").unlink(missing_ok=True)
        return
    with store.database.engine.begin() as connection:
        schema = connection.exec_driver_sql("SELECT current_schema()").scalar_one()
        connection.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
    store.close()


def log_size(store: Store) -> int:
    with store.database.transaction() as connection:
        return store.log.head(connection)[0]


def serving(store: Store, policy: Policy) -> TestClient:
    return TestClient(create_app(store, witnessing=Witnessing(store, policy, every=0.05)))


def append(client: TestClient, event: dict[str, Any]) -> int:
    answer = client.post("/api/matches/m-1/events", json={"event": event},
                         headers={"Authorization": f"Bearer {SCORER}"})
    return int(answer.status_code)


def test_each_new_checkpoint_is_cosigned_by_the_quorum_kept_served_and_archived(
        league: tuple[Path, Store, Policy], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    folder, store, policy = league
    events = match_log("m-1", 8)
    with serving(store, policy) as client:
        until(lambda: client.get("/api/log/cosigned").status_code == 200, "a cosigned checkpoint")
        first = policy.open(client.get("/api/log/cosigned").text)
        assert set(policy.cosigners(first.note)) == {"witness.example/w1", "witness.example/w2"}
        for event in events[1:]:
            assert append(client, event) == 201
        size = log_size(store)
        until(lambda: policy.open(client.get("/api/log/cosigned").text).checkpoint.size == size, "the new size")
        status = client.get("/api/log/witnesses").json()
        assert status["state"] == "witnessing" and status["cosigned_size"] == size
        assert [witness["size"] for witness in status["witnesses"]] == [size, size]

    # The season archived under the witnesses' policy: its checkpoint the cosigned one, its quorum checked.
    (folder / "league.policy").write_text(policy.text())
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
    monkeypatch.setenv("MATCHSTATE_WITNESS_POLICY", str(folder / "league.policy"))
    assert main(["archive", "--season", "2026", str(folder / "season")]) == 0
    assert main(["verify", "--bundle", str(folder / "season")]) == 0
    bundle = folder / "season" / "m-1"
    assert Policy.parse((bundle / POLICY).read_bytes()).quorum == "both"
    assert len(Note.parse((bundle / CHECKPOINT).read_bytes()).signatures) == 3  # the log's and two witnesses'
    assert tiles.proven_entry(folder / "season" / "log", Policy.parse((bundle / POLICY).read_bytes()), 0)
    capsys.readouterr()
    note = (bundle / CHECKPOINT).read_text()
    (bundle / CHECKPOINT).write_text(note[:note.rindex("\u2014")])  # a witness's cosignature taken off
    assert main(["verify", "--bundle", str(folder / "season")]) == 1
    assert "do not meet the policy's quorum 'both'" in capsys.readouterr().out


def test_a_store_restored_from_an_older_copy_is_refused_by_every_witness_and_stops_writing(
        league: tuple[Path, Store, Policy]) -> None:
    folder, store, policy = league
    events = match_log("m-1", 12)
    with serving(store, policy) as client:
        until(lambda: client.get("/api/log/cosigned").status_code == 200, "the first cosigned checkpoint")
        backup(store.url, store.secrets, folder / "copy")  # the copy: the match's start, cosigned (the worst case)
        for event in events[1:6]:
            assert append(client, event) == 201
        size = log_size(store)
        until(lambda: client.get("/api/log/witnesses").json()["cosigned_size"] == size, "the witnesses cosign")
    wiped(store)
    restore(folder / "copy", store.url, store.secrets)  # restored, and served again
    restored = Store(store.url.render_as_string(hide_password=False))
    try:
        with serving(restored, policy) as client:
            until(lambda: client.get("/api/log/witnesses").json()["state"] == "halted", "the server halts")
            refused = client.post("/api/matches/m-1/events", json={"event": events[1]},
                                  headers={"Authorization": f"Bearer {SCORER}"})
            assert refused.status_code == 503
            assert "restored from an older copy" in refused.json()["detail"]
            assert "copia más antigua" in refused.json()["words"]["es"]
            ready = client.get("/readyz")
            assert ready.status_code == 503 and ready.json()["problems"][0].startswith("witnesses: Writes are stopped")
            status = client.get("/api/log/witnesses").json()
            assert status["reason"]["en"] == refused.json()["detail"]
            assert [witness["size"] for witness in status["witnesses"]] == [size, size]
            assert client.get("/api/matches/m-1").status_code == 200  # reading goes on
        assert restored.match("m-1").seq == 1  # nothing appended to the fork
    finally:
        restored.close()


@pytest.mark.parametrize("given", ["option", "environment"])
def test_an_import_or_a_removal_from_the_command_line_into_a_restored_store_is_refused_by_its_witnesses(
        league: tuple[Path, Store, Policy], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        given: str) -> None:
    """A command writes with no server: it went on, forking the log from what the witnesses cosigned, and verify
    found the store clean."""
    folder, store, policy = league
    (folder / "league.policy").write_text(policy.text())
    option = ["--witness-policy", str(folder / "league.policy")] if given == "option" else []
    if given == "environment":
        monkeypatch.setenv("MATCHSTATE_WITNESS_POLICY", str(folder / "league.policy"))
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
    logs = {}
    for code in ("m-2", "m-3"):
        logs[code] = folder / f"{code}.jsonl"
        logs[code].write_text("".join(json.dumps(event) + "\n" for event in match_log(code, 3)))
    with serving(store, policy) as client:
        until(lambda: client.get("/api/log/cosigned").status_code == 200, "the first cosigned checkpoint")
        backup(store.url, store.secrets, folder / "copy")
        for event in match_log("m-1", 6)[1:]:
            assert append(client, event) == 201
        size = log_size(store)
        until(lambda: client.get("/api/log/witnesses").json()["cosigned_size"] == size, "the witnesses cosign")
    assert main(["import", *option, str(logs["m-2"])]) == 0  # the witnesses' log, extended: written
    wiped(store)
    restore(folder / "copy", store.url, store.secrets)
    restored = Store(store.url.render_as_string(hide_password=False))
    copied = log_size(restored)
    capsys.readouterr()
    assert main(["import", *option, str(logs["m-3"])]) == 2
    said = capsys.readouterr().err
    assert "restored from an older copy" in said and "Nothing was written." in said
    assert main(["remove", "m-1", "--reason", "entered twice", *option]) == 2
    try:
        assert [summary.code for summary in restored.summaries()] == ["m-1"]  # neither written
        assert log_size(restored) == copied
    finally:
        restored.close()


def test_serve_with_a_witness_policy_from_the_command_line(league: tuple[Path, Store, Policy]) -> None:
    import urllib.error
    import urllib.request

    from matchstate.web.process import ServerProcess

    folder, store, policy = league
    (folder / "league.policy").write_text(policy.text())
    with ServerProcess(store.url.render_as_string(hide_password=False),
                       options=["--witness-policy", str(folder / "league.policy"), "--witness-every", "0.1"]) as server:

        def cosigned() -> str | None:
            try:
                with urllib.request.urlopen(f"{server.base}/api/log/cosigned", timeout=10) as answer:
                    return str(answer.read().decode())
            except urllib.error.HTTPError:
                return None

        until(cosigned, "a cosigned checkpoint")
        assert policy.open(cosigned() or "").checkpoint.size == log_size(store)


@pytest.mark.parametrize(("policy", "says"), [
    ("quorum none\n", "no witness has a URL"),
    ("log nonsense\nquorum none\n", "line 1"),
])
def test_serve_refuses_a_witness_policy_it_cannot_use(tmp_path: Path, policy: str, says: str) -> None:
    import subprocess
    import sys

    (tmp_path / "policy").write_text(policy)
    url = f"sqlite:///{tmp_path / 'league.db'}"
    Store(url).upgrade()
    done = subprocess.run([sys.executable, "-m", "matchstate", "serve", "--port", "1"], capture_output=True,
                          text=True, timeout=120, env={**os.environ, "MATCHSTATE_DATABASE_URL": url,
                                                 "MATCHSTATE_WITNESS_POLICY": str(tmp_path / "policy")})
    assert done.returncode == 2 and says in done.stderr


def test_writes_wait_for_the_first_round(store: Store) -> None:
    import threading

    store.create_match(match_log("m-1", 1)[0], keys={"scorer": hash_key(SCORER)})
    policy = Policy.parse(f"log {store.log.signer.verifier.vkey()}\n"
                          f"witness w {Cosigner('w.example', Ed25519PrivateKey.generate()).verifier.vkey()} "
                          "http://w.invalid\n"
                          "quorum w\n")
    asked, answer = threading.Event(), threading.Event()

    def send(url: str, body: bytes) -> tuple[int, str]:
        asked.set()
        answer.wait(timeout=60)
        return 0, "no answer"

    with TestClient(create_app(store, witnessing=Witnessing(store, policy, every=0.05, send=send))) as client:
        until(asked.is_set, "the first round asks the witness")
        refused = client.post("/api/matches/m-1/events", json={"event": match_log("m-1", 2)[1]},
                              headers={"Authorization": f"Bearer {SCORER}"})
        assert refused.status_code == 503 and "asking its witnesses" in refused.json()["detail"]
        answer.set()  # the witness does not answer: the round ends, and writes go on (only a refusal stops them)
        until(lambda: client.get("/api/log/witnesses").json()["state"] == "witnessing", "the round ends")
        assert append(client, match_log("m-1", 2)[1]) == 201
        assert client.get("/api/log/witnesses").json()["witnesses"][0]["answer"] == "0 no answer"
