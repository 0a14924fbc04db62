-- 0001: users, matches (match or money session), games, the append-only event
-- log, the money ledger, ratings and their history, chouette tables.
-- Applied in one transaction; schema_version records it.

CREATE TABLE users (
    id          INTEGER PRIMARY KEY,          -- Discord user id (console: small ids)
    name        TEXT    NOT NULL,
    is_bot      INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT    NOT NULL
);

-- A match to N points, or a money session (length 0) between two players,
-- played in one channel (a Discord thread is a channel).
CREATE TABLE matches (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,
    white_id     INTEGER NOT NULL REFERENCES users(id),   -- the challenger
    black_id     INTEGER NOT NULL REFERENCES users(id),   -- the challenged player
    variant      TEXT    NOT NULL,
    rules        TEXT    NOT NULL,             -- JSON rule options
    length       INTEGER NOT NULL DEFAULT 0,   -- 0 = money play
    stake        INTEGER NOT NULL DEFAULT 0,   -- money play: units per point
    rated        INTEGER NOT NULL DEFAULT 1,
    status       TEXT    NOT NULL CHECK (status IN
                     ('challenged', 'active', 'finished', 'declined', 'cancelled')),
    chouette_id  INTEGER REFERENCES chouettes(id),
    state        TEXT    NOT NULL DEFAULT '{}', -- JSON: scores, Crawford, totals, draft play
    version      INTEGER NOT NULL DEFAULT 0,   -- optimistic concurrency: +1 per action
    reminded_version INTEGER NOT NULL DEFAULT -1, -- the version a reminder was sent for
    winner_id    INTEGER REFERENCES users(id),
    created_at   TEXT    NOT NULL,
    updated_at   TEXT    NOT NULL
);
CREATE UNIQUE INDEX matches_one_open_per_channel
    ON matches(channel_id) WHERE status IN ('challenged', 'active');
CREATE INDEX matches_guild ON matches(guild_id, status);

CREATE TABLE games (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id     INTEGER NOT NULL REFERENCES matches(id),
    number       INTEGER NOT NULL,             -- 1, 2, ... within the match
    seed_hash    TEXT    NOT NULL,             -- SHA-256 of the dice seed, published at start
    seed         TEXT    NOT NULL,             -- secret until the game ends
    dice_drawn   INTEGER NOT NULL DEFAULT 0,   -- dice derived from the seed so far
    setup        TEXT    NOT NULL DEFAULT '{}', -- JSON: money, crawford, first_player
    status       TEXT    NOT NULL CHECK (status IN ('active', 'finished')),
    winner_id    INTEGER REFERENCES users(id),
    result       TEXT,                         -- JSON: kind, cube, points
    created_at   TEXT    NOT NULL,
    finished_at  TEXT,
    UNIQUE (match_id, number)
);

-- The append-only record of every game: each roll, play, cube action, resignation.
CREATE TABLE events (
    game_id     INTEGER NOT NULL REFERENCES games(id),
    seq         INTEGER NOT NULL,
    kind        TEXT    NOT NULL,
    data        TEXT    NOT NULL,              -- JSON, engine.record format
    actor_id    INTEGER,
    created_at  TEXT    NOT NULL,
    PRIMARY KEY (game_id, seq)
);

CREATE TABLE ledger (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL REFERENCES users(id),
    match_id    INTEGER REFERENCES matches(id),
    game_id     INTEGER REFERENCES games(id),
    chouette_id INTEGER REFERENCES chouettes(id),
    points      INTEGER NOT NULL,              -- signed: + won, - lost
    amount      INTEGER NOT NULL,              -- points x stake
    created_at  TEXT    NOT NULL
);
CREATE INDEX ledger_guild_user ON ledger(guild_id, user_id);

CREATE TABLE ratings (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL REFERENCES users(id),
    rating      REAL    NOT NULL DEFAULT 1500,
    experience  INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (guild_id, user_id)
);

CREATE TABLE rating_history (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL REFERENCES users(id),
    match_id    INTEGER NOT NULL REFERENCES matches(id),
    before      REAL    NOT NULL,
    after       REAL    NOT NULL,
    experience  INTEGER NOT NULL,
    created_at  TEXT    NOT NULL
);

CREATE TABLE chouettes (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('open', 'playing', 'closed')),
    rules       TEXT    NOT NULL,             -- JSON: rule options, refusal rule, table cap, stake
    state       TEXT    NOT NULL DEFAULT '{}',
    version     INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT    NOT NULL
);
CREATE UNIQUE INDEX chouettes_one_open_per_channel
    ON chouettes(channel_id) WHERE status IN ('open', 'playing');

CREATE TABLE chouette_members (
    chouette_id INTEGER NOT NULL REFERENCES chouettes(id),
    user_id     INTEGER NOT NULL REFERENCES users(id),
    position    INTEGER NOT NULL,             -- 0 = box, 1 = captain, then partners in order
    throw       INTEGER,                      -- the die thrown when seats were decided
    active      INTEGER NOT NULL DEFAULT 1,
    joined_at   TEXT    NOT NULL,
    PRIMARY KEY (chouette_id, user_id)
);
