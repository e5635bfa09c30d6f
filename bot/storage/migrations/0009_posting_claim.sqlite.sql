-- Who is posting a table's board (bot/features/table/publish.py): one process at a time,
-- across processes. A process claims the posting with a lease (in the commit that records a
-- move, or before a catch-up post) and releases it when it records the post (mark_posted);
-- one that died holding it blocks nothing after `posting_until`: the sweeper posts then.
ALTER TABLE game_tables ADD COLUMN posting_by TEXT;      -- the claiming process's name
ALTER TABLE game_tables ADD COLUMN posting_until TEXT;   -- its lease ends (NULL: unclaimed)
