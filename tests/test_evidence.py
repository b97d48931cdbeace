"""Evidence bundles: written from a store, checked with no database and no secret; every single-byte change to
a bundle's line, proof or checkpoint is found; SQLite and PostgreSQL."""

import json
import random
import shutil
from pathlib import Path

import pytest
from conftest import match_log
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from matchstate.cli import main
from matchstate.evidence import (
    CHECKPOINT,
    EVENTS,
    HEAD,
    LIST,
    POLICY,
    PROOFS,
    BundleReport,
    archive,
    verify_bundle,
)
from matchstate.store import Store, incoming
from matchstate.store.receipts import sign
from matchstate.tlog.note import Note, Signer
from matchstate.version import ENGINE_VERSION


def bundle_of(store: Store, folder: Path, events: int = 6) -> Path:
    log = match_log("m-1", events)
    store.create_match(log[0], role="official")
    for event in log[1:]:
        store.append("m-1", event, role="scorer")
    return archive(store, ["m-1"], folder)[0]


def test_a_bundle_verifies_after_the_database_and_the_secret_are_gone(store: Store, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    target = bundle_of(store, tmp_path / "bundle")
    assert sorted(path.name for path in target.iterdir()) == ["checkpoint", "events.jsonl", "head", "policy", "proofs"]
    assert len(list((target / PROOFS).iterdir())) == 6
    store.secrets.path.unlink()
    store.secrets.signing_path.unlink()
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", "sqlite:////nonexistent/nothing.db")
    assert main(["verify", "--bundle", str(tmp_path / "bundle")]) == 0
    out = capsys.readouterr().out
    assert "verified: 1 matches, 6 events" in out
    report = verify_bundle(tmp_path / "bundle", ENGINE_VERSION)
    assert (report.matches, report.events, report.problems) == (1, 6, [])


def test_archive_from_the_command_line(store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    bundle_of(store, tmp_path / "first")
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
    assert main(["archive", "m-1", str(tmp_path / "cli")]) == 0
    assert main(["archive", "--season", "2026", str(tmp_path / "season")]) == 0
    capsys.readouterr()
    for folder in ("cli", "season"):
        assert (tmp_path / folder / "m-1" / EVENTS).exists()
        assert main(["verify", "--bundle", str(tmp_path / folder)]) == 0
    for season in ("abc", "0000", "26", "2026-03-01..2026-09-30"):  # each archived nothing, and said nothing
        assert main(["archive", "--season", season, str(tmp_path / "none")]) == 2
        assert f"--season is a year, YYYY, not {season!r}" in capsys.readouterr().err
    assert not (tmp_path / "none").exists()


def test_every_single_byte_change_is_found(store: Store, tmp_path: Path) -> None:
    """Each byte of the checkpoint and of one proof, and a sample of 400 bytes of the lines (every byte would
    take too long on a shared machine), changed in turn: the bundle no longer verifies."""
    target = bundle_of(store, tmp_path / "bundle", events=3)
    work = tmp_path / "work"
    files = {CHECKPOINT: None, f"{PROOFS}/2.tlog-proof": None, HEAD: None, EVENTS: 400}
    random.seed(19)
    for name, sample in files.items():
        original = (target / name).read_bytes()
        places = range(len(original)) if sample is None else random.sample(range(len(original)), sample)
        for place in places:
            shutil.rmtree(work, ignore_errors=True)
            shutil.copytree(target, work)
            changed = bytearray(original)
            changed[place] ^= 0x01 if chr(changed[place]) not in "+/" else 0x02
            (work / name).write_bytes(bytes(changed))
            assert verify_bundle(work, ENGINE_VERSION).problems, (name, place, bytes(original[place:place + 1]))


@pytest.mark.parametrize("code", ["../../escaped", "..", ".", "/tmp/absolute", "a/b", "a%2Fb"])
def test_a_bundle_stays_in_its_folder_whatever_the_match_code_holds(store: Store, tmp_path: Path, code: str,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A code was any text: archive wrote ``../../escaped`` two folders up, ``..`` and ``.`` over the folder given,
    and ``/tmp/absolute`` into /tmp, overwriting what was there. The store now refuses a code no URL can name, and
    one written before it did is still archived inside the folder."""
    monkeypatch.setattr(incoming, "check_code", lambda code: None)  # a store written before codes were checked
    log = match_log(code, 3)
    store.create_match(log[0], role="official")
    for event in log[1:]:
        store.append(code, event, role="scorer")
    place = tmp_path / "place"  # the store is beside it
    folder = place / "deep" / "bundles"
    [target] = archive(store, [code], folder)
    assert target.parent == folder and target.name not in (".", "..")
    written = [path for path in place.rglob("*") if path.is_file()]
    assert written and all(path.is_relative_to(target) or path == folder / LIST for path in written)
    assert not Path("/tmp/absolute").exists()
    assert verify_bundle(folder, ENGINE_VERSION).problems == []


def test_a_match_whose_code_is_longer_than_a_file_name_is_archived_and_its_bundle_verifies(store: Store,
                                                                                          tmp_path: Path) -> None:
    """A code of 64 emoji is 256 bytes, one more than a file system's name holds: archive stopped at it."""
    code = "😀" * 64
    log = [{**event, "id": f"long-{n}"} for n, event in enumerate(match_log(code, 3))]
    store.create_match(log[0], role="official")
    for event in log[1:]:
        store.append(code, event, role="scorer")
    [target] = archive(store, [code], tmp_path / "bundles")
    assert len(target.name.encode()) <= 255 and (target / EVENTS).exists()
    assert verify_bundle(tmp_path / "bundles", ENGINE_VERSION).problems == []


@pytest.mark.parametrize("what", ["line removed", "proof removed", "lines swapped", "last lines removed",
                                  "every line removed", "head of another match"])
def test_a_bundle_cut_or_reordered_is_found(store: Store, tmp_path: Path, what: str) -> None:
    """Each line a bundle keeps is proven on its own: lines cut from its end (or all of them) are found by its
    signed head alone, which names its last seq and hash (they verified, before there were heads)."""
    target = bundle_of(store, tmp_path / "bundle")
    lines = (target / EVENTS).read_text().splitlines(keepends=True)
    if what == "line removed":
        (target / EVENTS).write_text("".join(lines[:2] + lines[3:]))
    elif what == "proof removed":
        (target / PROOFS / "4.tlog-proof").unlink()
    elif what == "lines swapped":
        (target / EVENTS).write_text("".join([lines[0], lines[2], lines[1], *lines[3:]]))
    elif what == "last lines removed":
        (target / EVENTS).write_text("".join(lines[:4]))
    elif what == "every line removed":
        (target / EVENTS).write_text("")
    else:
        log = match_log("m-2", 3)
        store.create_match(log[0], role="official")
        for event in log[1:]:
            store.append("m-2", event, role="scorer")
        (target / HEAD).write_bytes((archive(store, ["m-2"], tmp_path / "other")[0] / HEAD).read_bytes())
    problems = verify_bundle(target, ENGINE_VERSION).problems
    assert problems
    if what in ("last lines removed", "every line removed"):
        assert problems == [f"m-1: its lines end at seq {4 if what == 'last lines removed' else 0}, its signed head at "
                            f"seq 6 (hash {json.loads(lines[-1])['hash']}) of match m-1: lines were cut from its end"]


def test_a_bundle_with_no_head_verifies_saying_a_cut_end_would_not_be_found(store: Store, tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch,
                                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Archived before heads were, or its head removed: the bundle cannot say which, and its verdict says so."""
    target = bundle_of(store, tmp_path / "bundle")
    (target / HEAD).unlink()
    report = verify_bundle(target, ENGINE_VERSION)
    assert (report.problems, report.notes, report.headless) == ([], [], ["m-1"])
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", "sqlite:////nonexistent/nothing.db")
    assert main(["verify", "--bundle", str(target)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        "but 1 of them have no signed head, so lines cut from their end would not be found: m-1")


def season_of(store: Store, folder: Path, codes: tuple[str, ...] = ("m-1", "m-2", "m-3")) -> Path:
    for code in codes:
        log = match_log(code, 4)
        store.create_match(log[0], role="official")
        for event in log[1:]:
            store.append(code, event, role="scorer")
    archive(store, list(codes), folder)
    return folder


def test_a_match_coded_as_the_seasons_tiles_folder_keeps_a_bundle_of_its_own(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A season's archive writes the league log's tiles into DIR/log: a match coded "log" had its bundle there, its
    checkpoint overwritten by the tiles' own."""
    season_of(store, tmp_path / "first", ("log", "m-2"))
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
    assert main(["archive", "--season", "2026", str(tmp_path / "season")]) == 0
    capsys.readouterr()
    assert (tmp_path / "season" / "%6Cog" / EVENTS).exists() and not (tmp_path / "season" / "log" / EVENTS).exists()
    assert (tmp_path / "season" / "log" / "checkpoint").exists()  # the tiles' own
    assert main(["verify", "--bundle", str(tmp_path / "season")]) == 0
    assert "verified: 2 matches" in capsys.readouterr().out


@pytest.mark.parametrize("what", ["folder removed", "folder emptied", "lines cut", "folder of another archive"])
def test_a_match_removed_from_a_season_bundle_is_found(store: Store, tmp_path: Path, what: str) -> None:
    """Each match's bundle proves itself; only the signed list of the matches archived together says one is gone."""
    folder = season_of(store, tmp_path / "season")
    assert verify_bundle(folder, ENGINE_VERSION).problems == []
    target = folder / "m-2"
    if what == "folder removed":
        shutil.rmtree(target)
    elif what == "folder emptied":
        (target / EVENTS).write_text("")
        (target / HEAD).unlink()
    elif what == "lines cut":
        lines = (target / EVENTS).read_text().splitlines(keepends=True)
        (target / EVENTS).write_text("".join(lines[:2]))
        (target / HEAD).unlink()
    else:  # m-2's folder replaced by that of a match of the same code archived elsewhere
        other_store = Store(f"sqlite:///{tmp_path / 'other.db'}")
        other_store.upgrade()
        other = season_of(other_store, tmp_path / "other", ("m-2",))
        other_store.close()
        shutil.rmtree(target)
        shutil.copytree(other / "m-2", target)
    problems = verify_bundle(folder, ENGINE_VERSION).problems
    if what == "folder removed":
        assert problems == [f"{LIST}: match m-2 is on the signed list, and its bundle (m-2) is missing: it was removed"]
    else:
        held = f"{LIST}: match m-2: its bundle (m-2) does not hold seq 4"
        assert any(problem.startswith(held) for problem in problems)


def test_a_folder_with_no_signed_list_verifies_saying_a_removed_match_would_not_be_found(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    folder = season_of(store, tmp_path / "season")
    (folder / LIST).unlink()
    report = verify_bundle(folder, ENGINE_VERSION)
    assert (report.problems, report.unlisted) == ([], True)
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", "sqlite:////nonexistent/nothing.db")
    assert main(["verify", "--bundle", str(folder)]) == 0
    assert capsys.readouterr().out.splitlines()[-1] == (
        f"but the folder has no signed list of its matches ({LIST}), so a match's bundle removed from it would not "
        "be found")


def test_a_changed_list_does_not_hold_and_a_bundle_archived_apart_is_noted(store: Store, tmp_path: Path) -> None:
    folder = season_of(store, tmp_path / "season")
    text = (folder / LIST).read_text()
    (folder / LIST).write_text(text.replace('"m-3" 4', '"m-3" 3'))
    [problem] = verify_bundle(folder, ENGINE_VERSION).problems
    assert problem.startswith(f"{LIST}: the signed list does not hold: ")
    (folder / LIST).write_text(text)
    season_of(store, tmp_path / "apart", ("m-4",))
    shutil.copytree(tmp_path / "apart" / "m-4", folder / "m-4")
    report = verify_bundle(folder, ENGINE_VERSION)
    assert report.problems == []
    assert report.notes == [f"m-4: not on the signed list ({LIST}): archived apart from the others"]


def test_an_earlier_archives_head_does_not_vouch_for_a_bundle_cut_to_its_length(store: Store, tmp_path: Path) -> None:
    """Cut to the length an earlier archive had, with that archive's head in it, a bundle verified whole."""
    log = match_log("m-1", 6)
    store.create_match(log[0], role="official")
    for event in log[1:4]:
        store.append("m-1", event, role="scorer")
    earlier = archive(store, ["m-1"], tmp_path / "earlier")[0]
    for event in log[4:]:
        store.append("m-1", event, role="scorer")
    target = archive(store, ["m-1"], tmp_path / "later")[0]
    lines = (target / EVENTS).read_text().splitlines(keepends=True)
    (target / EVENTS).write_text("".join(lines[:4]))
    (target / HEAD).write_bytes((earlier / HEAD).read_bytes())
    [problem] = verify_bundle(target, ENGINE_VERSION).problems
    assert "it is an earlier archive's head, and lines may have been cut from its end" in problem


def test_a_kept_receipt_verifies_against_a_bundle_alone(store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    """Issue 19: the receipts a scorer kept (proofs, and one signed before the league log) hold against the bundle
    with no database and no secret; after the match is removed and a rewritten log imported under its code, the
    new bundle verifies on its own, but every kept receipt names the rewrite."""
    log = match_log("m-1", 6)
    kept = [store.create_match(log[0], role="official").receipt.to_json()]
    kept += [store.append("m-1", event, role="scorer").receipt.to_json() for event in log[1:]]
    first = store.events("m-1")[0]
    kept.append(sign(store.secrets.signing_key(), store.key_fingerprint(), "m-1", 1, first.hash,
                     first.received_at).to_json())
    receipts = tmp_path / "receipts.jsonl"
    receipts.write_text("".join(json.dumps(receipt) + "\n" for receipt in kept))
    archive(store, ["m-1"], tmp_path / "bundle")
    store.remove_match("m-1", reason="rewritten", by="league")
    store.import_log([json.dumps(event).replace("Blue", "Azul") for event in log])
    archive(store, ["m-1"], tmp_path / "rewritten")
    store.secrets.path.unlink()
    store.secrets.signing_path.unlink()
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", "sqlite:////nonexistent/nothing.db")
    capsys.readouterr()
    assert main(["verify", "--bundle", str(tmp_path / "bundle"), "--receipts", str(receipts)]) == 0
    assert "receipts: 7 of those read hold" in capsys.readouterr().out
    assert main(["verify", "--bundle", str(tmp_path / "rewritten"), "--receipts", str(receipts)]) == 1
    out = capsys.readouterr().out
    assert "receipts: 0 of those read hold" in out and "the event was logged again" in out


def season_with_tiles(store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                      capsys: pytest.CaptureFixture[str]) -> Path:
    """A season's archive from the command line: each match's bundle, the signed list, and the league log's tiles."""
    season_of(store, tmp_path / "first")
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
    assert main(["archive", "--season", "2026", str(tmp_path / "season")]) == 0
    capsys.readouterr()
    return tmp_path / "season"


@pytest.mark.parametrize("what", ["an entry changed", "a hash tile changed", "their checkpoint removed"])
def test_the_seasons_tiles_of_the_league_log_are_checked(store: Store, tmp_path: Path,
                                                         monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str], what: str) -> None:
    """verify --bundle never read the tiles a season's archive writes: a byte changed in them, or their checkpoint
    removed, verified as a whole bundle."""
    folder = season_with_tiles(store, tmp_path, monkeypatch, capsys)
    assert verify_bundle(folder, ENGINE_VERSION).problems == []
    if what == "their checkpoint removed":
        (folder / "log" / "checkpoint").unlink()
    else:
        path = next(path for path in (folder / "log" / "tile" / ("entries" if what == "an entry changed" else "0"))
                    .rglob("*") if path.is_file())
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 1
        path.write_bytes(bytes(data))
    [problem] = verify_bundle(folder, ENGINE_VERSION).problems
    assert problem == "log: the league log's tiles lack log/checkpoint: it was removed" if what.endswith("removed") \
        else problem.startswith("log: the league log's tiles do not hold: ")
    assert main(["verify", "--bundle", str(folder)]) == 1


def test_a_match_cut_with_its_head_and_the_list_removed_is_found_by_the_tiles(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """With the signed list and a match's head deleted, its lines cut verified (two notes said a cut would not be
    found). The league log's tiles keep every leaf the match was given."""
    folder = season_with_tiles(store, tmp_path, monkeypatch, capsys)
    (folder / LIST).unlink()
    (folder / "m-2" / HEAD).unlink()
    lines = (folder / "m-2" / EVENTS).read_text().splitlines(keepends=True)
    (folder / "m-2" / EVENTS).write_text("".join(lines[:2]))
    assert verify_bundle(folder, ENGINE_VERSION).problems == [
        "log: match m-2: the league log holds its seq 4, its bundle (m-2) ends at seq 2: lines were cut from its end"]


def test_a_match_removed_and_stored_again_is_found_by_the_tiles_without_a_kept_receipt(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """The store's verify names a match removed and imported again under its code; its season's bundle verified
    clean, since each bundle proves only its own lines. The tiles hold the first log's leaves too."""
    season_of(store, tmp_path / "first")
    store.remove_match("m-2", reason="re-entered", by="records")
    store.import_log([json.dumps(event) for event in match_log("m-2", 4)])  # the same match, entered again
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store.url.render_as_string(hide_password=False))
    assert main(["archive", "--season", "2026", str(tmp_path / "season")]) == 0
    capsys.readouterr()
    [problem] = verify_bundle(tmp_path / "season", ENGINE_VERSION).problems
    assert problem.startswith("log: match m-2, seq 1: the league log recorded it before with another hash ")


@pytest.mark.parametrize("cut", [False, True])
def test_a_bundle_older_than_its_tiles_is_judged_by_the_log_as_it_was_at_its_checkpoint(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
        cut: bool) -> None:
    """A later archive's tiles hold what was logged after a bundle was made: here its match removed and entered
    again, longer. Intact, the older bundle is no cut (the later leaves are another match's); cut, with its head
    and the signed list deleted, it is found (its own leaves, before its checkpoint, still count)."""
    folder = season_with_tiles(store, tmp_path, monkeypatch, capsys)
    store.remove_match("m-2", reason="re-entered", by="records")
    store.import_log([json.dumps(event) for event in match_log("m-2", 6)])
    assert main(["archive", "--season", "2026", str(tmp_path / "later")]) == 0
    shutil.rmtree(folder / "log")
    shutil.copytree(tmp_path / "later" / "log", folder / "log")
    if cut:
        (folder / LIST).unlink()
        (folder / "m-2" / HEAD).unlink()
        lines = (folder / "m-2" / EVENTS).read_text().splitlines(keepends=True)
        (folder / "m-2" / EVENTS).write_text("".join(lines[:2]))
    assert verify_bundle(folder, ENGINE_VERSION).problems == ([
        "log: match m-2: the league log holds its seq 4, its bundle (m-2) ends at seq 2: lines were cut from its "
        "end"] if cut else [])


@pytest.mark.parametrize("removed", [POLICY, CHECKPOINT])
def test_a_bundles_file_removed_is_named_and_its_match_not_said_removed(store: Store, tmp_path: Path,
                                                                        removed: str) -> None:
    """A bundle's policy deleted gave the system's own error ("[Errno 2] No such file or directory: ...") and the
    signed list said the match's bundle was missing, which it was not."""
    folder = season_of(store, tmp_path / "season")
    (folder / "m-2" / removed).unlink()
    assert verify_bundle(folder, ENGINE_VERSION).problems == [
        f"m-2: cannot be checked: its {removed} is missing: it was removed"]



def test_the_last_line_of_a_bundles_check_says_what_it_proved() -> None:
    report = BundleReport(matches=2, events=10)
    assert report.proven() == ("verified: 2 matches, 10 events: every chain is whole, every event is in the signed "
                               "checkpoint, every ruling replayed is the engine's")
    report.uncompared.append("m-1")
    assert report.proven().endswith("every ruling replayed is the engine's but those of m-1, ruled by another "
                                    "engine, which are not compared")


def test_a_match_stored_before_the_league_log_is_no_problem_to_the_tiles(
        store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A match stored before the league log began has no leaf in it (an upgraded store): the tiles, which hold
    none of its events, called each one "written behind the log's back"."""
    from matchstate.store import facade
    from matchstate.store.leaguelog import Added, LeagueLog

    with monkeypatch.context() as before_the_log:
        before_the_log.setattr(LeagueLog, "add", lambda *_, **__: Added(0, 0, b"", None))
        before_the_log.setattr(facade.Store, "_receipt", lambda *_: None)
        log = match_log("m-0", 4)
        store.create_match(log[0], role="official")
        for event in log[1:]:
            store.append("m-0", event, role="scorer")
    folder = season_with_tiles(store, tmp_path, monkeypatch, capsys)
    report = verify_bundle(folder, ENGINE_VERSION)
    # Said once for the match, where it was said for each of its events; and the last line says what is proven: it
    # said every event was in the signed checkpoint.
    assert report.problems == [] and [note for note in report.notes if "before the league log" in note] == [
        "m-0: 4 events, seqs 1 to 4, stored before the league log: no proof"]
    (tmp_path / "league.pem").write_text(store.public_key_pem())
    assert main(["verify", "--bundle", str(folder), "--public-key", str(tmp_path / "league.pem")]) == 0
    assert capsys.readouterr().out.splitlines()[:-1] == [
        "m-0: 4 events, seqs 1 to 4, stored before the league log: no proof",
        "verified: 4 matches, 16 events: every chain is whole, 12 of the events are in the signed checkpoint (4 "
        "were stored before the league log), every ruling replayed is the engine's"]


def test_a_bundle_another_store_made_is_refused_against_the_leagues_public_key_and_an_unpinned_check_says_whose(
        store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    forger = Store(f"sqlite:///{tmp_path}/forger.db", secret_file=tmp_path / "forger.secret")  # keys of its own
    forger.upgrade()
    bundle_of(forger, tmp_path / "forged")
    bundle_of(store, tmp_path / "league")
    for name, keeper in (("league.pem", store), ("forger.pem", forger)):
        (tmp_path / name).write_text(keeper.public_key_pem())
    capsys.readouterr()
    assert main(["verify", "--bundle", str(tmp_path / "forged"), "--public-key", str(tmp_path / "league.pem")]) == 1
    out = capsys.readouterr().out
    assert ("m-1: cannot be checked: its checkpoint is not signed by a public key of the league's given: the league "
            "did not sign it") in out and "verified" not in out
    assert main(["verify", "--bundle", str(tmp_path / "league"), "--public-key", str(tmp_path / "league.pem")]) == 0
    assert "signed by the league's public key given: matchstate.league/" in capsys.readouterr().out
    assert main(["verify", "--bundle", str(tmp_path / "forged")]) == 0  # nothing to check it against: said so
    assert "give the league's public key (--public-key PEM" in capsys.readouterr().out.splitlines()[-1]
    forger.close()


def test_a_bundle_resigned_by_another_key_is_refused_though_its_policy_names_the_leagues_key_beside_it(
        store: Store, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = bundle_of(store, tmp_path / "bundle")
    (tmp_path / "league.pem").write_text(store.public_key_pem())
    checkpoint = Note.parse((target / CHECKPOINT).read_bytes())
    forger = Signer(checkpoint.text.split("\n")[0], Ed25519PrivateKey.generate())  # the league's log name, its key
    resigned = forger.sign(checkpoint.text)  # the league's signature left out
    for path in [target / CHECKPOINT, *(target / PROOFS).iterdir()]:
        path.write_text(path.read_text().replace(str(checkpoint), resigned))
    for path in (target / HEAD, tmp_path / "bundle" / LIST):
        path.write_text(forger.sign(Note.parse(path.read_bytes()).text))
    (target / POLICY).write_text(f"log {forger.verifier.vkey()}\n" + (target / POLICY).read_text())
    capsys.readouterr()
    assert main(["verify", "--bundle", str(tmp_path / "bundle"), "--public-key", str(tmp_path / "league.pem")]) == 1
    out = capsys.readouterr().out
    assert "m-1: cannot be checked: its checkpoint is not signed by a public key of the league's given" in out
    assert f"{LIST}: the signed list does not hold: no known key signed the note" in out
    assert main(["verify", "--bundle", str(tmp_path / "bundle")]) == 0  # by its own policy it holds: and says whose
    assert f"signed by {forger.verifier.handle}, as the bundle's own policy names" in capsys.readouterr().out


def test_a_heads_number_changed_to_no_number_is_said_in_words(store: Store, tmp_path: Path) -> None:
    target = bundle_of(store, tmp_path / "bundle", events=3)
    lines = (target / HEAD).read_bytes().split(b"\n")
    lines[5] = lines[5][:-1] + b"A"  # its tree size, which names the key its signature is checked with
    (target / HEAD).write_bytes(b"\n".join(lines))
    [problem] = verify_bundle(target, ENGINE_VERSION).problems
    assert problem == (f"m-1: its head does not hold: its tree size is not a whole number ({lines[5].decode()!r}): "
                       "the head was changed")
