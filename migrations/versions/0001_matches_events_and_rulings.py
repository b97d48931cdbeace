"""matches, events and rulings

Revision ID: 0001
Revises:
Create Date: 2026-11-30

Every constraint is named after matchstate.models.NAMING_CONVENTION, so later batch
migrations can find them by name on SQLite and PostgreSQL alike.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from matchstate.store.database import require_drop_allowed

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "matches",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=64), nullable=False),
        sa.Column("teams", sa.JSON(), nullable=False),
        sa.Column("conditions", sa.JSON(), nullable=False),
        sa.Column("created", sa.DateTime(timezone=True), nullable=False),
        sa.Column("scorer_key_hash", sa.String(length=128), nullable=True),
        sa.Column("official_key_hash", sa.String(length=128), nullable=True),
        sa.Column("last_seq", sa.Integer(), nullable=False),
        sa.Column("last_hash", sa.String(length=64), nullable=False),
        sa.Column("last_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("score", sa.JSON(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_matches")),
        sa.UniqueConstraint("code", name=op.f("uq_matches_code")),
    )
    op.create_table(
        "events",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("type", sa.String(length=32), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("raw", sa.Text(), nullable=False),
        sa.Column("device_id", sa.String(length=64), nullable=True),
        sa.Column("recorded_by", sa.Text(), nullable=True),
        sa.Column("role", sa.String(length=16), nullable=True),
        sa.Column("received_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("prev_hash", sa.String(length=64), nullable=False),
        sa.Column("hash", sa.String(length=64), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name=op.f("fk_events_match_id_matches")),
        sa.PrimaryKeyConstraint("match_id", "seq", name=op.f("pk_events")),
        sa.UniqueConstraint("match_id", "device_id", name=op.f("uq_events_match_id_device_id")),
    )
    op.create_table(
        "rulings",
        sa.Column("match_id", sa.Integer(), nullable=False),
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("ruling", sa.JSON(none_as_null=True), nullable=True),
        sa.Column("state", sa.String(length=16), nullable=False),
        sa.Column("engine_version", sa.String(length=32), nullable=False),
        sa.ForeignKeyConstraint(["match_id", "seq"], ["events.match_id", "events.seq"],
                                name=op.f("fk_rulings_match_id_seq_events")),
        sa.PrimaryKeyConstraint("match_id", "seq", name=op.f("pk_rulings")),
    )


def downgrade() -> None:
    require_drop_allowed("every match, event and ruling")
    op.drop_table("rulings")
    op.drop_table("events")
    op.drop_table("matches")
