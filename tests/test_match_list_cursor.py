"""The match list's pages by cursor (keyset): the same matches as by offset, in every order, with text filters
too, however deep; the cursor is the last match's code, in the `X-Next-Cursor` header."""

from __future__ import annotations

import warnings
from urllib.parse import unquote

import pytest
from conftest import BLUE, RED, hand_log, stored

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from matchstate.store import Store
from matchstate.web import create_app

LOGS = [hand_log(f"m-{n:02}", f"2026-0{1 + n % 9}-1{n % 10}", event="Copa Ñandú" if n % 3 else "Liga",
                 teams=[BLUE, RED] if n % 2 else [RED, "Águilas"]) for n in range(13)]


def walk(client: TestClient, params: dict[str, str], by: str) -> list[str]:
    """Every page's codes, following the next page's cursor (``by`` "cursor") or offset."""
    codes: list[str] = []
    following: dict[str, str] = {}
    while True:
        answer = client.get("/api/matches", params={**params, "limit": "4", **following})
        assert answer.status_code == 200
        codes += [match["code"] for match in answer.json()]
        header = answer.headers.get("x-next-cursor" if by == "cursor" else "x-next-offset")
        if header is None:
            return codes
        following = {by: unquote(header)}


@pytest.mark.parametrize("sort", ["created", "-created", "code", "-code"])
def test_the_pages_by_cursor_are_the_pages_by_offset(store: Store, sort: str) -> None:
    with TestClient(create_app(stored(store, *LOGS))) as client:
        for params in ({"sort": sort}, {"sort": sort, "team": "red"}, {"sort": sort, "event": "nandu"}):
            by_offset = walk(client, params, "offset")
            assert walk(client, params, "cursor") == by_offset and len(by_offset) > 4
        assert len(walk(client, {"sort": sort}, "cursor")) == len(LOGS)
