"""tournaments: a version, one on with each change, so that two desks never overwrite each other's

Revision ID: 0015
Revises: 0014
Create Date: 2026-12-06

Each change of a tournament is stored only over the version it was made from (``UPDATE ... WHERE version =
N``): a desk that read the tournament before another desk stored it makes its change again on top of that one,
or, where its page asked for the version it shows, is refused (409) and reloads. A tournament stored before it
is at version 1. The downgrade drops the column alone: nothing the desk entered is lost.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0015"
down_revision: str | None = "0014"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.add_column(sa.Column("version", sa.Integer(), server_default=sa.text("1"), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("tournaments") as batch:
        batch.drop_column("version")
