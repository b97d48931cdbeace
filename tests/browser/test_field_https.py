"""On the field: a tablet reaches the laptop by a name that is not localhost. Over HTTPS with the laptop's own
certificate authority (``serve --tls``) the console is a secure context, its service worker runs, and a
reload with the server down opens it with its outbox; over plain HTTP the page says it will not.

The browser maps ``pitch.test`` to 127.0.0.1 (``--host-resolver-rules``) and trusts the server's key as a
tablet that installed the CA would (``--ignore-certificate-errors-spki-list``, which Chromium counts as
secure, unlike ignoring certificate errors altogether)."""

from __future__ import annotations

import base64
import hashlib
import ssl
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import serialization

from browser.browsing import (
    NARROW_PHONE,
    TABLET,
    TIMEOUT_MS,
    Console,
    create,
    league_store,
    wait_until,
    wait_until_kept,
)
from browser.conftest import ARGS, CHROMIUM, require_browser, watch
from matchstate.web.process import ServerProcess
from matchstate.web.tls import TlsFiles, ca_fingerprint

NAME = "pitch.test"


def _spki_hash(pem: bytes) -> str:
    """The base64 SHA-256 of a certificate's public key, as Chromium's SPKI list takes it."""
    key = x509.load_pem_x509_certificate(pem).public_key()
    der = key.public_bytes(serialization.Encoding.DER, serialization.PublicFormat.SubjectPublicKeyInfo)
    return base64.b64encode(hashlib.sha256(der).digest()).decode()


@pytest.fixture
def chromium() -> Iterator[Any]:
    """A way to launch Chromium with more arguments (each test launches its own, after its server runs)."""
    require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched: list[Any] = []

        def launch(*more: str) -> Any:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=[*ARGS, *more])
            launched.append(browser)
            return browser

        yield launch
        for browser in launched:
            browser.close()


@pytest.fixture
def trusting_ca() -> Iterator[list[Path]]:
    """Python's own requests (making the match) trust the CA put in the list, as a tablet would."""
    cas: list[Path] = []
    before = urllib.request._opener  # type: ignore[attr-defined]

    class Trusting(urllib.request.HTTPSHandler):
        def https_open(self, request: Any) -> Any:
            context = ssl.create_default_context(cafile=str(cas[0]))
            return self.do_open(urllib.request.http.client.HTTPSConnection, request,  # type: ignore[attr-defined]
                                context=context)

    urllib.request.install_opener(urllib.request.build_opener(Trusting()))
    yield cas
    urllib.request._opener = before  # type: ignore[attr-defined]


def _tablet(browser: Any) -> Any:
    page = browser.new_context(viewport=TABLET).new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return watch(page)


def test_over_https_by_a_field_name_the_console_reloads_offline_with_its_outbox(
        tmp_path: Path, chromium: Any, trusting_ca: list[Path]) -> None:
    url = f"sqlite:///{tmp_path / 'field.db'}"
    league_store(url)
    server = ServerProcess(url, log=tmp_path / "server.log", https=True, options=["--tls", "--tls-name", NAME])
    server.start()
    try:
        files = TlsFiles(tmp_path / "field.db.secret")
        for path in (files.ca_cert, files.ca_key, files.server_cert, files.server_key):
            assert path.stat().st_mode & 0o777 == 0o600, path
        trusting_ca.append(files.ca_cert)
        keys = create(server, "field-1")  # over HTTPS, checked against the laptop's CA

        browser = chromium(f"--host-resolver-rules=MAP {NAME} 127.0.0.1",
                           f"--ignore-certificate-errors-spki-list={_spki_hash(files.server_cert.read_bytes())}")
        page = _tablet(browser)
        field = ServerProcess(url, port=server.port)
        field.base = f"https://{NAME}:{server.port}"
        console = Console(page, "field-1").open(field, keys["scorer_key"])
        assert page.evaluate("window.isSecureContext") is True
        assert page.locator("#insecure").is_hidden()
        wait_until(page, "async () => (await navigator.serviceWorker.getRegistrations()).length === 1")
        wait_until_kept(page)
        console.click("penalty.award", penalty="4", to="Blue")
        page.wait_for_selector("#freehit >> text=Penalty 4 to Blue, 60 yards from goal")
        page.wait_for_selector(".banner.ok")

        server.stop()
        page.wait_for_selector(".banner.offline", timeout=60_000)
        console.click("play")
        page.reload()
        page.wait_for_selector("#console.ready")
        assert "This site can" not in page.content()
        assert page.locator("#recent li.pending").count() == 1
        page.wait_for_selector(".banner.offline >> text=1 event kept on this device")

        # The setup page, shown by the laptop, gives the tablet the CA and its fingerprint.
        server.start()
        setup = _tablet(browser)
        setup.goto(f"https://{NAME}:{server.port}/setup/tablet")
        assert setup.inner_text("#fingerprint") == ca_fingerprint(files.ca_cert.read_bytes())
        assert setup.locator("#qr svg").count() == 1
        assert setup.inner_text("#qr figcaption") == f"https://{NAME}:{server.port}/setup/matchstate-ca.crt"
        assert setup.locator("text=Certificate Trust Settings").count() == 1
        ca = setup.evaluate("async (url) => (await fetch(url)).text()", "/setup/matchstate-ca.crt")
        assert ca == files.ca_cert.read_text()
        setup.click("#lang")
        setup.wait_for_selector("text=Ajustes de confianza de certificados")
        assert not setup.errors  # (the console, while the server was down, failed to reach it: as it should)
    finally:
        server.stop()


def test_over_plain_http_by_a_field_name_the_pages_warn_that_offline_reload_needs_https(
        tmp_path: Path, chromium: Any) -> None:
    url = f"sqlite:///{tmp_path / 'plain.db'}"
    league_store(url)
    # The name the tablets reach the laptop by is one it answers to (else --allowed-hosts refuses it: rebinding).
    server = ServerProcess(url, log=tmp_path / "server.log", options=["--allowed-hosts", f"{NAME},127.0.0.1"])
    server.start()
    try:
        browser = chromium(f"--host-resolver-rules=MAP {NAME} 127.0.0.1")
        page = _tablet(browser)
        page.goto(f"http://{NAME}:{server.port}/")
        assert page.evaluate("window.isSecureContext") is False
        page.wait_for_selector("#insecure >> text=it will not open offline if the server stops")
        page.click("#lang")
        page.wait_for_selector("#insecure >> text=no abrirá sin conexión si el servidor se detiene")
        # On the laptop itself (a secure context even over HTTP) there is nothing to warn of.
        local = _tablet(browser)
        local.goto(f"{server.base}/")
        assert local.evaluate("window.isSecureContext") is True
        assert local.locator("#insecure").is_hidden()
    finally:
        server.stop()


@pytest.mark.parametrize("failing", ["/sw.js", "/api/event-types", None],
                         ids=["worker-not-fetched", "worker-not-installed", "no-workers-here"])
def test_where_no_service_worker_can_be_installed_the_console_says_it_will_not_open_offline(
        server: ServerProcess, new_page: Callable[..., Any], failing: str | None) -> None:
    """As a tablet that does not trust the server's certificate (told to go on anyway) gets no worker, or one
    whose files the device cannot keep gets none installed: the worker's script, or a file it keeps, fails; or a
    browser that runs no workers in this window (some private windows) has no ``navigator.serviceWorker``."""
    keys = create(server, "unkept-1")
    page = new_page(viewport=TABLET)
    if failing is None:
        page.context.add_init_script("delete Navigator.prototype.serviceWorker")
    else:
        page.context.route(f"**{failing}", lambda route: route.fulfill(status=404, body="not here"))
    Console(page, "unkept-1").open(server, keys["scorer_key"])
    page.wait_for_selector("#unkept >> text=if the server stops, a reload will not open it")
    assert page.locator("#insecure").is_hidden()
    page.click("#lang")
    page.wait_for_selector("#unkept >> text=si el servidor se detiene, al recargarla no se abrirá")

    # Where the worker installs, nothing is said.
    kept = new_page(viewport=TABLET)
    Console(kept, "unkept-1").open(server, keys["scorer_key"])
    wait_until_kept(kept)
    assert kept.locator("#unkept").is_hidden()
    assert not kept.errors


def wait_for_route(page: Any, routed: list[Any], count: int) -> None:
    """Wait until ``routed`` (what a route's handler appends to) holds ``count``: Playwright calls the handler
    as the test waits on the page."""
    deadline = time.monotonic() + TIMEOUT_MS / 1000
    while len(routed) < count:
        assert time.monotonic() < deadline, f"{len(routed)} requests routed, not {count}"
        page.wait_for_timeout(50)


class HeldInstall:
    """The service worker's install held back, as a weak signal holds it: the first fetch of a file it keeps
    as it installs (the scoreboard of every match) waits until :meth:`release`."""

    def __init__(self, page: Any) -> None:
        self.page = page
        self.held: list[Any] = []
        page.context.route("**/scoreboard", self._hold)

    def _hold(self, route: Any) -> None:
        if self.held:
            route.continue_()
        else:
            self.held.append(route)

    def release(self) -> None:
        wait_for_route(self.page, self.held, 1)
        assert self.page.evaluate("async () => (await caches.match(location.pathname)) === undefined")
        self.held[0].continue_()


def test_a_console_says_it_has_no_copy_on_this_device_until_the_service_worker_has_kept_it(
        server: ServerProcess, new_page: Callable[..., Any]) -> None:
    """A first visit: the worker installs (its files fetched, slowly on a weak signal), then keeps the page;
    until then a reload while the server does not answer would not open it, and the console's link banner says
    so, where it moves no button."""
    keys = create(server, "keeping-1")
    page = new_page(viewport=NARROW_PHONE)
    install = HeldInstall(page)
    Console(page, "keeping-1").open(server, keys["scorer_key"])
    fits = "banner => banner.scrollHeight <= banner.clientHeight"  # every word shows, on the narrowest phone
    page.wait_for_selector("#link >> text=Online. No copy on this device yet: a reload needs the server.")
    assert page.eval_on_selector("#link .banner", fits)
    page.click("#lang")
    page.wait_for_selector("#link >> text=En línea. Aún sin copia local: recargar requiere el servidor.")
    assert page.eval_on_selector("#link .banner", fits)
    install.release()
    page.wait_for_selector("#link >> text=En línea: todos los eventos registrados.")
    # Said only until the page is kept: at once, without waiting for it.
    assert page.evaluate("async () => (await caches.match(location.pathname)) !== undefined")
    assert page.locator("#keeping").count() == 0 and page.locator("#unkept").is_hidden()
    assert not page.errors


def test_the_records_page_says_it_has_no_copy_on_this_device_until_the_service_worker_has_kept_it(
        server: ServerProcess, new_page: Callable[..., Any]) -> None:
    """A page the worker keeps with no status line of its own says it in a banner, a screen reader's status."""
    page = new_page(viewport=TABLET)
    install = HeldInstall(page)
    page.goto(f"{server.base}/")
    page.wait_for_selector("[role=status] #keeping >> text=while this notice shows, if the server does not answer")
    page.click("#lang")
    page.wait_for_selector("#keeping >> text=mientras se vea este aviso, si la recarga y el servidor no responde")
    install.release()
    page.wait_for_selector("#keeping", state="hidden")
    assert page.evaluate("async () => (await caches.match(location.pathname)) !== undefined")
    assert page.locator("#unkept").is_hidden()
    assert not page.errors


def test_a_console_the_service_worker_could_not_keep_says_so_and_is_kept_once_the_server_answers(
        server: ServerProcess, new_page: Callable[..., Any]) -> None:
    """The worker installs, but its fetch of the page fails as it goes to keep it (the server had stopped a
    moment): the console goes on saying it has no copy, not that the device cannot keep one, and the page is
    asked for again until it is kept."""
    keys = create(server, "keeping-2")
    page = new_page(viewport=TABLET)
    fetched: list[str] = []
    down = [True]

    def the_worker_fails(route: Any) -> None:
        fetched.append(route.request.url)
        if len(fetched) == 1 or not down[0]:  # the page's own load, then the server back
            route.continue_()
        else:
            route.fulfill(status=503, body="down a moment")

    page.context.route("**/matches/keeping-2/console", the_worker_fails)
    Console(page, "keeping-2").open(server, keys["scorer_key"])
    wait_for_route(page, fetched, 3)  # the page, and the worker's fetches: as it activates, and as it is asked
    page.wait_for_selector("#link >> text=Online. No copy on this device yet: a reload needs the server.")
    assert page.locator("#unkept").is_hidden()
    down[0] = False
    page.wait_for_selector("#link >> text=Online: every event recorded.")
    assert page.evaluate("async () => (await caches.match(location.pathname)) !== undefined")
    assert page.locator("#unkept").is_hidden()
    assert not page.errors
