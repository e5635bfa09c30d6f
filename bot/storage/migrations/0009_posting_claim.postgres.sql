-- Who is posting a table's board, one process at a time (see 0009_posting_claim.sqlite.sql).
ALTER TABLE game_tables ADD COLUMN posting_by TEXT;
ALTER TABLE game_tables ADD COLUMN posting_until TIMESTAMPTZ;
