"""A TCP proxy of the tests' own, on 127.0.0.1, that can fall silent: it stops forwarding in both directions
(holding what it reads, and the connections it accepts) without closing anything, as a stalled server or a
silent middlebox does; and forwards again when told. PostgreSQL itself is never stopped."""

from __future__ import annotations

import contextlib
import socket
import threading
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType

from sqlalchemy import create_engine, make_url


class SilentProxy:
    """Forwards 127.0.0.1:``port`` to ``upstream`` while :attr:`flowing` is set."""

    def __init__(self, upstream: tuple[str, int]) -> None:
        self.upstream = upstream
        self.flowing = threading.Event()
        self.flowing.set()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.port: int = self.listener.getsockname()[1]
        self._sockets: list[socket.socket] = []
        self._closed = False

    def __enter__(self) -> SilentProxy:
        threading.Thread(target=self._accept, daemon=True).start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        self._closed = True
        self.flowing.set()
        for sock in [self.listener, *self._sockets]:
            with contextlib.suppress(OSError):
                sock.close()

    def silence(self) -> None:
        self.flowing.clear()

    def resume(self) -> None:
        self.flowing.set()

    def _accept(self) -> None:
        while not self._closed:
            try:
                client, _ = self.listener.accept()
            except OSError:
                return
            threading.Thread(target=self._connect, args=(client,), daemon=True).start()

    def _connect(self, client: socket.socket) -> None:
        self._sockets.append(client)
        self.flowing.wait()  # a connection made while silent is held, never refused
        try:
            server = socket.create_connection(self.upstream)
        except OSError:
            client.close()
            return
        self._sockets.append(server)
        for source, target in ((client, server), (server, client)):
            threading.Thread(target=self._pump, args=(source, target), daemon=True).start()

    def _pump(self, source: socket.socket, target: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                self.flowing.wait()
                if self._closed:
                    break
                target.sendall(data)
        except OSError:
            pass
        for sock in (source, target):
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)


@contextmanager
def postgres_schema(server_url: str) -> Iterator[str]:
    """A PostgreSQL schema of the test's own on the server at ``server_url``: its URL (dropped afterwards)."""
    server = make_url(server_url)
    schema = f"test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(server)
    with admin.begin() as connection:
        connection.exec_driver_sql(f"CREATE SCHEMA {schema}")
    try:
        yield server.update_query_dict({"options": f"-csearch_path={schema}"}).render_as_string(hide_password=False)
    finally:
        with admin.begin() as connection:
            connection.exec_driver_sql(f"DROP SCHEMA {schema} CASCADE")
        admin.dispose()


def through(proxy: SilentProxy, url: str) -> str:
    """``url``, its host and port the proxy's."""
    return make_url(url).set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
