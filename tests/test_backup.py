"""Backups that restore, on both databases, taken while a thread appends: everything acknowledged before the
backup began is in it, verify passes with the secret files the backup carries and exits non-zero without
them; the secret's default place does not depend on the database's name (and a store of 0.1.0 still finds
its own)."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest
from conftest import match_log
from sqlalchemy import create_engine, make_url

from matchstate.cli import COULD_NOT_RUN, main
from matchstate.store import Store
from matchstate.store.secretfiles import secret_path

EVENTS = 300


def test_a_backup_taken_during_live_appends_restores_all_it_acknowledged_and_verifies(
        store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store_url)
    store = Store(store_url)
    store.upgrade()
    log = match_log("live-1", EVENTS)
    store.import_log([json.dumps(log[0])])
    acknowledged: list[int] = []
    started = threading.Event()

    def scorer() -> None:  # appends as a console would, until the log is done
        for event in log[1:]:
            acknowledged.append(store.append("live-1", event, role="scorer").event.seq)
            if len(acknowledged) == 50:
                started.set()

    appending = threading.Thread(target=scorer)
    appending.start()
    assert started.wait(120)
    before = len(acknowledged) + 1  # acknowledged when the backup begins, with the match.start
    assert main(["backup", str(tmp_path / "backup"), "--json"]) == 0
    made = json.loads(capsys.readouterr().out)
    appending.join(300)
    assert not appending.is_alive() and len(acknowledged) == EVENTS - 1
    store.close()
    assert {path.name for path in (tmp_path / "backup").iterdir()} == {made["database"], "secret", "secret.ed25519",
                                                                        "backup.json"}
    assert (tmp_path / "backup" / "secret").stat().st_mode & 0o777 == 0o600

    # The store and its secret are lost; the backup is restored in their place.
    restored_url, secret = _lose_the_store(store_url, tmp_path, monkeypatch)
    assert main(["restore", str(tmp_path / "backup")]) == 0
    assert secret.exists()
    back = Store(restored_url)
    seqs = [event.seq for event in back.events("live-1")]
    assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) >= before
    back.close()
    assert main(["verify"]) == 0
    assert "every seal holds" in capsys.readouterr().out

    secret.rename(tmp_path / "secret-elsewhere")
    assert main(["verify"]) == COULD_NOT_RUN
    assert "seals not checked: no secret" in capsys.readouterr().out


def _lose_the_store(url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[str, Path]:
    """Take the store and its secret files away (PostgreSQL: drop the test's schema); the URL to restore to
    and where its secret will be."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        for path in tmp_path.glob("store.db*"):
            path.unlink()
        return url, tmp_path / "store.db.secret"
    secret = Path(tmp_path / "store.secret")
    secret.unlink()
    secret.with_name("store.secret.ed25519").unlink()
    schema = str(parsed.query["options"]).split("=", 1)[1]
    engine = create_engine(parsed.set(query={}))
    with engine.begin() as connection:
        connection.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
    engine.dispose()
    monkeypatch.setenv("MATCHSTATE_SECRET_FILE", str(secret))
    return url, secret


def test_a_backup_needs_the_secret_and_an_empty_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", f"sqlite:///{tmp_path / 'store.db'}")
    assert main(["db", "upgrade", "--create"]) == 0
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "x").write_text("")
    assert main(["backup", str(tmp_path / "full")]) == COULD_NOT_RUN
    assert "is not empty" in capsys.readouterr().err
    (tmp_path / "store.db.secret").unlink()
    assert main(["backup", str(tmp_path / "new")]) == COULD_NOT_RUN
    assert "secret files are missing" in capsys.readouterr().err


def test_the_secrets_place_does_not_depend_on_the_databases_name_and_a_0_1_0_store_finds_its_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("MATCHSTATE_SECRET_FILE", raising=False)
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    league = make_url("postgresql+psycopg://db.example:5432/league")
    restored = make_url("postgresql+psycopg://db.example:5432/league_restored")
    assert secret_path(league) == secret_path(restored) == tmp_path / "matchstate" / "store.secret"
    before = tmp_path / "matchstate" / "db.example-5432-league.secret"  # where 0.1.0's made it
    before.parent.mkdir()
    before.write_text("0" * 64)
    assert secret_path(league) == before
    (tmp_path / "matchstate" / "store.secret").write_text("1" * 64)
    assert secret_path(league) == tmp_path / "matchstate" / "store.secret"
