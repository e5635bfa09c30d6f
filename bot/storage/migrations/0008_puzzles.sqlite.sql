-- Puzzles from each server's finished games, the daily puzzle (bot/features/puzzles/).

-- Where the daily puzzle is posted (NULL: no daily puzzle) and the server's time zone (an
-- IANA name): a day starts at local midnight.
ALTER TABLE guild_settings ADD COLUMN puzzle_channel_id INTEGER;
ALTER TABLE guild_settings ADD COLUMN time_zone TEXT NOT NULL DEFAULT 'UTC';

-- One puzzle per (guild, game, position key): the same position mined twice is merged.
-- guild_id 0 holds the shipped starter set. `data` is the puzzle as JSON
-- (engines/ai/puzzles); a mined puzzle keeps its source: the table, the players' names at
-- the time ([[user id, name], ...] as JSON) and the ply of the decision.
CREATE TABLE puzzles (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL DEFAULT 0,
    game        TEXT    NOT NULL,
    puzzle_key  TEXT    NOT NULL,
    data        TEXT    NOT NULL,
    table_id    INTEGER,
    players     TEXT,
    ply         INTEGER,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    attempts    INTEGER NOT NULL DEFAULT 0,
    solves      INTEGER NOT NULL DEFAULT 0,
    created_at  TEXT    NOT NULL,
    UNIQUE (guild_id, game, puzzle_key)
);
CREATE INDEX puzzles_guild_game ON puzzles (guild_id, game, mu);

-- A member's puzzle rating per server and game, and their streak of correct first answers.
CREATE TABLE puzzle_players (
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    mu          REAL    NOT NULL,
    sigma       REAL    NOT NULL,
    streak      INTEGER NOT NULL DEFAULT 0,
    best_streak INTEGER NOT NULL DEFAULT 0,
    attempts    INTEGER NOT NULL DEFAULT 0,
    solved      INTEGER NOT NULL DEFAULT 0,
    updated_at  TEXT    NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);

-- A puzzle shown to a member: answered once (answer and correct stay NULL until then).
-- `rated`: the member's first answer to that puzzle (it moves the ratings and the streak);
-- `daily_day`: opened from that day's daily post (YYYY-MM-DD, the server's time zone).
CREATE TABLE puzzle_attempts (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    puzzle_id   INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    daily_day   TEXT,
    shown_at    TEXT    NOT NULL,
    answer      TEXT,
    correct     INTEGER,
    rated       INTEGER NOT NULL DEFAULT 0,
    answered_at TEXT
);
CREATE INDEX puzzle_attempts_user ON puzzle_attempts (guild_id, user_id, puzzle_id);
-- A member answers a server's daily puzzle once.
CREATE UNIQUE INDEX puzzle_attempts_daily ON puzzle_attempts (guild_id, daily_day, user_id)
    WHERE daily_day IS NOT NULL;

-- One daily puzzle per server and local day: the process whose INSERT makes this row posts
-- it (exactly once across processes); message_id is set once posted.
CREATE TABLE puzzle_daily (
    guild_id    INTEGER NOT NULL,
    day         TEXT    NOT NULL,
    puzzle_id   INTEGER NOT NULL REFERENCES puzzles (id) ON DELETE CASCADE,
    channel_id  INTEGER NOT NULL,
    message_id  INTEGER,
    claimed_at  TEXT    NOT NULL,
    posted_at   TEXT,
    PRIMARY KEY (guild_id, day)
);
