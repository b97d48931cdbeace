"""notify each append, for the live streams of every server process

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01

On PostgreSQL, a change to a match's head (an append) or the match's removal notifies the channel
`matchstate_` + md5 of the schema's name, with `[code, last_seq]` (`[code, null]` for a removal),
from the writing transaction itself: the notification goes out when it commits, and never for one
rolled back. Each server process listens (matchstate/web/watch.py). A match being imported is
no one's to see, and notifies nothing. SQLite has no notifications: nothing changes there.
"""

from collections.abc import Sequence

from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NOTIFY = """
CREATE FUNCTION matchstate_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF TG_OP = 'DELETE' THEN
        PERFORM pg_notify('matchstate_' || md5(TG_TABLE_SCHEMA), json_build_array(OLD.code, NULL)::text);
    ELSE
        PERFORM pg_notify('matchstate_' || md5(TG_TABLE_SCHEMA), json_build_array(NEW.code, NEW.last_seq)::text);
    END IF;
    RETURN NULL;
END
$$
"""


def upgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute(NOTIFY)
    op.execute("CREATE TRIGGER matchstate_appended AFTER UPDATE OF last_seq ON matches FOR EACH ROW "
               "WHEN (NEW.importing IS NULL AND NEW.last_seq <> OLD.last_seq) EXECUTE FUNCTION matchstate_notify()")
    op.execute("CREATE TRIGGER matchstate_removed AFTER DELETE ON matches FOR EACH ROW "
               "WHEN (OLD.importing IS NULL) EXECUTE FUNCTION matchstate_notify()")


def downgrade() -> None:
    if op.get_bind().dialect.name != "postgresql":
        return
    op.execute("DROP TRIGGER matchstate_removed ON matches")
    op.execute("DROP TRIGGER matchstate_appended ON matches")
    op.execute("DROP FUNCTION matchstate_notify()")
