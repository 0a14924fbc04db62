"""The shared PostgreSQL backend of a sharded bot (asyncpg): :class:`PostgresStorage`."""

from bot.storage.postgres.database import PgDatabase, identity_tables, pg_migrations, translate
from bot.storage.postgres.storage import PostgresStorage
from bot.storage.postgres.transaction import PostgresTransaction

__all__ = ["PgDatabase", "PostgresStorage", "PostgresTransaction", "identity_tables",
           "pg_migrations", "translate"]
