-- Every process answers /move's autocomplete from the running tables it keeps in memory; in
-- a cluster another process may change one meanwhile (a 6 nimmt! pick sent by DM reaches
-- shard 0, whatever the table's server). So each committed change of a table's ply or
-- status is told to every process listening on `table_changes` (bot/storage/changes.py) as
-- "id:ply:status", and they forget their copy. NOTIFY is sent when the transaction commits.
CREATE OR REPLACE FUNCTION notify_table_change() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('table_changes', NEW.id || ':' || NEW.ply || ':' || NEW.status);
    RETURN NULL;
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER table_changes AFTER UPDATE OF ply, status ON game_tables
    FOR EACH ROW WHEN (OLD.ply IS DISTINCT FROM NEW.ply OR OLD.status IS DISTINCT FROM NEW.status)
    EXECUTE FUNCTION notify_table_change();
