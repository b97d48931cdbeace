"""kept statistics: each match's statistics lines and how far its log is counted

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04

The statistics of a season are summed from these rows instead of recounted from every log on every
request (matchstate/store/statistics.py). A match's lines are counted from its log up to its mark; a read
counts again the matches whose log has grown since. Nothing recorded is in these tables: the downgrade
drops them without asking, and the first read after upgrading again (or `matchstate stats rebuild`)
counts every match.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

PENALTIES = ("1", "2", "3", "4", "5a", "5b", "6")
COUNTS = ("matches", "won", "field_goals", "penalty_goals", *(f"penalties_{p}" for p in PENALTIES),
          *(f"converted_{p}" for p in PENALTIES), "knockins", "fouls_against")


def upgrade() -> None:
    op.create_table(
        "stat_marks",
        sa.Column("match_id", sa.Integer(), nullable=False, autoincrement=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("event", sa.Text(), nullable=False),
        sa.Column("event_key", sa.Text(), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        sa.Column("finished", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_stat_marks_match_id_matches",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", name="pk_stat_marks"),
    )
    op.create_index("ix_stat_marks_event_key_day", "stat_marks", ["event_key", "day"])
    op.create_index("ix_stat_marks_day", "stat_marks", ["day"])
    op.create_table(
        "stat_lines",
        sa.Column("match_id", sa.Integer(), nullable=False, autoincrement=False),
        sa.Column("team", sa.Text(), nullable=False),
        sa.Column("player", sa.Text(), nullable=False),
        sa.Column("team_key", sa.Text(), nullable=False),
        sa.Column("player_key", sa.Text(), nullable=False),
        sa.Column("event_key", sa.Text(), nullable=False),
        sa.Column("day", sa.String(10), nullable=False),
        *(sa.Column(name, sa.Integer(), nullable=False) for name in COUNTS),
        sa.ForeignKeyConstraint(["match_id"], ["matches.id"], name="fk_stat_lines_match_id_matches",
                                ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("match_id", "team", "player", name="pk_stat_lines"),
    )
    op.create_index("ix_stat_lines_line", "stat_lines", ["team_key", "team", "player_key", "player"])


def downgrade() -> None:
    op.drop_index("ix_stat_lines_line", "stat_lines")
    op.drop_table("stat_lines")
    op.drop_index("ix_stat_marks_day", "stat_marks")
    op.drop_index("ix_stat_marks_event_key_day", "stat_marks")
    op.drop_table("stat_marks")
