-- The lean move pipeline (bot/tables/pipeline.py) and many processes on one database.

-- The number of moves in the log: a move is committed only if the table's ply is still the
-- one it was computed on (UPDATE ... WHERE ply = ?), so two writers never both win.
ALTER TABLE game_tables ADD COLUMN ply INTEGER NOT NULL DEFAULT 0;
UPDATE game_tables SET ply = (SELECT COUNT(*) FROM moves WHERE moves.table_id = game_tables.id);

-- Timers are claimed with a lease before they fire: each fires once however many processes
-- run, and a crashed process's claims are taken over once the lease has run out.
ALTER TABLE timers ADD COLUMN claimed_until TEXT;
ALTER TABLE timers ADD COLUMN claimed_by TEXT;
