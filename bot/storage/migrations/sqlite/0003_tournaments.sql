-- 0003: tournaments run by the bot (engine/tournament holds the rules).
-- One row per tournament: its configuration and the engine's state as JSON, an optimistic
-- version (+1 per change, so two processes record a round's last result exactly once), the
-- current round's deadline and what was already announced for it (each reminder once,
-- cluster-wide).  A match played for a pairing points back to it (tournament_id,
-- tournament_pairing): at most one match per pairing.  tournament_openings records which
-- process took on opening (making the thread and the match of) each pairing.

CREATE TABLE tournaments (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id       INTEGER NOT NULL,
    channel_id     INTEGER NOT NULL,             -- where it was created (the sign-up message)
    organiser_id   INTEGER NOT NULL REFERENCES users(id),
    name           TEXT    NOT NULL,
    status         TEXT    NOT NULL CHECK (status IN
                       ('signup', 'running', 'paused', 'finished', 'cancelled')),
    config         TEXT    NOT NULL,             -- JSON: format, lengths, variant, rules
    state          TEXT    NOT NULL DEFAULT '{}', -- JSON: entrants, engine state, claims, notes
    version        INTEGER NOT NULL DEFAULT 0,
    round          INTEGER NOT NULL DEFAULT 0,   -- the engine state's current round
    signup_until   TEXT,                         -- ISO time (NULL: until the organiser starts)
    deadline       TEXT,                         -- ISO time the current round ends (NULL: none)
    remind_at      TEXT,                         -- ISO time of the round's reminder
    reminded_round INTEGER NOT NULL DEFAULT 0,   -- the round whose reminder was sent
    expired_round  INTEGER NOT NULL DEFAULT 0,   -- the round whose deadline was announced
    message_id     INTEGER,                      -- the public sign-up message, if any
    created_at     TEXT    NOT NULL,
    updated_at     TEXT    NOT NULL
);
CREATE INDEX tournaments_guild ON tournaments(guild_id, status);

CREATE TABLE tournament_openings (
    tournament_id  INTEGER NOT NULL REFERENCES tournaments(id),
    pairing        TEXT    NOT NULL,
    claimed_at     TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, pairing)
);

ALTER TABLE matches ADD COLUMN tournament_id INTEGER REFERENCES tournaments(id);
ALTER TABLE matches ADD COLUMN tournament_pairing TEXT;
CREATE UNIQUE INDEX matches_one_per_pairing
    ON matches(tournament_id, tournament_pairing) WHERE tournament_id IS NOT NULL;
