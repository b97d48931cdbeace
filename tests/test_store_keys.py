"""Keys in the store: the league key and each match's scorer and official keys, issued, revoked and removed as
recorded acts, read from the database on every call, on SQLite and PostgreSQL."""

import json
from pathlib import Path

import pytest
from conftest import match_log
from sqlalchemy import text

from matchstate.errors import StoreError, UnknownMatch
from matchstate.store import Store, hash_key


def url_of(store: Store) -> str:
    return store.url.render_as_string(hide_password=False)


@pytest.fixture
def keyed(store: Store) -> Store:
    """m-1 with its scorer and official keys ("scorer 1", "official 1"), m-2 with its own; the league key "league"."""
    store.set_league_key(hash_key("league"), by="the league")
    for number in (1, 2):
        store.create_match(match_log(f"m-{number}", 1)[0], keys={
            "scorer": hash_key(f"scorer {number}"), "official": hash_key(f"official {number}")})
    return store


def test_each_key_holds_its_role_on_its_own_match(keyed: Store) -> None:
    assert keyed.role_of_key("m-1", hash_key("scorer 1")) == "scorer"
    assert keyed.role_of_key("m-1", hash_key("official 1")) == "official"
    assert keyed.role_of_key("m-2", hash_key("scorer 1")) is None  # another match's key opens nothing here
    assert keyed.role_of_key("m-1", hash_key("a guess")) is None
    assert keyed.role_of_key("no such match", hash_key("scorer 1")) is None  # an unknown match answers alike
    assert keyed.key_hashes("m-1") == (hash_key("scorer 1"), hash_key("official 1"))
    for code in ("m-1", "no such match", None):
        assert keyed.role_of_key(code, hash_key("league")) == "league"


def test_a_new_league_key_revokes_the_old_one_on_every_server(keyed: Store) -> None:
    other = Store(url_of(keyed))  # a second server on the same database
    assert other.role_of_key(None, hash_key("league")) == "league"
    keyed.set_league_key(hash_key("league 2"))
    assert other.role_of_key(None, hash_key("league")) is None
    assert other.role_of_key("m-1", hash_key("league 2")) == "league"
    other.close()


def test_a_revoked_key_is_refused_at_once_on_a_second_server(keyed: Store) -> None:
    other = Store(url_of(keyed))
    assert other.role_of_key("m-1", hash_key("scorer 1")) == "scorer"
    keyed.revoke_key("m-1", "scorer", by="the league")
    assert other.role_of_key("m-1", hash_key("scorer 1")) is None
    assert other.role_of_key("m-1", hash_key("official 1")) == "official"  # only that role's key
    assert keyed.key_hashes("m-1") == (None, hash_key("official 1"))
    keyed.issue_key("m-1", "scorer", hash_key("scorer 1b"))
    assert other.role_of_key("m-1", hash_key("scorer 1b")) == "scorer"
    keyed.issue_key("m-1", "scorer", hash_key("scorer 1c"))  # issuing revokes the key before it
    assert other.role_of_key("m-1", hash_key("scorer 1b")) is None
    assert keyed.verify() == []
    other.close()


def test_keys_are_refused_for_what_is_not_a_match_role(keyed: Store) -> None:
    for role in ("league", "umpire"):
        with pytest.raises(StoreError, match="'scorer', 'official'"):
            keyed.issue_key("m-1", role, hash_key("x"))
    with pytest.raises(UnknownMatch):
        keyed.issue_key("m-9", "scorer", hash_key("x"))
    with pytest.raises(UnknownMatch):
        keyed.revoke_key("m-9", "scorer")


def test_every_act_is_recorded_in_order(keyed: Store) -> None:
    keyed.revoke_key("m-2", "official", by="Jane (league)")
    keyed.revoke_key("m-2", "official")  # nothing live: nothing to record
    with keyed.engine.connect() as connection:
        rows = connection.execute(text("SELECT seq, act, code, role, recorded_by FROM acts ORDER BY seq")).all()
    assert [tuple(row) for row in rows[1:]] == [  # the first is the league key that db upgrade made
        (2, "league", None, None, "the league"),
        (3, "create", "m-1", None, None), (4, "issue", "m-1", "scorer", None), (5, "issue", "m-1", "official", None),
        (6, "create", "m-2", None, None), (7, "issue", "m-2", "scorer", None), (8, "issue", "m-2", "official", None),
        (9, "revoke", "m-2", "official", "Jane (league)")]


def test_a_removed_match_is_a_recorded_act_and_its_code_is_free_again(keyed: Store, monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    from matchstate.cli import main

    log = match_log("m-1", 6)
    for event in log[1:]:
        keyed.append("m-1", event)
    head = keyed.match("m-1")
    with pytest.raises(StoreError, match="reason"):
        keyed.remove_match("m-1", reason=" ", by="Jane")
    keyed.remove_match("m-1", reason="created by mistake", by="Jane (league)")

    with pytest.raises(UnknownMatch):
        keyed.events("m-1")
    assert [summary.code for summary in keyed.summaries()] == ["m-2"]
    assert keyed.role_of_key("m-1", hash_key("scorer 1")) is None
    [removal] = keyed.removals()
    assert (removal.code, removal.by, removal.reason, removal.last_seq, removal.last_hash) == (
        "m-1", "Jane (league)", "created by mistake", 6, head.hash)
    assert keyed.verify() == []  # a removal, not tampering
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", url_of(keyed))
    assert main(["verify"]) == 0
    printed = capsys.readouterr().out
    assert "removed: match m-1 removed at " in printed and "by Jane (league), its head then seq 6" in printed
    assert "created by mistake" in printed

    keyed.create_match(log[0], keys={"scorer": hash_key("scorer 1 again")})  # the code is free again
    assert keyed.role_of_key("m-1", hash_key("scorer 1 again")) == "scorer"
    assert keyed.role_of_key("m-1", hash_key("scorer 1")) is None
    # Issue 19: the league log keeps the removed match's leaves, so a match stored again under its code with
    # another log (here its match.start, received anew) is named, however legitimate the removal was.
    [again] = keyed.verify()
    assert (again.match, again.seq) == ("m-1", 1) and "the league log recorded it before" in again.what


# -- the commands: the CLI is the administrator, and prints each new key once -------------------------------

def printed_key(output: str, name: str) -> str:
    [line] = [line for line in output.splitlines() if line.startswith(name + ": ") or line.startswith(name + " (")]
    return line.rsplit(": ", 1)[1]


def test_db_upgrade_makes_the_secret_and_a_league_key_once(store_url: str, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from matchstate.cli import main

    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store_url)
    assert main(["db", "upgrade", "--create"]) == 0
    first = capsys.readouterr().out
    league_key = printed_key(first, "league key")
    store = Store(store_url)
    assert f"the store's secret: {store.secrets.path}" in first and "mode 0600" in first
    assert {oct(path.stat().st_mode & 0o777) for path in (store.secrets.path, store.secrets.signing_path)} == {"0o600"}
    assert "keys table" in first and store.role_of_key(None, hash_key(league_key)) == "league"
    # It said "up to date" of a database it had just made (or brought from its schema of an older release).
    [head] = store.database.revisions()[1]
    assert first.startswith(f"database {store.url}: upgraded from nothing to {head}: up to date\n")
    assert main(["db", "upgrade"]) == 0
    assert capsys.readouterr().out == f"database {store.url}: up to date\n"  # nothing made twice
    store.close()


def test_the_keys_commands(store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                           capsys: pytest.CaptureFixture[str]) -> None:
    from matchstate.cli import main

    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", url_of(store))
    log = tmp_path / "match.jsonl"
    log.write_text("".join(json.dumps(event) + "\n" for event in match_log("m-1", 5)))
    assert main(["import", str(log), "--by", "Jane"]) == 0
    imported = capsys.readouterr().out
    scorer, official = printed_key(imported, "scorer key"), printed_key(imported, "official key")
    assert store.role_of_key("m-1", hash_key(scorer)) == "scorer"
    assert store.role_of_key("m-1", hash_key(official)) == "official"

    assert main(["keys", "issue", "m-1", "scorer", "--by", "Jane"]) == 0
    new_scorer = printed_key(capsys.readouterr().out, "match m-1, scorer key")
    assert store.role_of_key("m-1", hash_key(new_scorer)) == "scorer"
    assert store.role_of_key("m-1", hash_key(scorer)) is None
    assert main(["keys", "revoke", "m-1", "official"]) == 0
    assert "its official key is revoked" in capsys.readouterr().out
    assert store.role_of_key("m-1", hash_key(official)) is None
    assert main(["keys", "league"]) == 0
    league = printed_key(capsys.readouterr().out, "league key")
    assert store.role_of_key("m-1", hash_key(league)) == "league"
    assert main(["keys", "public"]) == 0
    public = capsys.readouterr().out
    assert public.startswith("-----BEGIN PUBLIC KEY-----") and store.key_fingerprint() in public
    assert main(["keys", "issue", "m-9", "scorer"]) == 2
    assert "no match 'm-9'" in capsys.readouterr().err
    assert store.verify() == []
