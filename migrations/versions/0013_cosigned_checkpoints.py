"""the league log's cosigned checkpoints: each one that met the witness policy's quorum, with its cosignatures

Revision ID: 0013
Revises: 0011
Create Date: 2026-12-04

`log_cosigned` keeps, by tree size, the league log's checkpoint as a signed note carrying the log's signature
and the witnesses' cosignatures (matchstate/web/witnessing.py writes it; matchstate/store/cosignatures.py reads
it). They are proofs others can check, not the log: the downgrade drops them, and asks first where any is kept.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from matchstate.store.database import require_drop_allowed

revision: str = "0013"
down_revision: str | None = "0011"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "log_cosigned",
        sa.Column("size", sa.BigInteger(), nullable=False, autoincrement=False),
        sa.Column("checkpoint", sa.Text(), nullable=False),
        sa.Column("cosigned_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("size", name="pk_log_cosigned"),
    )


def downgrade() -> None:
    if op.get_bind().execute(sa.text("SELECT count(*) FROM log_cosigned")).scalar_one():
        require_drop_allowed("the league log's cosigned checkpoints")
    op.drop_table("log_cosigned")
