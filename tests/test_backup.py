"""Backups that restore, on both databases, taken while a thread appends: everything acknowledged before the
backup began is in it, verify passes with the secret files the backup carries and exits non-zero without
them; the secret's default place does not depend on the database's name (and a store of 0.1.0 still finds
its own). A damaged backup restores nothing at all, says what is wrong in it and is left as it was, and the
good one then restores in the same place."""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import threading
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import live_match, match_log
from sqlalchemy import create_engine, make_url, text

from matchstate.cli import COULD_NOT_RUN, main
from matchstate.store import Store
from matchstate.store.backup import COMPANIONS
from matchstate.store.logkeys import LogKeys
from matchstate.store.secretfiles import SecretFiles, secret_path
from matchstate.web.tls import TlsFiles

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
    for path in tmp_path.glob("store.secret*"):  # the secret, its signing key, a rotated league log's key and policy
        path.unlink()
    schema = str(parsed.query["options"]).split("=", 1)[1]
    engine = create_engine(parsed.set(query={}))
    with engine.begin() as connection:
        connection.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
    engine.dispose()
    monkeypatch.setenv("MATCHSTATE_SECRET_FILE", str(secret))
    return url, secret


def test_a_store_whose_league_log_key_was_rotated_is_restored_with_that_key(
        store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A backup held the store's two secret files, not the league log's rotated key nor its policy: restored, the
    store signed its log with the key the policy had retired at the rotation, and verify said nothing of it."""
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store_url)
    store = Store(store_url)
    store.upgrade()
    log = live_match(store, "m-1", 8, appended=4)
    store.close()
    assert main(["keys", "rotate-log-key"]) == 0
    rotated = Store(store_url)
    signer, policy = rotated.log.signer.verifier, LogKeys(rotated.secrets).policy(rotated.log.signer)
    rotated.close()
    backup = tmp_path / "backup"
    assert main(["backup", str(backup)]) == 0
    assert {"secret.log.ed25519", "secret.log-policy"} <= {path.name for path in backup.iterdir()}
    # A backup made before: restored, verify names the key the store lacks.
    old = tmp_path / "old"
    shutil.copytree(backup, old)
    for name in ("secret.log.ed25519", "secret.log-policy"):
        (old / name).unlink()
    manifest = json.loads((old / "backup.json").read_text())
    (old / "backup.json").write_text(json.dumps({key: value for key, value in manifest.items()
                                                 if not key.startswith("log_")}))
    restored_url, _ = _lose_the_store(store_url, tmp_path, monkeypatch)
    assert main(["restore", str(old)]) == 0
    back = Store(restored_url)
    [problem] = back.verify()
    assert "the league log was handed over to key matchstate.league/" in str(problem)
    assert "the rotated key's file (SECRET.log.ed25519, beside the store's secret) is missing" in str(problem)
    back.close()
    # This release's backup: restored with the key that signs the log now, and its policy.
    restored_url, _ = _lose_the_store(store_url, tmp_path, monkeypatch)
    assert main(["restore", str(backup)]) == 0
    back = Store(restored_url)
    try:
        assert back.log.signer.verifier == signer and LogKeys(back.secrets).policy(back.log.signer) == policy
        back.append("m-1", log[4])
        assert back.verify() == []
    finally:
        back.close()


def test_the_laptops_certificate_authority_is_backed_up_so_no_tablet_installs_a_new_one(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A backup left out the CA that `serve --tls` makes: restored on a new laptop, a new CA was made, and every
    tablet had to install it again. A CA file that is not one is refused before anything is restored."""
    url = f"sqlite:///{tmp_path / 'store.db'}"
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", url)
    store = Store(url)
    store.upgrade()
    tls = TlsFiles(store.secrets.path)
    store.close()
    tls.ensure(["pitch.lan"])
    ca = tls.ca_cert.read_bytes(), tls.ca_key.read_bytes()
    assert main(["backup", str(tmp_path / "backup")]) == 0
    broken = tmp_path / "broken"
    shutil.copytree(tmp_path / "backup", broken)
    (broken / "secret.tls-ca.pem").write_text("not a certificate\n")
    _lose_the_store(url, tmp_path, monkeypatch)
    assert main(["restore", str(broken)]) == COULD_NOT_RUN
    assert not tls.ca_cert.exists() and not (tmp_path / "store.db").exists()
    assert main(["restore", str(tmp_path / "backup")]) == 0
    assert (tls.ca_cert.read_bytes(), tls.ca_key.read_bytes()) == ca
    tls.ensure(["pitch.lan"])  # the server's certificate, made again where it is missing, from the same CA
    assert tls.ca_cert.read_bytes() == ca[0]


def test_the_files_a_backup_keeps_beside_the_secret_are_where_the_store_keeps_them(tmp_path: Path) -> None:
    secrets = SecretFiles(tmp_path / "store.secret")
    kept = {secrets.path.with_name(secrets.path.name + suffix) for suffix, _, _ in COMPANIONS.values()}
    tls = TlsFiles(secrets.path)
    assert kept == {LogKeys(secrets).key_path, LogKeys(secrets).policy_path, tls.ca_cert, tls.ca_key}


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


def _garbage(file: Path) -> None:
    file.write_bytes(os.urandom(50_000))


def _cut_short(file: Path) -> None:
    file.write_bytes(file.read_bytes()[:file.stat().st_size // 2])


def _nulls(manifest: Path) -> None:
    manifest.write_text(json.dumps(dict.fromkeys(json.loads(manifest.read_text()))))


def _of_another_program(file: Path) -> None:
    file.unlink()
    other = sqlite3.connect(file)
    other.execute("CREATE TABLE notes (text TEXT)")
    other.commit()
    other.close()


def _of_a_later_release(file: Path) -> None:
    later = sqlite3.connect(file)
    later.execute("UPDATE alembic_version SET version_num = '9999'")
    later.commit()
    later.close()


# What is done to a good backup (to its database, {database}, or one of its files), and what the refusal says.
DAMAGES: dict[str, tuple[str, Callable[[Path], object], str]] = {
    "database garbage": ("{database}", _garbage, "{database} "),
    "database cut short": ("{database}", _cut_short, "{database} "),
    "database missing": ("{database}", Path.unlink, "{database} is missing"),
    "signing key missing": ("secret.ed25519", Path.unlink, "secret.ed25519 is missing"),
    "secret missing": ("secret", Path.unlink, "secret is missing"),
    "secret empty": ("secret", lambda file: file.write_bytes(b""), "secret is not a matchstate secret"),
    "signing key garbage": ("secret.ed25519", lambda file: file.write_text("garbage\n"),
                            "secret.ed25519 is not an Ed25519 private key"),
    "manifest an array": ("backup.json", lambda file: file.write_text("[1]"), "backup.json is not a JSON object"),
    "manifest of nulls": ("backup.json", _nulls, "backup.json gives its kind as null"),
    "database of another program": ("store.db", _of_another_program, "store.db is not a matchstate store"),
    "database of a later release": ("store.db", _of_a_later_release, "store.db is at schema 9999, which matchstate"),
    "a write-ahead log beside the database": ("store.db-wal", _garbage, "store.db-wal is beside store.db"),
}


# Each damage on each database, but those done to an SQLite file, which a PostgreSQL backup has not.
CASES = [(damage, backend) for damage, (name, _, _) in DAMAGES.items() for backend in ("sqlite", "postgresql")
         if backend == "sqlite" or not name.startswith("store.db")]


@pytest.mark.parametrize(("damage", "store_url"), CASES, indirect=["store_url"])
def test_a_damaged_backup_restores_nothing_says_what_is_wrong_and_stays_as_it_was(
        damage: str, store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    name, spoil, said = DAMAGES[damage]
    database = "store.db" if make_url(store_url).get_backend_name() == "sqlite" else "store.pgdump"
    good = _a_good_backup(store_url, tmp_path, monkeypatch)
    damaged = tmp_path / "damaged"
    shutil.copytree(good, damaged)
    spoil(damaged / name.format(database=database))
    kept = _contents(damaged)
    restored_url, secret = _lose_the_store(store_url, tmp_path, monkeypatch)
    capsys.readouterr()

    assert main(["restore", str(damaged)]) == COULD_NOT_RUN
    err = capsys.readouterr().err
    assert f"nothing restored from {damaged}: {said.format(database=database)}" in err and "Traceback" not in err
    assert _contents(damaged) == kept
    _assert_nothing_restored(restored_url, tmp_path, secret)

    kept = _contents(good)
    assert main(["restore", str(good)]) == 0
    assert _contents(good) == kept  # no -wal or -shm made beside the backup's database
    assert main(["verify"]) == 0
    assert "every seal holds" in capsys.readouterr().out


def test_a_restore_over_a_store_is_refused_and_leaves_no_secret_of_its_own(
        store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    good = _a_good_backup(store_url, tmp_path, monkeypatch)
    store = Store(store_url)
    secret = store.secrets.path
    store.close()
    for path in (secret, secret.with_name(secret.name + ".ed25519")):  # the secret lost, the database kept
        path.unlink()
    capsys.readouterr()
    assert main(["restore", str(good)]) == COULD_NOT_RUN
    err = capsys.readouterr().err
    # SQLite's file is there; PostgreSQL's schema has the store's tables (pg_restore named only its first function)
    assert "is there already: restore into a new file" in err or (
        "is not empty (it has " in err and "): restore into an empty database" in err), err
    assert not secret.exists() and not secret.with_name(secret.name + ".ed25519").exists()


def _a_good_backup(store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A store of one match, backed up to ``tmp_path / "backup"``."""
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store_url)
    store = Store(store_url)
    store.upgrade()
    store.import_log([json.dumps(event) for event in match_log("m-1", 12)])
    store.close()
    assert main(["backup", str(tmp_path / "backup")]) == 0
    return tmp_path / "backup"


def _contents(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.iterdir())}


def _assert_nothing_restored(url: str, tmp_path: Path, secret: Path) -> None:
    """No secret file where the store looks for it, and no database: no SQLite file (nor any beside it), no
    PostgreSQL schema."""
    assert not secret.exists() and not secret.with_name(secret.name + ".ed25519").exists()
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite":
        assert [path.name for path in tmp_path.iterdir() if "store.db" in path.name] == []
        return
    schema = str(parsed.query["options"]).split("=", 1)[1]
    engine = create_engine(parsed.set(query={}))
    with engine.connect() as connection:
        found = connection.execute(text("SELECT count(*) FROM pg_namespace WHERE nspname = :name"), {"name": schema})
        assert found.scalar_one() == 0
    engine.dispose()


def test_a_backup_holding_another_stores_secret_is_refused_on_sqlite_and_verify_says_so_once_on_postgresql(
        store_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    good = _a_good_backup(store_url, tmp_path, monkeypatch)
    (good / "secret").write_text(os.urandom(32).hex() + "\n")  # a matchstate secret, but another store's
    restored_url, secret = _lose_the_store(store_url, tmp_path, monkeypatch)
    capsys.readouterr()
    if make_url(store_url).get_backend_name() == "sqlite":  # the backup's database read before anything is written
        assert main(["restore", str(good)]) == COULD_NOT_RUN
        assert (f"nothing restored from {good}: secret and store.db: the secret does not seal the store's first "
                "acts: it is another store's secret") in capsys.readouterr().err
        _assert_nothing_restored(restored_url, tmp_path, secret)
        return
    assert main(["restore", str(good)]) == 0  # a dump is read only by restoring it: verify tells
    capsys.readouterr()
    assert main(["verify"]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0] == ("the store, act 1: the secret does not seal the store's first acts: it is another store's "
                      "secret (put this store's own beside its database, as its backup holds it), or they were "
                      "changed; no seal was checked")
    assert not any("seal" in line for line in out[1:])  # said once, where every seal was said not to hold
