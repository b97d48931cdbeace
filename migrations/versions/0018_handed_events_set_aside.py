"""an event handed to the review may be set aside

Revision ID: 0018
Revises: 0017
Create Date: 2026-12-07

An event a console handed to the review that the engine refuses (a goal for a team not in the match, say) stayed
listed for ever, and every console's banner said it waited for the official. The official may set it aside now:
when, and by which device (its id and the label it shows), is kept on its row, which the review and the seat's answer
then leave out. Nothing recorded in a match's log changes. The downgrade would list each one set aside as waiting
again, so it asks first (`-x allow-drop=yes`) where one is.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from matchstate.store.database import require_drop_allowed

revision: str = "0018"
down_revision: str | None = "0017"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("handed_events") as batch:
        batch.add_column(sa.Column("set_aside_at", sa.DateTime(timezone=True), nullable=True))
        batch.add_column(sa.Column("set_aside_device", sa.String(64), nullable=True))
        batch.add_column(sa.Column("set_aside_label", sa.String(80), nullable=True))


def downgrade() -> None:
    aside = "SELECT count(*) FROM handed_events WHERE set_aside_at IS NOT NULL"
    if op.get_bind().execute(sa.text(aside)).scalar_one():  # asked only where one is lost
        require_drop_allowed("the record of the events handed to the review that an official set aside")
    with op.batch_alter_table("handed_events") as batch:
        batch.drop_column("set_aside_label")
        batch.drop_column("set_aside_device")
        batch.drop_column("set_aside_at")
