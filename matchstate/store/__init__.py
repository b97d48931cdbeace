"""The match store: each match's events as an append-only, hash-chained log, with the engine's rulings.

Every event is checked by the engine before it is written, and kept exactly as received beside its
link in the match's chain. The package, by idea:

- :mod:`~matchstate.store.chain`: canonical JSON and the hashes, the tamper contract;
- :mod:`~matchstate.store.database`: which database, durable transactions, the schema's migrations;
- :mod:`~matchstate.store.sql`: what the rows hold and the statements that read them;
- :mod:`~matchstate.store.dialects`: the statements that differ by database, one class per database;
- :mod:`~matchstate.store.writer`: the write steps a live append, a new match and an import share;
- :mod:`~matchstate.store.commits`: group commit, the appends waiting at one moment in one transaction;
- :mod:`~matchstate.store.cache`: one engine per recently used match, fed up to its stored head;
- :mod:`~matchstate.store.snapshot`: :class:`Snapshot`, the frozen match a caller reads;
- :mod:`~matchstate.store.verify`: the pure checks of stored rows against the chain and a replay;
- :mod:`~matchstate.store.secretfiles`: the store's secret and signing key, files outside the database;
- :mod:`~matchstate.store.seals`: the secret's HMACs of heads, keys and acts;
- :mod:`~matchstate.store.acts`: the league's acts (matches created and removed, keys), a sealed chain;
- :mod:`~matchstate.store.keys`: access keys, kept hashed, and the role a key holds;
- :mod:`~matchstate.store.receipts`: the signed receipt of each append;
- :mod:`~matchstate.store.incoming`: an event as received and the rows it becomes;
- :mod:`~matchstate.store.importing`: a whole log imported in batches, all or nothing;
- :mod:`~matchstate.store.results`: what the store hands back (:class:`StoredEvent`, :class:`Appended`...);
- :mod:`~matchstate.store.facade`: :class:`Store`, which puts them together.

The tables are SQLAlchemy models in :mod:`matchstate.models`; the Alembic migrations are in ``migrations/``.
"""

from .acts import Act
from .chain import GENESIS, canonical, chain_hash, sealed
from .database import MIGRATIONS, database_url, make_engine
from .facade import Store
from .importing import Also
from .keys import LEAGUE, OFFICIAL, ROLES, SCORER, KeyCheck, hash_key, new_key
from .receipts import Receipt
from .results import SORTS, Appended, MatchQuery, StoredEvent, Summary, Unreadable
from .snapshot import Snapshot
from .verify import Problem, ReceiptReport

__all__ = [
    "GENESIS",
    "LEAGUE",
    "MIGRATIONS",
    "OFFICIAL",
    "ROLES",
    "SCORER",
    "SORTS",
    "Act",
    "Also",
    "Appended",
    "KeyCheck",
    "MatchQuery",
    "Problem",
    "Receipt",
    "ReceiptReport",
    "Snapshot",
    "Store",
    "StoredEvent",
    "Summary",
    "Unreadable",
    "canonical",
    "chain_hash",
    "database_url",
    "hash_key",
    "make_engine",
    "new_key",
    "sealed",
]
