"""an event's device id unique within its match where one is given, by a partial index

Revision ID: 0014
Revises: 0013
Create Date: 2026-12-05

The unique constraint on `events (match_id, device_id)` becomes a unique index on the rows that have a device id.
What it refuses is the same (two rows without one never clashed). What changes is what PostgreSQL may plan with
it: the check of each ruling's foreign key, `events (match_id, seq)`, is planned once per connection, and a plan
made while the table was small could take this index, read all of a match's events and filter on seq, so an
import beside live appends slowed batch by batch; a partial index serves no query that does not name a device
id. On SQLite the table is copied to drop the constraint (as 0007 did to add a column). Nothing recorded
changes: the downgrade puts the constraint back without asking.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0014"
down_revision: str | None = "0013"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NAME = "uq_events_match_id_device_id"
GIVEN = sa.text("device_id IS NOT NULL")


def upgrade() -> None:
    with op.batch_alter_table("events") as batch:
        batch.drop_constraint(NAME, type_="unique")
    op.create_index(NAME, "events", ["match_id", "device_id"], unique=True, sqlite_where=GIVEN,
                    postgresql_where=GIVEN)


def downgrade() -> None:
    op.drop_index(NAME, "events")
    with op.batch_alter_table("events") as batch:
        batch.create_unique_constraint(NAME, ["match_id", "device_id"])
