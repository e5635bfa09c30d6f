-- Computer players and hints (bot/tables/computers.py).
-- Computer seats need no column: their user id is negative and encodes the level.
-- A table with /hint allowed is unrated: results are recorded, ratings are not updated.
ALTER TABLE game_tables ADD COLUMN hints INTEGER NOT NULL DEFAULT 0;
