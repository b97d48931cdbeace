"""an index of the card events, for the discipline ledger

Revision ID: 0016
Revises: 0015
Create Date: 2026-12-06

The discipline ledger (who sits out of a match, which a console and a review ask as they open) read every event of
every match to find the cards: about 4 ms a match on SQLite, so half a minute at 10,000 matches. A partial index of
the events whose type is `card` finds them alone. Only an appended card writes to it. Nothing recorded changes.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0016"
down_revision: str | None = "0015"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NAME = "ix_events_cards"
CARD = sa.text("type = 'card'")


def upgrade() -> None:
    op.create_index(NAME, "events", ["match_id", "seq"], sqlite_where=CARD, postgresql_where=CARD)


def downgrade() -> None:
    op.drop_index(NAME, "events")
