"""the engine's checkpoints: a long match resumed from one instead of replayed from its start

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-02

A server that has not a match's engine in memory resumes it from the match's stored checkpoint and feeds
it the events after it, instead of replaying the whole match (matchstate/store/checkpoints.py). A
checkpoint is a cache, sealed with the store's secret and never trusted over the log: `verify` replays
the log. Nothing recorded is in this table, so the downgrade drops it without asking; upgrading again
starts without checkpoints, and the next append to each long match stores one.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "checkpoints",
        sa.Column("match_id", sa.Integer(), nullable=False, autoincrement=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("engine_version", sa.String(32), nullable=False),
        sa.Column("blob", sa.LargeBinary(), nullable=False),
        sa.Column("seal", sa.String(64), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_checkpoints_match_id_matches",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", name="pk_checkpoints"),
    )


def downgrade() -> None:
    op.drop_table("checkpoints")
