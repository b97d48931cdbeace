"""The pages on a weak signal: static files compressed ahead (brotli, gzip) as the browser accepts, kept a year
under their versioned URL, a page's modules in one script and its styles in one stylesheet, the catalog
a module of its own inside it, the console's data asked for beside them, the API's larger answers gzipped; and
the console's first load small enough for Slow 3G."""

from __future__ import annotations

import gzip
import json
import re
import warnings
from collections.abc import Callable, Iterator

import brotli  # type: ignore[import-untyped]  # it ships no types
import pytest

with warnings.catch_warnings():
    warnings.filterwarnings("ignore", "Using `httpx`")
    from fastapi.testclient import TestClient

from conftest import stored
from test_stats import MATCH_A

from matchstate import examples
from matchstate.store import Store
from matchstate.web import create_app
from matchstate.web.assets import IMMUTABLE, assets, bundle_module, catalog_module, catalogs
from matchstate.web.offline import KEPT_PAGE
from matchstate.web.views import event_forms, rules_json
from matchstate.words import catalog

BROWSER = {"accept-encoding": "gzip, deflate, br, zstd"}
FIRST_LOAD_BUDGET = 80_000  # bytes on the wire: the target for the console's first load


@pytest.fixture
def client(store: Store) -> Iterator[TestClient]:
    with TestClient(create_app(stored(store, MATCH_A))) as client:
        yield client


def wire(client: TestClient, url: str, headers: dict[str, str] = BROWSER) -> tuple[int, dict[str, str], bytes]:
    """The status, headers and body of an answer as they crossed the wire (not decoded)."""
    with client.stream("GET", url, headers=headers) as answer:
        return answer.status_code, dict(answer.headers), b"".join(answer.iter_raw())


def urls(html: str, pattern: str) -> list[str]:
    return re.findall(pattern, html)


def test_a_static_file_comes_compressed_as_the_browser_accepts_and_kept_a_year(client: TestClient) -> None:
    url = assets().url(bundle_module("console.mjs"))
    _, headers, plain = wire(client, url, {"accept-encoding": "identity"})
    assert "content-encoding" not in headers and headers["cache-control"] == IMMUTABLE
    for accepted, encoding, decode in (("gzip", "gzip", gzip.decompress), ("gzip, br", "br", brotli.decompress)):
        _, headers, body = wire(client, url, {"accept-encoding": accepted})
        assert headers["content-encoding"] == encoding and headers["vary"] == "Accept-Encoding"
        assert headers["content-type"].startswith("text/javascript") and headers["cache-control"] == IMMUTABLE
        assert decode(body) == plain and len(body) < len(plain) / 2


def test_an_unversioned_url_is_asked_again_and_answered_not_modified(client: TestClient) -> None:
    first = client.get("/static/style.css", headers=BROWSER)
    assert first.status_code == 200 and first.headers["cache-control"] == "no-cache"
    again = client.get("/static/style.css", headers={**BROWSER, "if-none-match": first.headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert client.get("/static/nothing.mjs").status_code == 404


def test_the_console_loads_one_script_and_one_stylesheet_and_asks_for_its_data_beside_them(
        client: TestClient) -> None:
    html = client.get("/matches/a/console", headers=BROWSER).text
    assert 'id="catalog"' not in html and '"penalty"' not in html  # the catalog is a file, not in the page
    assert urls(html, r'<script[^>]* src="([^"]+)"') == [assets().url("bundle-console.mjs")]
    assert urls(html, r'<link rel="stylesheet" href="([^"]+)"') == [assets().url("styles-console.css")]
    assert "modulepreload" not in html
    # Its first reads leave with the script rather than after it has run: a round trip fewer.
    assert urls(html, r'<link rel="preload" href="([^"]+)" as="fetch" crossorigin="anonymous">') == [
        "/api/event-types", "/api/rules", "/api/matches/a", "/api/matches/a/events"]
    assert not urls(html, r'(?:src|href)="/static/[^"?]+"')  # every static file under its versioned URL


def test_a_pages_stylesheet_is_style_css_then_its_own_and_a_page_with_none_has_style_css(
        client: TestClient) -> None:
    files = assets().files
    assert files["styles-console.css"].plain == files["style.css"].plain + b"\n" + files["console.css"].plain
    packet = files["styles-tournament-records.css"].plain
    assert packet.index(files["tournament.css"].plain) < packet.index(files["records.css"].plain)
    assert urls(client.get("/setup/tablet").text, r'<link rel="stylesheet" href="([^"]+)"') == [
        assets().url("style.css")]


def test_each_page_loads_the_words_its_scripts_use_and_not_the_others_pages(client: TestClient) -> None:
    def sections(entry: str) -> set[str]:
        text = client.get(assets().url(catalog_module(entry))).text
        found: dict[str, object] = json.loads(text[text.index("=") + 1:].strip().rstrip(";"))
        return set(found)

    assert catalog_module("console.mjs") in client.get(assets().url(bundle_module("console.mjs"))).text
    console, records = sections("console.mjs"), sections("records.mjs")
    assert {"console", "taps", "form", "seat", "event", "penalty"} <= console
    assert not {"sheet", "stats", "tournament", "records"} & console  # the record keeper's pages' words
    assert "records" in records and "seat" not in records


def test_a_section_named_only_by_its_phrases_is_sent_with_those_phrases_alone() -> None:
    every = catalog()
    texts = {"page.mjs": 'const a = t("review", "no-clause");\nconst b = phraseIn("en", "flag", "after-horn");\n',
             "x.mjs": 'const c = t("form", choice);\nel("p", {dataset: {t: "state.idle"}});\n'
                      'const d = has("faults", "link-database") && t("form", "yes");\n'}
    made = catalogs(texts, {"base.html": '<p data-t="common.events"></p>'}, ["x.mjs"])[catalog_module("x.mjs")]
    sent: dict[str, dict[str, object]] = json.loads(made[made.index("=") + 1:].strip().rstrip(";"))
    assert sent["review"] == {"no-clause": every["review"]["no-clause"]}
    assert sent["flag"] == {"after-horn": every["flag"]["after-horn"]}
    assert sent["faults"] == {"link-database": every["faults"]["link-database"]}
    # A computed key, a "section.key" for an element and a template's words send the section whole.
    assert sent["form"] == every["form"] and sent["state"] == every["state"] and sent["common"] == every["common"]
    assert "console" not in sent


def test_the_consoles_first_load_fits_the_budget_compressed(client: TestClient) -> None:
    _, headers, page = wire(client, "/matches/a/console")
    assert headers["content-encoding"] == "gzip"
    files = set(urls(client.get("/matches/a/console").text, r'(?:src|href)="(/static/[^"]+)"'))
    sizes = {url: len(wire(client, url)[2]) for url in files}
    for path in ("/api/rules", "/api/event-types", "/api/matches/a"):
        sizes[path] = len(wire(client, path)[2])
    assert wire(client, "/api/rules")[1]["content-encoding"] == "br"
    total = len(page) + sum(sizes.values())
    assert total <= FIRST_LOAD_BUDGET, sizes
    print(f"the console's first load: {total:,} bytes in {len(sizes) + 1} answers")


def test_the_service_worker_keeps_every_file_a_page_loads_under_its_versioned_url_and_no_module_twice(
        client: TestClient) -> None:
    worker = client.get("/sw.js").text
    for name in ("bundle-console.mjs", "bundle-page.mjs", "styles-console.css", "style.css", "icon-192.png"):
        assert f'"{assets().url(name)}"' in worker
    for name in ("consolepage.mjs", "dom.mjs", catalog_module("console.mjs")):  # each in its pages' bundles
        assert name in assets().files and f'"{assets().url(name)}"' not in worker
    assert f'const STATIC_VERSION = "{assets().version}"' in worker


@pytest.mark.parametrize(("path", "kept"), [
    ("/", True), ("/scoreboard", True), ("/console", True), ("/matches/a/console", True), ("/matches/a/review", True),
    ("/matches/a/scoreboard", True), ("/matches/a/sheet", False), ("/stats", False), ("/docs", False),
    ("/setup/tablet", False)])
def test_only_a_page_the_service_worker_keeps_is_marked_to_say_so_while_it_has_no_copy(
        client: TestClient, path: str, kept: bool) -> None:
    page = client.get(path)
    assert page.status_code == 200
    assert (re.search(r"<body [^>]*\bdata-kept-offline\b", page.text) is not None) is kept


def test_the_service_worker_keeps_the_pages_the_pages_are_marked_by(client: TestClient) -> None:
    assert f"const PAGE = new RegExp({json.dumps(KEPT_PAGE.pattern)});" in client.get("/sw.js").text


def test_a_small_answer_is_not_compressed(client: TestClient) -> None:
    assert "content-encoding" not in wire(client, "/api/matches/a/events?after_seq=1000")[1]


@pytest.fixture
def whole_match(store: Store) -> Iterator[TestClient]:
    store.import_log(examples.path("full-match").read_text(encoding="utf-8").splitlines())
    with TestClient(create_app(store)) as client:
        yield client


@pytest.mark.parametrize(("accepted", "coding"), [
    ("gzip, deflate, br, zstd", "br"), ("br", "br"), ("gzip", "gzip"), ("gzip, br;q=0", "gzip"),
    ("br;q=0.5, gzip;q=0.9", "gzip"), ("gzip;q=1, br;q=0.1", "gzip"), ("*", "br"), ("x-gzip", "gzip"),
    ("GZIP, BR", "br"), ("identity", None), ("", None), ("br;q=0, gzip;q=0", None)])
def test_a_whole_matchs_events_come_brotlid_where_the_browser_takes_it(
        whole_match: TestClient, accepted: str, coding: str | None) -> None:
    _, headers, body = wire(whole_match, "/api/matches/acacias-2026-final/events", {"accept-encoding": accepted})
    plain = whole_match.get("/api/matches/acacias-2026-final/events", headers={"accept-encoding": "identity"}).content
    assert len(plain) > 8192 and headers.get("content-encoding") == coding
    assert {"br": brotli.decompress, "gzip": gzip.decompress, None: bytes}[coding](body) == plain
    if coding == "br":  # a tenth fewer bytes on a weak signal than gzip sent
        assert len(body) < 0.95 * len(wire(whole_match, "/api/matches/acacias-2026-final/events",
                                           {"accept-encoding": "gzip"})[2])


def test_an_answer_under_8_kb_is_gzipped_where_the_browser_takes_gzip_and_brotlid_where_only_brotli(
        whole_match: TestClient) -> None:
    path = "/api/matches/acacias-2026-final"
    for accepted, coding, decode in (("gzip, br", "gzip", gzip.decompress), ("br", "br", brotli.decompress)):
        _, headers, body = wire(whole_match, path, {"accept-encoding": accepted})
        assert headers["content-encoding"] == coding and headers["vary"] == "Accept-Encoding"
        assert 1400 < len(decode(body)) < 8192 and json.loads(decode(body))["code"] == "acacias-2026-final"


@pytest.mark.parametrize("path", ["/api/rules", assets().url("style.css")])
def test_a_copy_is_asked_again_by_a_weak_etag_or_any(client: TestClient, path: str) -> None:
    """A proxy that compresses weakens the ETag it passes on; If-None-Match compares weakly (RFC 9110, 13.1.2)."""
    etag = client.get(path, headers=BROWSER).headers["etag"]
    for held in (f"W/{etag}", "*", f'"other", W/{etag}'):
        assert client.get(path, headers={**BROWSER, "if-none-match": held}).status_code == 304, held
    assert client.get(path, headers={**BROWSER, "if-none-match": 'W/"other"'}).status_code == 200


@pytest.mark.parametrize(("path", "made"), [("/api/rules", rules_json), ("/api/event-types", event_forms)])
def test_a_reference_answer_is_compressed_ahead_and_asked_again_by_its_etag(
        client: TestClient, path: str, made: Callable[[], object]) -> None:
    _, headers, body = wire(client, path)
    assert headers["content-encoding"] == "br" and headers["content-type"] == "application/json"
    assert json.loads(brotli.decompress(body)) == json.loads(json.dumps(made()))
    assert headers["cache-control"] == "no-cache"
    again = client.get(path, headers={**BROWSER, "if-none-match": headers["etag"]})
    assert again.status_code == 304 and again.content == b""
    assert client.get(path, headers={"accept-encoding": "identity"}).json() == json.loads(json.dumps(made()))


@pytest.mark.parametrize("path", ["/api/rules", "/api/event-types", assets().url(bundle_module("console.mjs"))])
def test_an_answer_compressed_ahead_says_vary_accept_encoding_once_in_any_coding(client: TestClient, path: str) -> None:
    """Sent as it is, it said it twice (`Accept-Encoding, Accept-Encoding`): its own, and the compression's on its
    way out."""
    for accepted in (None, "gzip"):
        request = client.build_request("GET", path)
        if accepted is None:
            del request.headers["accept-encoding"]
        else:
            request.headers["accept-encoding"] = accepted
        answer = client.send(request)
        assert answer.headers.get("content-encoding") == accepted
        assert [value for name, value in answer.headers.raw if name.lower() == b"vary"] == [b"Accept-Encoding"]
