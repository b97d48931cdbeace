"""keys, acts and seals

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01

The access keys move from two columns of `matches` into their own table, where each is kept
with the time it was issued and revoked; `acts` records, in a sealed chain, every match created
or removed and every key issued or revoked; `matches` gains its seal and, for an import being
written, `importing`. Nothing recorded changes: no event, ruling or hash is touched. The seals
themselves are written by `matchstate db upgrade` after this migration, with the store's secret,
which no migration has: so a database that holds matches is upgraded only by it.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import context, op

from matchstate.store.database import require_drop_allowed, require_sealing

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

LIVE = "revoked_at IS NULL"
LIVE_LEAGUE = "match_id IS NULL AND revoked_at IS NULL"


def upgrade() -> None:
    if not context.is_offline_mode() and op.get_bind().execute(sa.text("SELECT 1 FROM matches LIMIT 1")).first():
        require_sealing("matches")
    op.create_table(
        "keys",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("match_id", sa.Integer(), nullable=True),
        sa.Column("role", sa.String(length=16), nullable=False),
        sa.Column("key_hash", sa.String(length=128), nullable=False),
        sa.Column("issued_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("revoked_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("seal", sa.String(length=64), nullable=True),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name=op.f("fk_keys_match_id_matches")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_keys")),
    )
    op.create_index("ix_keys_key_hash", "keys", ["key_hash"])
    op.create_index("uq_keys_live_match_role", "keys", ["match_id", "role"], unique=True,
                    sqlite_where=sa.text(LIVE), postgresql_where=sa.text(LIVE))
    op.create_index("uq_keys_live_league", "keys", ["role"], unique=True,
                    sqlite_where=sa.text(LIVE_LEAGUE), postgresql_where=sa.text(LIVE_LEAGUE))
    op.create_table(
        "acts",
        sa.Column("seq", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("act", sa.String(length=16), nullable=False),
        sa.Column("code", sa.String(length=64), nullable=True),
        sa.Column("role", sa.String(length=16), nullable=True),
        sa.Column("key_hash", sa.String(length=128), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("recorded_by", sa.Text(), nullable=True),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("last_seq", sa.Integer(), nullable=True),
        sa.Column("last_hash", sa.String(length=64), nullable=True),
        sa.Column("seal", sa.String(length=64), nullable=False),
        sa.PrimaryKeyConstraint("seq", name=op.f("pk_acts")),
    )
    for role in ("scorer", "official"):
        op.execute(f"INSERT INTO keys (match_id, role, key_hash, issued_at) "
                   f"SELECT id, '{role}', {role}_key_hash, created FROM matches WHERE {role}_key_hash IS NOT NULL")
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("seal", sa.String(length=64), nullable=True))
        batch.add_column(sa.Column("acts_seq", sa.Integer(), nullable=True))
        batch.add_column(sa.Column("importing", sa.DateTime(timezone=True), nullable=True))
        batch.drop_column("scorer_key_hash")
        batch.drop_column("official_key_hash")


def downgrade() -> None:
    require_drop_allowed("the store's acts (its sealed record of matches created and removed, keys issued and "
                         "revoked), every revoked key and the seals")
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("scorer_key_hash", sa.String(length=128), nullable=True))
        batch.add_column(sa.Column("official_key_hash", sa.String(length=128), nullable=True))
    for role in ("scorer", "official"):
        op.execute(f"UPDATE matches SET {role}_key_hash = (SELECT key_hash FROM keys WHERE keys.match_id = "
                   f"matches.id AND keys.role = '{role}' AND keys.revoked_at IS NULL)")
    for table in ("rulings", "events", "keys"):  # an unfinished import: no one's match
        op.execute(f"DELETE FROM {table} WHERE match_id IN (SELECT id FROM matches WHERE importing IS NOT NULL)")
    op.execute("DELETE FROM matches WHERE importing IS NOT NULL")
    with op.batch_alter_table("matches") as batch:
        batch.drop_column("importing")
        batch.drop_column("acts_seq")
        batch.drop_column("seal")
    op.drop_table("acts")
    op.drop_index("uq_keys_live_league", table_name="keys")
    op.drop_index("uq_keys_live_match_role", table_name="keys")
    op.drop_index("ix_keys_key_hash", table_name="keys")
    op.drop_table("keys")
