-- Tables that never block a channel, and limits per server (issue 10).

-- The lobby message (where /play posted it): expired or replaced lobbies edit it, and a
-- /play finding a lobby whose message is gone offers to replace it. NULL: never posted.
ALTER TABLE game_tables ADD COLUMN lobby_channel_id INTEGER;
ALTER TABLE game_tables ADD COLUMN lobby_message_id INTEGER;
-- 1: the move log no longer replays; the table is answered politely and can be cancelled.
ALTER TABLE game_tables ADD COLUMN broken INTEGER NOT NULL DEFAULT 0;

-- Per-server limits: active tables at once, and minutes a lobby waits before it expires.
ALTER TABLE guild_settings ADD COLUMN max_tables INTEGER NOT NULL DEFAULT 50;
ALTER TABLE guild_settings ADD COLUMN lobby_minutes INTEGER NOT NULL DEFAULT 30;

CREATE INDEX game_tables_host_lobby ON game_tables (guild_id, host_id) WHERE status = 'lobby';
