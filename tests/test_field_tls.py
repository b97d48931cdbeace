"""`matchstate serve --tls` as an operator starts it on the field's network: the address it prints for the tablets'
setup page is one the server answers to, and its certificate covers the address it is bound to."""

from __future__ import annotations

import http.client
import re
import ssl
from pathlib import Path

import pytest

from matchstate.store import Store
from matchstate.web.process import ServerProcess
from matchstate.web.tls import TlsFiles

ADDRESS = "127.0.0.3"  # a field's address of the laptop: not 127.0.0.1


def _get(port: int, host: str, path: str, ca: Path, check_name: bool) -> http.client.HTTPResponse:
    """GET ``path`` from the server on ADDRESS, its certificate checked against the laptop's CA ``ca`` (and for the
    name ADDRESS, with ``check_name``), asked for by the host name ``host``."""
    context = ssl.create_default_context(cafile=str(ca))
    context.check_hostname = check_name
    connection = http.client.HTTPSConnection(ADDRESS, port, context=context, timeout=10)
    connection.request("GET", path, headers={"Host": f"{host}:{port}"})
    return connection.getresponse()


@pytest.mark.parametrize(("named", "shown"), [(["--tls-name", "pitch.lan"], "pitch.lan"), ([], ADDRESS)])
def test_the_setup_address_serve_prints_is_answered_and_the_certificate_covers_the_bound_address(
        tmp_path: Path, named: list[str], shown: str) -> None:
    """It printed the machine's own host name ("open https://vm:8203/setup/tablet"), which the allowed hosts
    given refused with 400 (and, with no name given, could print localhost: the tablet itself); and the
    certificate left out the address the server was bound to."""
    url = f"sqlite:///{tmp_path / 'field.db'}"
    store = Store(url)
    store.upgrade()
    store.close()
    log = tmp_path / "server.log"
    server = ServerProcess(url, log=log, https=True, options=[
        "--host", ADDRESS, "--tls", *named, "--allowed-hosts", f"pitch.lan,{ADDRESS},localhost"])
    server.base = f"https://{ADDRESS}:{server.port}"
    server.start()
    try:
        printed = re.search(r"open https://([^/]+)/setup/tablet", log.read_text())
        assert printed is not None, log.read_text()
        host, _, port = printed.group(1).rpartition(":")
        assert (host, int(port)) == (shown, server.port)
        ca = TlsFiles(tmp_path / "field.db.secret").ca_cert
        assert _get(server.port, host, "/setup/tablet", ca, check_name=False).status == 200
        assert _get(server.port, ADDRESS, "/healthz", ca, check_name=True).status == 200  # the bound address, named
    finally:
        server.stop()
