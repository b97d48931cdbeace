"""The command line without traps: a missing store refused by its absolute path, ports checked, exit 1 for a
problem found and 2 for a command that could not run, JSON for scripts, serve's options from the
environment, a release number that moves with the CHANGELOG, and --help without the engine."""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from matchstate import __version__, commands
from matchstate.cli import COULD_NOT_RUN, FOUND_A_PROBLEM, LANGUAGES, main, parser
from matchstate.words import LANGUAGES as CATALOG_LANGUAGES

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = str(ROOT / "matchstate" / "examples" / "penalty-shootout.jsonl")


def test_a_store_command_in_the_wrong_folder_names_the_store_it_did_not_find_and_makes_none(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("MATCHSTATE_DATABASE_URL", raising=False)
    for command in (["verify"], ["matches"], ["db", "upgrade"], ["import", EXAMPLE]):
        assert main(command) == COULD_NOT_RUN
        assert f"no store at {tmp_path / 'matchstate.db'}" in capsys.readouterr().err
    assert list(tmp_path.iterdir()) == []
    assert main(["db", "upgrade", "--create"]) == 0
    assert (tmp_path / "matchstate.db").exists()


def test_an_unknown_database_scheme_is_refused_in_a_sentence(monkeypatch: pytest.MonkeyPatch,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", "mysql://somewhere/league")
    assert main(["matches"]) == COULD_NOT_RUN
    err = capsys.readouterr().err
    assert "neither SQLite" in err and "Traceback" not in err


@pytest.mark.parametrize("port", ["0", "99999", "-1", "http"])
def test_a_port_outside_1_to_65535_is_refused(port: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as stopped:
        parser().parse_args(["serve", "--port", port])
    assert stopped.value.code == COULD_NOT_RUN
    assert "must be a port number from 1 to 65535" in capsys.readouterr().err


def test_a_bundle_folder_that_is_not_there_and_a_tls_key_that_is_not_one_are_refused_in_words(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """`verify --bundle` of no folder exited 1 (a problem found) where nothing could be checked; `--public-key`
    without receipts was ignored, whatever it named; a key file that is not one gave uvicorn's "[SSL] PEM lib",
    naming no file."""
    assert main(["verify", "--bundle", str(tmp_path / "none")]) == COULD_NOT_RUN
    assert capsys.readouterr().err == f"matchstate: no such folder: {tmp_path / 'none'}\n"
    assert main(["verify", "--public-key", str(tmp_path / "none.pem")]) == COULD_NOT_RUN  # for no receipts
    assert capsys.readouterr().err == "matchstate: --public-key checks receipts: give them with --receipts FILE\n"
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", f"sqlite:///{tmp_path / 'store.db'}")
    assert main(["db", "upgrade", "--create"]) == 0
    (tmp_path / "cert.pem").write_text("not a certificate\n")
    (tmp_path / "key.pem").write_text("not a key\n")
    assert main(["serve", "--ssl-certfile", str(tmp_path / "cert.pem"), "--ssl-keyfile",
                 str(tmp_path / "key.pem")]) == COULD_NOT_RUN
    assert capsys.readouterr().err.startswith(
        f"matchstate: --ssl-certfile {tmp_path / 'cert.pem'} and --ssl-keyfile {tmp_path / 'key.pem'} are not a "
        "certificate in PEM and its private key")


def test_every_serve_option_is_also_an_environment_variable(monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["serve", "--help"])
    shown = " ".join(capsys.readouterr().out.split())
    named = set(re.findall(r"\[\$(MATCHSTATE_\w+)\]", shown))
    assert {"MATCHSTATE_HOST", "MATCHSTATE_PORT", "MATCHSTATE_TLS", "MATCHSTATE_SSL_CERTFILE",
            "MATCHSTATE_CLOCK_TOLERANCE", "MATCHSTATE_STREAMS_PER_CLIENT", "MATCHSTATE_WORKERS"} <= named
    assert len(named) == shown.count("[$MATCHSTATE_")  # one each
    monkeypatch.setenv("MATCHSTATE_PORT", "8443")
    monkeypatch.setenv("MATCHSTATE_TLS", "yes")
    monkeypatch.setenv("MATCHSTATE_TLS_NAME", "pitch.lan, 10.0.0.2")
    monkeypatch.setenv("MATCHSTATE_RATE_KEYED", "80")
    args = parser(environment=True).parse_args(["serve", "--port", "9000"])
    assert (args.port, args.tls, args.tls_name, args.keyed_per_second) == (9000, True, ["pitch.lan", "10.0.0.2"], 80)
    monkeypatch.setenv("MATCHSTATE_PORT", "99999")
    with pytest.raises(SystemExit):
        parser(environment=True).parse_args(["serve"])
    assert "$MATCHSTATE_PORT must be a port number" in capsys.readouterr().err
    assert parser().parse_args(["matches"]).command == "matches"  # another command is not stopped by it


def test_json_for_scripts_and_exit_1_for_a_problem_2_for_seals_not_checked(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", f"sqlite:///{tmp_path / 'store.db'}")
    assert main(["db", "upgrade", "--create", "--json"]) == 0
    made = json.loads(capsys.readouterr().out)
    assert made["made"]["secret"] == str(tmp_path / "store.db.secret") and made["league_key"]
    assert main(["import", EXAMPLE, "--json"]) == 0
    imported = json.loads(capsys.readouterr().out)
    assert set(imported["keys"]) == {"scorer", "official"} and imported["events"] > 10
    assert main(["matches", "--json"]) == 0
    [listed] = json.loads(capsys.readouterr().out)
    assert listed["match"] == imported["match"] and listed["last_seq"] == imported["events"]
    assert main(["keys", "issue", imported["match"], "scorer", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["role"] == "scorer"
    assert main(["db", "current", "--json"]) == 0
    current = json.loads(capsys.readouterr().out)
    assert current["up_to_date"] and current["current"] == current["latest"]
    assert main(["db", "history", "--json"]) == 0
    history = json.loads(capsys.readouterr().out)
    assert history[0]["revision"] == "0001" and all(row["applied"] for row in history)
    assert main(["db", "history"]) == 0
    assert capsys.readouterr().out.startswith("* 0001  ")
    assert main(["verify", "--json"]) == 0
    assert json.loads(capsys.readouterr().out) == {"status": 0, "problems": [], "notes": [], "sealed": True,
                                                   "matches": 1}

    secret = tmp_path / "store.db.secret"
    secret.rename(tmp_path / "elsewhere")
    assert main(["verify"]) == COULD_NOT_RUN
    out = capsys.readouterr().out
    assert f"seals not checked: no secret at {secret}" in out and "but the seals were not checked" in out
    (tmp_path / "elsewhere").rename(secret)

    from sqlalchemy import create_engine, text

    engine = create_engine(f"sqlite:///{tmp_path / 'store.db'}")
    with engine.begin() as connection:
        connection.execute(text("UPDATE matches SET state = 'live'"))
    engine.dispose()
    assert main(["verify", "--json"]) == FOUND_A_PROBLEM
    assert "its row's state" in json.loads(capsys.readouterr().out)["problems"][0]


def test_the_release_is_the_changelogs_latest_and_the_languages_the_catalogs() -> None:
    changelog = (ROOT / "CHANGELOG.md").read_text()
    releases = re.findall(r"^## (\d+\.\d+\.\d+) — \d{4}-\d\d-\d\d$", changelog, re.MULTILINE)
    assert releases[0] == __version__ == "0.2.0" and "0.1.0" in releases
    assert LANGUAGES == CATALOG_LANGUAGES


def _imported_by(probe: str) -> list[str]:
    """The modules of matchstate (and argparse, re, the store's and the web's libraries) that ``probe`` imports,
    run in an interpreter with no site packages: nothing of a venv's own start-up counts."""
    probe += ("\nprint(*sorted(m for m in sys.modules if m.startswith('matchstate') or m in "
              "('argparse', 're', 'sqlalchemy', 'fastapi')))")
    return subprocess.run([sys.executable, "-S", "-c", probe], capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "100"}).stdout.splitlines()[-1].split()


def test_help_imports_neither_the_engine_nor_the_store_nor_the_web() -> None:
    # The installed `matchstate` answers --help and --version with neither argparse nor re, whose imports cost more
    # than Python takes to start.
    for option in ("--help", "--version"):
        assert _imported_by(f"import sys; from matchstate.commands import main; main([{option!r}])") == [
            "matchstate", "matchstate.commands", "matchstate.version"]
    # Where the terminal is too narrow for that help, argparse gives it: the evidence bundles' and the witness's
    # commands are imported for their options, their work only when run.
    assert _imported_by("import sys; from matchstate.cli import main\n"
                        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass") == [
        "argparse", "matchstate", "matchstate.cli", "matchstate.commands", "matchstate.errors",
        "matchstate.evidence_cli", "matchstate.version", "matchstate.witness", "matchstate.witness.command", "re"]


def test_the_quick_help_is_argparses_own_at_every_width(monkeypatch: pytest.MonkeyPatch,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    quick = []
    for columns in range(20, 240):
        monkeypatch.setenv("COLUMNS", str(columns))
        commands.columns.cache_clear()
        with pytest.raises(SystemExit) as shown:
            main(["--help"])
        assert shown.value.code == 0
        argparses = capsys.readouterr().out
        if commands.top_help(columns - 2) is not None:
            quick.append(columns)
            assert commands.main(["--help"]) == 0
        else:  # too narrow for the usage line: argparse's own help
            with pytest.raises(SystemExit):
                commands.main(["--help"])
        assert capsys.readouterr().out == argparses, f"{columns} columns"
    commands.columns.cache_clear()
    assert quick == list(range(len(commands.USAGE) + 2, 240))  # from where the usage fits on its line
    with pytest.raises(SystemExit):
        main(["--version"])
    argparses = capsys.readouterr().out
    assert commands.main(["--version"]) == 0
    assert capsys.readouterr().out == argparses == f"matchstate {__version__}\n"


def test_the_quick_wrap_breaks_lines_where_textwrap_does() -> None:
    import textwrap

    # every text the help wraps, and words longer than a line, at every width argparse wraps help to (11 and up)
    texts = [commands.DESCRIPTION, *commands.COMMANDS.values(), *commands.OPTIONS.values(),
             "the free-hit lifecycle, re-teed", "a supercalifragilistic-expialidocious, unbreakableword"]
    for text in texts:
        for width in range(11, 130):
            assert commands.wrap(text, width) == textwrap.wrap(text, width), (text, width)


def test_help_lists_every_command_and_each_shows_its_own_options(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as shown:
        main(["--help"])
    assert shown.value.code == 0
    out = capsys.readouterr().out
    listed = re.findall(r"^    (\S+)", out, re.MULTILINE)  # a command's help may go on over lines indented further
    assert listed == [
        "replay", "rules", "diagram", "db", "import", "backup", "restore", "keys", "export", "stats", "matches",
        "remove", "correct", "show", "verify", "archive", "witness", "serve"]
    assert "verify check the hash chains and replay the rulings; exits 1 if anything is wrong" in " ".join(out.split())
    # Each command's options are added when it is used, not for this list: each one's own help still shows them.
    for name in listed:
        with pytest.raises(SystemExit) as shown:
            main([name, "--help"])
        assert shown.value.code == 0
        assert capsys.readouterr().out.startswith(f"usage: matchstate {name} ")
    with pytest.raises(SystemExit):
        main(["verify", "--help"])
    assert "--bundle DIR" in capsys.readouterr().out  # added to verify by the evidence bundles' commands
    with pytest.raises(SystemExit) as refused:
        main(["verfy"])
    assert refused.value.code == COULD_NOT_RUN
    assert "invalid choice: 'verfy' (choose from 'replay', 'rules'," in capsys.readouterr().err


def postgresql_connections() -> int:
    """This process's open connections to PostgreSQL's port (Linux: its socket descriptors, found in the kernel's
    table of TCP connections), whatever other processes hold."""
    sockets = set()
    for fd in os.listdir("/proc/self/fd"):
        with contextlib.suppress(OSError):
            target = os.readlink(f"/proc/self/fd/{fd}")
            if target.startswith("socket:["):
                sockets.add(target[8:-1])
    held = 0
    for table in ("/proc/self/net/tcp", "/proc/self/net/tcp6"):
        with open(table) as lines:
            for line in list(lines)[1:]:
                fields = line.split()
                held += fields[2].endswith(":1538") and fields[3] == "01" and fields[9] in sockets  # 5432, open
    return held


@pytest.mark.parametrize("store_url", ["postgresql"], indirect=True)
def test_a_command_run_in_process_keeps_no_connection_to_the_database(
        store_url: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Each command left its store's connections open: harmless as a process ends, but a suite (or a tool) that
    runs commands in process ran PostgreSQL out of connections."""
    monkeypatch.setenv("MATCHSTATE_DATABASE_URL", store_url)
    assert main(["db", "upgrade"]) == 0
    before = postgresql_connections()
    for command in (["matches"], ["verify"], ["restore", "/nonexistent/backup"], ["stats"]):
        main(command)
    capsys.readouterr()
    assert postgresql_connections() == before
