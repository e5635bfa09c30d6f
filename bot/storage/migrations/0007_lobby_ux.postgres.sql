-- Endings that reach the channel, rematches and invitations (PostgreSQL; see 0007_lobby_ux.sqlite.sql).

ALTER TABLE guild_settings ADD COLUMN result_lines INTEGER NOT NULL DEFAULT 1;

ALTER TABLE game_tables ADD COLUMN rematch_of BIGINT;
CREATE INDEX game_tables_rematch_of ON game_tables (rematch_of) WHERE rematch_of IS NOT NULL;

CREATE TABLE invitations (
    table_id   BIGINT  NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    user_id    BIGINT  NOT NULL,
    name       TEXT    NOT NULL,
    side       INTEGER,
    invited_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (table_id, user_id)
);
