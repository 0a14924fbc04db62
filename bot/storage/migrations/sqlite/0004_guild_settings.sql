-- 0004: each server's own settings (/settings): the values a server chose, by key, as one
-- JSON object (the keys it never set are the operator's defaults from config.toml), with an
-- optimistic version (+1 per change: two admins changing settings at once both apply, one
-- after the other, never one lost) and who changed them last.

CREATE TABLE guild_settings (
    guild_id   INTEGER PRIMARY KEY,
    settings   TEXT    NOT NULL DEFAULT '{}',  -- JSON: {"threads": false, "game_channels": [..]}
    version    INTEGER NOT NULL DEFAULT 1,
    updated_at TEXT    NOT NULL,
    updated_by INTEGER                         -- the user of the last change
);
