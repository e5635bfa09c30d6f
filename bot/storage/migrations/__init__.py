"""The numbered SQL migrations of both backends, applied in order by bot.storage.migrate.

One numbering: `NNNN_name.sql` is applied on SQLite and PostgreSQL alike; where the dialects
differ, the version has two files instead, `NNNN_name.sqlite.sql` and `NNNN_name.postgres.sql`
(the same name). Every version exists on both backends.
"""
