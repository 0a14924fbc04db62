-- 0009 (PostgreSQL dialect of the SQLite file: ids BIGINT, REAL as DOUBLE PRECISION, time
-- stamps TEXT COLLATE "C"): the matchmaking queue (issue 44 item 2).  A player waiting for
-- an opponent in a server: the terms he waits for (length, variant, clock, rated), his
-- rating when he joined, where he joined (the channel the match starts in when he is the
-- later of the two) and when (the service's time: the accepted rating gap widens with the
-- wait).  One row per player and server; pairing deletes both rows in the transaction that
-- makes the match.  bot_after: the minutes after which the player would rather play the
-- bot than wait on (0: never).
CREATE TABLE match_queue (
    guild_id    BIGINT  NOT NULL,
    user_id     BIGINT  NOT NULL REFERENCES users(id),
    channel_id  BIGINT  NOT NULL,
    length      INTEGER NOT NULL CHECK (length >= 0),
    variant     TEXT    NOT NULL,
    clock       TEXT    NOT NULL,
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
    rating      DOUBLE PRECISION NOT NULL,
    bot_after   DOUBLE PRECISION NOT NULL DEFAULT 0 CHECK (bot_after >= 0),
    joined_at   TEXT    COLLATE "C" NOT NULL,
    PRIMARY KEY (guild_id, user_id)
);
