"""events handed to the review keep the order their console logged them in

Revision ID: 0019
Revises: 0018
Create Date: 2026-12-07

The review lists the events a console handed to it in the time their `at` names; where two name the same time (an
award and its whistle, logged by one tap), the order the console logged them in is the one that holds. It was not
kept, and they came back in the order of their ids (random): an official working down the list logged the award
before its whistle. `place` is each event's place among those handed to the match's review, in the order handed. A
row handed before has none, and keeps the order of its id. The downgrade forgets only that order.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0019"
down_revision: str | None = "0018"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("handed_events") as batch:
        batch.add_column(sa.Column("place", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("handed_events") as batch:
        batch.drop_column("place")
