-- 0008 (PostgreSQL dialect of the SQLite file: times and ids BIGINT): matches on a
-- clock (issue 44).  A match played on a time control has one row here: its time control (spec, the delay of each decision), each player's reserve left, and the
-- decision being timed (whose, since when, when its flag falls), written in the action's
-- own transaction with the service's time (integer milliseconds).  clock_beat holds when
-- the service last kept the clocks: time after it, while no process was keeping them (a
-- restart, the database away), is charged to nobody.
CREATE TABLE match_clocks (
    match_id     BIGINT  PRIMARY KEY REFERENCES matches(id),
    spec         TEXT    NOT NULL,
    delay_ms     BIGINT  NOT NULL CHECK (delay_ms >= 0),
    white_ms     BIGINT  NOT NULL CHECK (white_ms >= 0),
    black_ms     BIGINT  NOT NULL CHECK (black_ms >= 0),
    turn         INTEGER CHECK (turn IN (0, 1)),
    since_ms     BIGINT,
    deadline_ms  BIGINT,
    decision     TEXT    NOT NULL DEFAULT '',
    acted_ms     BIGINT  NOT NULL DEFAULT 0,
    version      INTEGER NOT NULL DEFAULT 0,
    CHECK ((turn IS NULL) = (deadline_ms IS NULL) AND (turn IS NULL) = (since_ms IS NULL))
);
CREATE INDEX match_clocks_deadline ON match_clocks(deadline_ms) WHERE deadline_ms IS NOT NULL;
CREATE TABLE clock_beat (
    id     INTEGER PRIMARY KEY CHECK (id = 1),
    at_ms  BIGINT  NOT NULL
);
