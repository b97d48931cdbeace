"""The scorer's console when its server's database falls silent (PostgreSQL behind the test's own TCP proxy,
which stops forwarding; PostgreSQL itself never stopped): the console says so within its timeout, keeps its
outbox, and sends it once the database answers again."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from silent_proxy import SilentProxy, postgres_schema, through
from sqlalchemy import make_url

from browser.browsing import RECONNECT_MS, TABLET, Console, create, league_store, log
from matchstate.web.process import ServerProcess

DATABASE_TIMEOUT = 2  # the server's MATCHSTATE_DATABASE_TIMEOUT here


def test_the_console_says_the_database_is_unreachable_keeps_its_outbox_and_sends_it_later(
        postgres_server: str, new_page: Callable[..., Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MATCHSTATE_SECRET_FILE", str(tmp_path / "store.secret"))
    monkeypatch.setenv("MATCHSTATE_DATABASE_TIMEOUT", str(DATABASE_TIMEOUT))
    with postgres_schema(postgres_server) as url, SilentProxy(_address(url)) as proxy:
        league_store(url)
        with ServerProcess(through(proxy, url), log=tmp_path / "server.log") as server:
            keys = create(server, "silent-db")
            console = Console(new_page(viewport=TABLET), "silent-db").open(server, keys["scorer_key"])
            page = console.page
            console.click("chukker.start")
            page.wait_for_selector(".banner.ok")

            proxy.silence()
            console.click("goal", team="Blue", player=3)
            # Within the server's timeout and the console's own (the guard here only keeps a failure from hanging).
            page.wait_for_selector(".banner.offline >> text=The server cannot reach its database", timeout=RECONNECT_MS)
            assert [event["type"] for event in console.outbox()] == ["goal"]
            assert "1 event kept on this device" in console.status()

            proxy.resume()
            console.wait_until_sent()
            assert [row["type"] for row in log(server, "silent-db")] == ["match.start", "chukker.start", "goal"]
            errors = [error for error in page.errors if "503" not in error]  # the browser logs each 503 it got
            assert errors == []


def _address(url: str) -> tuple[str, int]:
    parsed = make_url(url)
    return parsed.host or "127.0.0.1", parsed.port or 5432
