"""The match store: each match's events as an append-only, hash-chained log, with the engine's rulings.

Every event is checked by the engine before it is written, and kept exactly as received beside its
link in the match's chain. The package, by idea:

- :mod:`~matchstate.store.chain`: canonical JSON and the hashes, the tamper contract;
- :mod:`~matchstate.store.database`: which database, durable transactions, the schema's migrations;
- :mod:`~matchstate.store.sql`: what the rows hold and the statements that read and write them;
- :mod:`~matchstate.store.cache`: one engine per recently used match, fed up to its stored head;
- :mod:`~matchstate.store.snapshot`: :class:`Snapshot`, the frozen match a caller reads;
- :mod:`~matchstate.store.verify`: the pure checks of stored rows against the chain and a replay;
- :mod:`~matchstate.store.facade`: :class:`Store`, which puts them together.

The tables are SQLAlchemy models in :mod:`matchstate.models`; the Alembic migrations are in ``migrations/``.
"""

from .chain import GENESIS, canonical, chain_hash, sealed
from .database import MIGRATIONS, database_url, make_engine
from .facade import ROLES, Appended, Store, StoredEvent, Summary
from .snapshot import Snapshot
from .verify import Problem

__all__ = [
    "GENESIS",
    "MIGRATIONS",
    "ROLES",
    "Appended",
    "Problem",
    "Snapshot",
    "Store",
    "StoredEvent",
    "Summary",
    "canonical",
    "chain_hash",
    "database_url",
    "make_engine",
    "sealed",
]
