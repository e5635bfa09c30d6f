-- Endings that reach the channel, rematches and invitations (bot/features/lobby/).

-- 1: a game played in a thread posts one result line in the parent channel when it ends.
ALTER TABLE guild_settings ADD COLUMN result_lines INTEGER NOT NULL DEFAULT 1;

-- The finished table a lobby is the rematch of (NULL: opened with /play).
ALTER TABLE game_tables ADD COLUMN rematch_of INTEGER;
CREATE INDEX game_tables_rematch_of ON game_tables (rematch_of) WHERE rematch_of IS NOT NULL;

-- Seats held in a lobby for invited members (by /play's invite options, or the other
-- players of a rematch) until they accept or decline, or the lobby ends.
CREATE TABLE invitations (
    table_id   INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    user_id    INTEGER NOT NULL,
    name       TEXT    NOT NULL,
    side       INTEGER,                       -- the side kept for them (a rematch), if any
    invited_at TEXT    NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
