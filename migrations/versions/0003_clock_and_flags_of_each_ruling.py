"""the clock and flags of each ruling

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01

Log format 1.1 gives each event the match clock right after it and its flags, kept as given at
the time, like its ruling. Events stored before this revision keep null: nothing recorded is
rewritten, and `verify` checks a clock and flags only where they were stored.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from matchstate.store.database import require_drop_allowed

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("rulings") as batch:
        batch.add_column(sa.Column("clock", sa.JSON(none_as_null=True), nullable=True))
        batch.add_column(sa.Column("flags", sa.JSON(none_as_null=True), nullable=True))


def downgrade() -> None:
    require_drop_allowed("the clock and flags stored with each ruling")
    with op.batch_alter_table("rulings") as batch:
        batch.drop_column("flags")
        batch.drop_column("clock")
