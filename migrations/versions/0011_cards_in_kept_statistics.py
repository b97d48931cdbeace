"""cards in the kept statistics: each line's yellow and red cards

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-05

Two counts beside the others of a statistics line (matchstate/store/statistics.py). The lines kept so far
were counted without cards: they and their marks are dropped (so the columns need no default), and the
first read after upgrading (or `matchstate stats rebuild`) counts every match again. Nothing recorded is
in these tables: the downgrade drops the columns without asking.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0011"
down_revision: str | None = "0010"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

CARDS = ("yellow_cards", "red_cards")


def upgrade() -> None:
    op.execute(sa.text("DELETE FROM stat_lines"))
    op.execute(sa.text("DELETE FROM stat_marks"))
    with op.batch_alter_table("stat_lines") as batch:
        for name in CARDS:
            batch.add_column(sa.Column(name, sa.Integer(), nullable=False))


def downgrade() -> None:
    with op.batch_alter_table("stat_lines") as batch:
        for name in CARDS:
            batch.drop_column(name)
