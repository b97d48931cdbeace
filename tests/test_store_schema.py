"""The schema: the migrations build exactly the models, from an empty database, on SQLite and PostgreSQL."""

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from sqlalchemy import inspect

from matchstate.models import Base
from matchstate.store import MIGRATIONS, Store


def differences(store: Store) -> list:
    """What ``alembic check`` would find between the database and the models."""
    with store.engine.connect() as connection:
        return compare_metadata(MigrationContext.configure(connection), Base.metadata)


def test_upgrade_from_empty_to_head_builds_the_models(store_url):
    store = Store(store_url)
    assert not store.schema_is_current()
    store.upgrade()
    assert store.schema_is_current()
    assert differences(store) == []
    tables = inspect(store.engine)
    assert {"matches", "events", "rulings"} <= set(tables.get_table_names())
    assert [c["name"] for c in tables.get_unique_constraints("events")] == ["uq_events_match_id_device_id"]
    assert tables.get_pk_constraint("events")["name"] == "pk_events"  # named by the convention, on both engines
    assert {"scorer_key_hash", "official_key_hash"} <= {c["name"] for c in tables.get_columns("matches")}
    store.close()


def test_the_first_migration_goes_down_and_up_again(store):
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "base")
    assert not store.schema_is_current()
    assert set(inspect(store.engine).get_table_names()) <= {"alembic_version"}
    store.upgrade()
    assert differences(store) == []
