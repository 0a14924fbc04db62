-- 0007: places without a server (issue 32 item 3).  A user-installed app is used in a
-- direct message between two users ('dm') or a group DM ('group_dm'): a channel with no
-- server.  Such a match is stored with guild_id 0, the personal scope (Discord ids are
-- never 0): its rating, ledger and statistics rows are the players' personal ones, kept
-- apart from every server's.  place_kind says where a match lives, so a restarted bot
-- knows a game is in a DM (no reminders, no claims by time) without asking Discord.
ALTER TABLE matches ADD COLUMN place_kind TEXT NOT NULL DEFAULT 'server';
ALTER TABLE matches ADD CONSTRAINT matches_place_kind
    CHECK (place_kind IN ('server', 'dm', 'group_dm')
           AND (place_kind = 'server') = (guild_id <> 0));
CREATE INDEX matches_personal_user ON matches(white_id, black_id) WHERE guild_id = 0;
