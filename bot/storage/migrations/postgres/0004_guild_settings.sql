-- 0004 (PostgreSQL dialect of bot/storage/migrations/sqlite/0004_guild_settings.sql: same
-- table, columns and constraints; ids BIGINT, times TEXT COLLATE "C", as 0001).

CREATE TABLE guild_settings (
    guild_id   BIGINT  PRIMARY KEY,
    settings   TEXT    NOT NULL DEFAULT '{}',
    version    INTEGER NOT NULL DEFAULT 1,
    updated_at TEXT    COLLATE "C" NOT NULL,
    updated_by BIGINT
);
