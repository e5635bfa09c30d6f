-- Nothing for SQLite: it serves one bot process, the only one that changes its tables (see
-- 0010_table_changes.postgres.sql for a cluster's processes telling each other).
SELECT 1;
