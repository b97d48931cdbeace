"""the match list in SQL: each match's standing, day and folded team names, and the list's indexes

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01

`GET /api/matches` filters by team, date, standing and state, sorts and pages in the query. The
columns are the engine's, like the rest of the match's head: the standing (`scheduled`, `in_play`,
`finished`) changes with each append; the day (the match.start's `at` as written) and each team's
name as search compares it (case folded, accents dropped) are set at creation. The matches stored
before are replayed here once to fill them in: nothing recorded changes, and `verify` checks the
columns against the replay as it checks the rest of the head.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

COLUMNS = ("status", "day", "team_1", "team_2")


def upgrade() -> None:
    with op.batch_alter_table("matches") as batch:
        batch.add_column(sa.Column("status", sa.String(16), nullable=True))
        batch.add_column(sa.Column("day", sa.String(10), nullable=True))
        batch.add_column(sa.Column("team_1", sa.Text(), nullable=True))
        batch.add_column(sa.Column("team_2", sa.Text(), nullable=True))
        batch.create_index("ix_matches_created_code", ["created", "code"])
        batch.create_index("ix_matches_status_created", ["status", "created"])
        batch.create_index("ix_matches_day", ["day"])
    _fill_in()


def _fill_in() -> None:
    from matchstate.engine import Match
    from matchstate.log import parse_line
    from matchstate.store.sql import listing_columns

    connection = op.get_bind()
    matches = sa.table("matches", sa.column("id"), *(sa.column(name) for name in COLUMNS))
    events = sa.table("events", sa.column("match_id"), sa.column("seq"), sa.column("raw"))
    for (match_id,) in connection.execute(sa.select(matches.c.id)).all():
        match = Match()
        for (raw,) in connection.execute(sa.select(events.c.raw).where(events.c.match_id == match_id)
                                         .order_by(events.c.seq)):
            match.feed(parse_line(raw))
        if match.seq:
            connection.execute(sa.update(matches).where(matches.c.id == match_id).values(listing_columns(match)))


def downgrade() -> None:
    # Nothing recorded is dropped: the columns are the replay's, and upgrading fills them in again.
    with op.batch_alter_table("matches") as batch:
        batch.drop_index("ix_matches_day")
        batch.drop_index("ix_matches_status_created")
        batch.drop_index("ix_matches_created_code")
        for name in reversed(COLUMNS):
            batch.drop_column(name)
