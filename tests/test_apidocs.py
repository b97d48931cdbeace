"""``/docs`` describes the API from its own OpenAPI and needs nothing from the internet."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from matchstate.store import Store
from matchstate.web.app import create_app


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    store = Store(f"sqlite:///{tmp_path / 'docs.db'}")
    store.upgrade()
    with TestClient(create_app(store)) as client:
        yield client
    store.close()


def test_the_api_page_lists_every_operation_of_the_openapi(client: TestClient) -> None:
    page = client.get("/docs")
    assert page.status_code == 200 and page.headers["content-type"].startswith("text/html")
    for path, item in client.get("/openapi.json").json()["paths"].items():
        for method in item:
            assert f"<code>{method.upper()} {path}</code>" in page.text


def test_the_api_page_names_an_appends_body_fields_and_its_answers(client: TestClient) -> None:
    page = client.get("/docs").text
    append = page[page.index("<code>POST /api/matches/{code}/events</code></h2>"):]
    append = append[:append.index("</section>")]
    assert "<code>event</code>" in append and "<code>expected_seq</code>" in append
    assert re.search(r"<th scope=\"row\">201</th>", append)


def test_the_api_page_loads_nothing_from_elsewhere(client: TestClient) -> None:
    page = client.get("/docs").text
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    assert client.get("/redoc").status_code == 404
