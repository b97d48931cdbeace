"""the chain version of each event: RFC 8785 canonical JSON for the rows written from now on

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04

An event's hash covers the canonical JSON of the event with the server's facts about it
(matchstate/store/chain.py). Rows written before this revision used Python's sorted-key JSON (chain
version 1); rows written after it use RFC 8785 (version 2), which any JCS verifier recomputes. Each row
records its version, so every chain written before keeps verifying as it was. Where any row is of version 2
the downgrade asks first (`-x allow-drop=yes`): such a row that holds a float or a key outside the Basic
Multilingual Plane would no longer verify once its version is forgotten.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from matchstate.store.database import require_drop_allowed

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.add_column(sa.Column("chain_version", sa.SmallInteger(), server_default=sa.text("1"), nullable=False))


def downgrade() -> None:
    newer = op.get_bind().execute(sa.text("SELECT count(*) FROM events WHERE chain_version <> 1")).scalar_one()
    if newer:
        require_drop_allowed(f"the chain version of {newer} events hashed as RFC 8785")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("chain_version")
