-- Tables that never block a channel, and limits per server (SQLite's 0005_faults.sqlite.sql).

ALTER TABLE game_tables ADD COLUMN lobby_channel_id BIGINT;
ALTER TABLE game_tables ADD COLUMN lobby_message_id BIGINT;
ALTER TABLE game_tables ADD COLUMN broken INTEGER NOT NULL DEFAULT 0;

ALTER TABLE guild_settings ADD COLUMN max_tables INTEGER NOT NULL DEFAULT 50;
ALTER TABLE guild_settings ADD COLUMN lobby_minutes INTEGER NOT NULL DEFAULT 30;

CREATE INDEX game_tables_host_lobby ON game_tables (guild_id, host_id) WHERE status = 'lobby';
