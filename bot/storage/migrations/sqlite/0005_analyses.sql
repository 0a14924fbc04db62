-- 0005: analyses kept, every match graded in the background, puzzles (issue 33).
-- analyses: one row per game and analysis depth ('strong' = GNU 1-ply, 'expert' = GNU
-- 2-ply), with the engine that made it and the whole analysis as JSON (decisions, luck,
-- mistakes with their candidates, the graph's points).  analysis_players: the same, one
-- row per game, depth and side, with the user, for a player's PR over time and the PR
-- leaderboard without reading the JSON.  grading_jobs: the background grading queue, one
-- row per finished match; a worker claims a job with a conditional UPDATE and holds it
-- for a lease it renews (a killed worker's job is taken again once its lease lapses);
-- finishing is conditional on still holding the claim, so a match is graded once.
-- puzzles: decisions of the server's players that lost at least the server's minimum
-- equity; puzzle_answers: each player's first answer to a puzzle, judged and scored;
-- daily_puzzles: the puzzle posted each day in a server's channel (claimed once per
-- server and day, cluster-wide; a claim whose post never went out is taken again).

CREATE TABLE analyses (
    game_id      INTEGER NOT NULL REFERENCES games(id),
    depth        TEXT    NOT NULL,             -- 'strong' or 'expert'
    match_id     INTEGER NOT NULL REFERENCES matches(id),
    engine       TEXT    NOT NULL,             -- e.g. 'bgsage 2.0.20260907'
    data         TEXT    NOT NULL,             -- JSON: bot.ai.analysis.GameAnalysis.to_dict()
    created_at   TEXT    NOT NULL,
    PRIMARY KEY (game_id, depth)
);
CREATE INDEX analyses_match ON analyses(match_id);

CREATE TABLE analysis_players (
    game_id      INTEGER NOT NULL REFERENCES games(id),
    depth        TEXT    NOT NULL,
    side         INTEGER NOT NULL CHECK (side IN (0, 1)),  -- 0 white, 1 black
    match_id     INTEGER NOT NULL REFERENCES matches(id),
    guild_id     INTEGER NOT NULL,
    user_id      INTEGER NOT NULL REFERENCES users(id),
    decisions    INTEGER NOT NULL,             -- unforced plays + close or actual cube decisions
    lost         REAL    NOT NULL,             -- EMG lost over them
    checker_decisions INTEGER NOT NULL,
    checker_lost REAL    NOT NULL,
    cube_decisions INTEGER NOT NULL,
    cube_lost    REAL    NOT NULL,
    rolls        INTEGER NOT NULL,
    luck         REAL    NOT NULL,             -- EMG
    luck_value   REAL    NOT NULL,             -- points (money) or match-winning chance
    result       REAL    NOT NULL,             -- the same unit: what the game won or lost
    played_at    TEXT    NOT NULL,             -- when the game finished
    PRIMARY KEY (game_id, depth, side)
);
CREATE INDEX analysis_players_user ON analysis_players(guild_id, user_id, depth);

CREATE TABLE grading_jobs (
    match_id     INTEGER PRIMARY KEY REFERENCES matches(id),
    guild_id     INTEGER NOT NULL,
    channel_id   INTEGER NOT NULL,             -- where the grades are posted
    status       TEXT    NOT NULL CHECK (status IN ('queued', 'running', 'done', 'failed')),
    attempts     INTEGER NOT NULL DEFAULT 0,
    worker       TEXT,                         -- the claim of the process working on it
    lease_until  TEXT,                         -- ISO time the claim lapses
    error        TEXT,
    posted       INTEGER NOT NULL DEFAULT 0,   -- 1 once the grades were handed to be posted
    created_at   TEXT    NOT NULL,
    finished_at  TEXT
);
CREATE INDEX grading_jobs_due ON grading_jobs(status, created_at);

CREATE TABLE puzzles (
    id           INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id     INTEGER NOT NULL,
    match_id     INTEGER NOT NULL REFERENCES matches(id),
    game_id      INTEGER NOT NULL REFERENCES games(id),
    event_index  INTEGER NOT NULL,             -- the decision in the game's record
    user_id      INTEGER NOT NULL REFERENCES users(id),   -- who made the decision
    kind         TEXT    NOT NULL CHECK (kind IN ('play', 'double', 'take')),
    equity_lost  REAL    NOT NULL,
    data         TEXT    NOT NULL,             -- JSON: the position, dice, candidates, answers
    created_at   TEXT    NOT NULL,
    UNIQUE (game_id, event_index)
);
CREATE INDEX puzzles_guild ON puzzles(guild_id, id);

CREATE TABLE puzzle_answers (
    puzzle_id    INTEGER NOT NULL REFERENCES puzzles(id),
    user_id      INTEGER NOT NULL REFERENCES users(id),
    guild_id     INTEGER NOT NULL,
    answer       TEXT    NOT NULL,
    correct      INTEGER NOT NULL,
    lost         REAL    NOT NULL,             -- EMG the answer gives up against the best
    score        INTEGER NOT NULL,
    answered_at  TEXT    NOT NULL,
    PRIMARY KEY (puzzle_id, user_id)
);
CREATE INDEX puzzle_answers_guild ON puzzle_answers(guild_id, user_id);

CREATE TABLE daily_puzzles (
    guild_id     INTEGER NOT NULL,
    day          TEXT    NOT NULL,             -- YYYY-MM-DD, UTC
    channel_id   INTEGER NOT NULL,
    puzzle_id    INTEGER REFERENCES puzzles(id),
    claimed_at   TEXT    NOT NULL,
    sent_at      TEXT,
    PRIMARY KEY (guild_id, day)
);
