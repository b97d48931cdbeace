"""The scorer's console on a server whose witnesses stopped its writes (its store restored from a copy older
than what they cosigned): the banner says why, in the server's words, and the event logged waits on the tablet
instead of forking the league's log."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from witness_helpers import running_witness, until

from browser.browsing import TABLET, Console, create, get, league_store, send
from matchstate.store import Store
from matchstate.store.backup import backup, restore
from matchstate.web.process import ServerProcess


def test_the_console_says_its_witnesses_stopped_the_server_and_keeps_the_event(
        new_page: Callable[..., Any], tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'league.db'}"
    league_store(url)
    store = Store(url)
    vkey = store.log.signer.verifier.vkey()
    (tmp_path / "w1").mkdir()
    with running_witness(tmp_path / "w1", f"log {vkey}\n") as (_, line):
        (tmp_path / "policy").write_text(f"log {vkey}\n{line}\nquorum witness.example/w1\n")
        options = ["--witness-policy", str(tmp_path / "policy"), "--witness-every", "0.1"]
        with ServerProcess(url, options=options) as server:
            until(lambda: get(server, "/api/log/witnesses")["state"] == "witnessing", "the first round")
            keys = create(server, "halted")
            until(lambda: get(server, "/api/log/witnesses")["cosigned_size"], "a cosigned checkpoint")
            backup(store.url, store.secrets, tmp_path / "copy")
            send(server, "halted", {"type": "chukker.start", "chukker": 1}, keys["scorer_key"])
            cosigned = get(server, "/api/log/witnesses")["cosigned_size"]
            until(lambda: get(server, "/api/log/witnesses")["cosigned_size"] > cosigned, "the witness cosigns more")
        store.close()
        for suffix in ("", "-wal", "-shm"):
            Path(f"{tmp_path / 'league.db'}{suffix}").unlink(missing_ok=True)
        restore(tmp_path / "copy", store.url, store.secrets)
        with ServerProcess(url, options=options) as server:
            until(lambda: get(server, "/api/log/witnesses")["state"] == "halted", "the server halts")
            console = Console(new_page(viewport=TABLET), "halted").open(server, keys["scorer_key"])
            console.click("chukker.start")
            console.page.wait_for_selector(".banner.offline >> text=Writes are stopped")
            assert "restored from an older copy" in console.status()
            assert [event["type"] for event in console.outbox()] == ["chukker.start"]
            assert get(server, "/api/matches/halted")["seq"] == 1  # nothing appended to the fork
