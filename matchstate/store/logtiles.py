"""The league log as C2SP tlog-tiles static files (:mod:`matchstate.tlog.tiles`), written by ``matchstate archive
--season``: its latest cosigned checkpoint (else its latest signed one), the tiles of that tree and its leaves."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import select

from ..errors import MatchstateError
from ..models import LogLeafRow
from ..tlog import tiles
from ..tlog.checkpoint import Checkpoint
from ..tlog.note import Note
from . import cosignatures
from .leaguelog import StoredTree

if TYPE_CHECKING:
    from .facade import Store


def write_tiles(store: Store, folder: Path) -> int:
    """Write the league log's tiles into ``folder``; the number of files written."""
    kept = cosignatures.latest(store.database)
    with store.database.transaction() as connection:
        checkpoint = kept[1] if kept is not None else store.log.head(connection)[2]
        if checkpoint is None:
            raise MatchstateError("the league log has no checkpoint yet: there are no tiles to write")
        size = Checkpoint.from_text(Note.parse(checkpoint).text).size
        entries = [body.encode("utf-8") for body in connection.execute(
            select(LogLeafRow.body).where(LogLeafRow.idx < size).order_by(LogLeafRow.idx)).scalars()]
        return tiles.write(folder, checkpoint, StoredTree(store.log, connection), entries)
