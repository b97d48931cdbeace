"""scoring seats: who holds each match's seat, the clock checks a seat's timer logged, events handed to review

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-05

One row per match whose seat a console holds (its device id and label, when it took the seat and was last
heard from), and one per clock check a seat's console logged by its timer (the event's id and the seconds
since the window opened), and the events a console without the seat held offline and handed to the review
as they were logged. None is part of a match's log. The seats are operational, and the downgrade drops them;
the events handed to the review are stored nowhere else, and the timer's marks say which clock checks a timer
logged, so the downgrade asks first (`-x allow-drop=yes`) where it would drop one.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

from matchstate.store.database import require_drop_allowed

revision: str = "0010"
down_revision: str | None = "0009"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "seats",
        sa.Column("code", sa.String(64), nullable=False),
        sa.Column("device", sa.String(64), nullable=False),
        sa.Column("label", sa.String(80), nullable=False),
        sa.Column("taken_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("heard_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("code", name="pk_seats"),
    )
    op.create_table(
        "timer_ticks",
        sa.Column("code", sa.String(64), nullable=False),
        sa.Column("event_id", sa.String(64), nullable=False),
        sa.Column("device", sa.String(64), nullable=False),
        sa.Column("elapsed", sa.Float(), nullable=False),
        sa.PrimaryKeyConstraint("code", "event_id", name="pk_timer_ticks"),
    )
    op.create_table(
        "handed_events",
        sa.Column("code", sa.String(64), nullable=False),
        sa.Column("event_id", sa.String(64), nullable=False),
        sa.Column("device", sa.String(64), nullable=False),
        sa.Column("label", sa.String(80), nullable=False),
        sa.Column("event", sa.JSON(), nullable=False),
        sa.Column("handed_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("code", "event_id", name="pk_handed_events"),
    )


def downgrade() -> None:
    held = [what for table, what in (("handed_events", "the events consoles handed to the review"),
                                     ("timer_ticks", "the marks of the clock checks a seat's timer logged"))
            if op.get_bind().execute(sa.text(f"SELECT count(*) FROM {table}")).scalar_one()]
    if held:  # asked only where one is lost
        require_drop_allowed(" and ".join(held))
    op.drop_table("handed_events")
    op.drop_table("timer_ticks")
    op.drop_table("seats")
