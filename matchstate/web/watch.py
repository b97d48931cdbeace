"""Appends made through other server processes of the same database, told to this process's live streams.

Each process publishes its own appends to its streams as it makes them (see the append route). The
appends of the others it learns of here: on PostgreSQL, every change to a match's head notifies a
channel of its schema (a trigger, migration 0004, so the notification is sent by the append's own
commit); one connection per process listens on it, and reconnects if it drops. On SQLite (one host)
it asks the store for the last seq of the matches with open streams every :data:`POLL_SECONDS`, one
cheap read, and only while some stream is open. Either way the streams then get the stored events
they have not been sent, read from the store after the newest they hold, in order (the service's
``catch_up``); each stream skips what it has had and reads any gap itself, so each event reaches
each stream once.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging

import psycopg
from psycopg import sql

from .service import Service

POLL_SECONDS = 0.25  # SQLite: how often the matches with open streams are looked at
RETRY_SECONDS = 1.0  # PostgreSQL: how soon a dropped listening connection is made again
CHANNEL_PREFIX = "matchstate_"  # then the md5 of the schema's name, as the trigger of migration 0004 writes it
APPLICATION_NAME = "matchstate live"  # the listening connection, as pg_stat_activity names it

log = logging.getLogger(__name__)


def channel(schema: str) -> str:
    """The channel the appends to the matches of ``schema`` are notified on (short enough for any schema name)."""
    return CHANNEL_PREFIX + hashlib.md5(schema.encode()).hexdigest()


async def watch(service: Service) -> None:
    """Tell ``service``'s streams of every append made through another process, until cancelled."""
    database = service.store.database
    if not database.statements.notifies:
        while True:
            await asyncio.sleep(POLL_SECONDS)
            await service.catch_up_all()
    conninfo = database.url.set(drivername="postgresql").render_as_string(hide_password=False)
    while True:
        try:
            await _listen(service, conninfo)
        except (psycopg.Error, OSError) as err:
            log.warning("the live notifications' connection dropped (%s): again in %g s", err, RETRY_SECONDS)
        await asyncio.sleep(RETRY_SECONDS)


async def _listen(service: Service, conninfo: str) -> None:
    async with await psycopg.AsyncConnection.connect(conninfo, autocommit=True,
                                                     application_name=APPLICATION_NAME) as connection:
        schema = (await (await connection.execute("SELECT current_schema()")).fetchone() or ("public",))[0]
        await connection.execute(sql.SQL("LISTEN {}").format(sql.Identifier(channel(schema))))
        await service.catch_up_all()  # what was appended while no connection listened
        async for notice in connection.notifies():
            code, seq = json.loads(notice.payload)
            await service.catch_up(code, seq)
