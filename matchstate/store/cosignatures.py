"""The league log's cosigned checkpoints (table ``log_cosigned``): each checkpoint that met the witness policy's
quorum, as its signed note with the witnesses' cosignatures, kept by tree size."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import select
from sqlalchemy.dialects import postgresql, sqlite

from ..models import CosignedRow
from .database import Database


def keep(database: Database, size: int, note: str, at: datetime) -> None:
    """Keep ``note``, the cosigned checkpoint of ``size`` leaves (a second one of that size is not kept: any holds)."""
    insert = postgresql.insert if database.engine.dialect.name == "postgresql" else sqlite.insert
    with database.transaction(write=True) as connection:
        connection.execute(insert(CosignedRow).values(size=size, checkpoint=note, cosigned_at=at)
                           .on_conflict_do_nothing(index_elements=[CosignedRow.size]))


def latest(database: Database) -> tuple[int, str] | None:
    """The size and note of the largest cosigned checkpoint kept; None where none is."""
    with database.transaction() as connection:
        row = connection.execute(select(CosignedRow.size, CosignedRow.checkpoint)
                                 .order_by(CosignedRow.size.desc()).limit(1)).first()
    return None if row is None else (row.size, row.checkpoint)
