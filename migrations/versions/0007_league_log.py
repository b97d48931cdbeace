"""the chain version of each event (RFC 8785 from now on), and the league log's tables

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-04

An event's hash covers the canonical JSON of the event with the server's facts about it
(matchstate/store/chain.py). Rows written before this revision used Python's sorted-key JSON (chain
version 1); rows written after it use RFC 8785 (version 2), which any JCS verifier recomputes. Each row
records its version, so every chain written before keeps verifying as it was. Where any row is of version 2
the downgrade asks first (`-x allow-drop=yes`): such a row that holds a float or a key outside the Basic
Multilingual Plane would no longer verify once its version is forgotten.

The league log (matchstate/store/leaguelog.py) is an RFC 6962 Merkle tree over every append, import and
act: `log_leaves` what each leaf commits to, `log_nodes` the hashes of its complete subtrees (for proofs),
`log_head` its one head row with the latest signed checkpoint. The upgrade starts it empty: the matches
stored before are in it from their next append on. Its downgrade drops it, and asks first.
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
    op.create_table(
        "log_leaves",
        sa.Column("idx", sa.BigInteger(), nullable=False, autoincrement=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("code", sa.String(64), nullable=True),
        sa.Column("seq", sa.Integer(), nullable=True),
        sa.Column("body", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("idx", name="pk_log_leaves"),
    )
    op.create_index("ix_log_leaves_code_seq", "log_leaves", ["code", "seq"])
    op.create_table(
        "log_nodes",
        sa.Column("level", sa.SmallInteger(), nullable=False, autoincrement=False),
        sa.Column("idx", sa.BigInteger(), nullable=False, autoincrement=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.PrimaryKeyConstraint("level", "idx", name="pk_log_nodes"),
    )
    op.create_table(
        "log_head",
        sa.Column("id", sa.Integer(), nullable=False, autoincrement=False),
        sa.Column("size", sa.BigInteger(), nullable=False),
        sa.Column("root", sa.String(64), nullable=False),
        sa.Column("frontier", sa.JSON(), nullable=False),
        sa.Column("checkpoint", sa.Text(), nullable=True),
        sa.PrimaryKeyConstraint("id", name="pk_log_head"),
    )


def downgrade() -> None:
    if op.get_bind().execute(sa.text("SELECT count(*) FROM log_leaves")).scalar_one():
        require_drop_allowed("the league log")
    op.drop_table("log_head")
    op.drop_table("log_nodes")
    op.drop_index("ix_log_leaves_code_seq", table_name="log_leaves")
    op.drop_table("log_leaves")
    newer = op.get_bind().execute(sa.text("SELECT count(*) FROM events WHERE chain_version <> 1")).scalar_one()
    if newer:
        require_drop_allowed(f"the chain version of {newer} events hashed as RFC 8785")
    with op.batch_alter_table("events") as batch:
        batch.drop_column("chain_version")
