-- Turn deadlines and absent players (SQLite's 0002_deadlines.sqlite.sql).

-- Per-server settings (/settings); a server without a row uses the defaults below.
CREATE TABLE guild_settings (
    guild_id         BIGINT  PRIMARY KEY,
    deadline_seconds INTEGER NOT NULL DEFAULT 86400,
    absence_rule     TEXT    NOT NULL DEFAULT 'takeover'
                     CHECK (absence_rule IN ('takeover', 'forfeit')),
    max_misses       INTEGER NOT NULL DEFAULT 3 CHECK (max_misses >= 1),
    channel_policy   TEXT    NOT NULL DEFAULT 'thread'
                     CHECK (channel_policy IN ('thread', 'channel')),
    language         TEXT    NOT NULL DEFAULT 'en' CHECK (language IN ('en', 'ja')),
    cancel_role_id   BIGINT,                  -- who may cancel tables besides the host
    updated_at       TIMESTAMPTZ NOT NULL
);

-- The table's rules for absent players, fixed at /play (NULL on older tables: defaults).
ALTER TABLE game_tables ADD COLUMN deadline_seconds INTEGER;
ALTER TABLE game_tables ADD COLUMN absence_rule TEXT;
ALTER TABLE game_tables ADD COLUMN max_misses INTEGER;

-- Missed deadlines in a row (reset when the player moves) and whether the seat is now
-- played by the computer for the rest of the game.
ALTER TABLE seats ADD COLUMN misses INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seats ADD COLUMN taken_over INTEGER NOT NULL DEFAULT 0;

-- One timer per seat that must act on a running table: the dispatcher's work list.
CREATE TABLE timers (
    table_id      BIGINT  NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    seat          INTEGER NOT NULL,
    since_ply     INTEGER NOT NULL,           -- the ply at which this decision began
    started_at    TIMESTAMPTZ NOT NULL,
    deadline_at   TIMESTAMPTZ NOT NULL,
    remind_at     TIMESTAMPTZ,                -- NULL: no reminder (taken-over seat)
    reminded      INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX timers_deadline ON timers (deadline_at);
CREATE INDEX timers_remind ON timers (remind_at) WHERE reminded = 0;
