"""the kept statistics count a team's and a player's matches from the first chukker

Revision ID: 0017
Revises: 0016
Create Date: 2026-12-07

A statistics line's `matches` counted every match its team was named in, a tournament's fixture opened ahead and
not yet played among them, so a team had played a match before its first chukker. They count from the match's
first chukker now (matchstate/records/stats.py). The lines kept so far were counted the other way: they and their
marks are dropped, and the first read after upgrading (or `matchstate stats rebuild`) counts every match again, as
`verify` would otherwise find them no recount. Nothing recorded is in these tables: the downgrade drops them too,
for the code before to count them its way.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0017"
down_revision: str | None = "0016"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.execute(sa.text("DELETE FROM stat_lines"))
    op.execute(sa.text("DELETE FROM stat_marks"))


def downgrade() -> None:
    op.execute(sa.text("DELETE FROM stat_lines"))
    op.execute(sa.text("DELETE FROM stat_marks"))
