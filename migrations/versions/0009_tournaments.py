"""tournaments: the desk's draws, schedules and entered teams

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-04

One row per tournament: its slug, name and its document (conditions, teams with rosters, fixtures with the
codes of their matches). Standings and brackets are derived from the matches, never stored, so the
downgrade drops only what the desk entered: it asks first, as a downgrade that drops records does.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from matchstate.store.database import require_drop_allowed

revision: str = "0009"
down_revision: str | None = "0008"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(200), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("doc", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name="pk_tournaments"),
        sa.UniqueConstraint("slug", name="uq_tournaments_slug"),
    )


def downgrade() -> None:
    if op.get_bind().execute(sa.text("SELECT count(*) FROM tournaments")).scalar_one():  # asked only where one is lost
        require_drop_allowed("tournaments")
    op.drop_table("tournaments")
