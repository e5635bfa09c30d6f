-- Tables (one game in one channel or thread), their seats, the move log, results, ratings.
-- The move log is the truth: a table's position is rebuilt by replaying `moves`.

CREATE TABLE game_tables (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    thread_id   INTEGER,
    place_id    INTEGER NOT NULL,            -- the thread if any, else the channel
    game        TEXT    NOT NULL,
    options     TEXT    NOT NULL,            -- JSON: host's choices in a lobby, full once started
    host_id     INTEGER NOT NULL,
    status      TEXT    NOT NULL
                CHECK (status IN ('lobby', 'running', 'finished', 'cancelled')),
    posted_ply  INTEGER NOT NULL DEFAULT -1, -- last ply whose board was posted; -1 = none
    posted_final INTEGER NOT NULL DEFAULT 0, -- 1 once the board of the finished game is posted
    message_id  INTEGER,
    outcome     TEXT,                        -- JSON, once finished
    created_at  TEXT    NOT NULL,
    started_at  TEXT,
    finished_at TEXT
);

-- One active (lobby or running) table per channel or thread, even across processes.
CREATE UNIQUE INDEX game_tables_one_active_per_place
    ON game_tables (place_id) WHERE status IN ('lobby', 'running');
CREATE INDEX game_tables_status ON game_tables (status);

CREATE TABLE seats (
    table_id INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    position INTEGER NOT NULL,                -- join order in a lobby, turn order once started
    user_id  INTEGER NOT NULL,
    name     TEXT    NOT NULL,
    side     INTEGER,                         -- the seat asked for in the lobby, if any
    PRIMARY KEY (table_id, position),
    UNIQUE (table_id, user_id)
);

CREATE TABLE moves (
    table_id   INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    ply        INTEGER NOT NULL,              -- 0-based index in the log
    actor      INTEGER NOT NULL,              -- seat, or -1 for chance
    move       TEXT    NOT NULL,
    created_at TEXT    NOT NULL,
    PRIMARY KEY (table_id, ply)               -- a second writer of the same ply fails
) WITHOUT ROWID;

CREATE TABLE results (
    table_id    INTEGER NOT NULL REFERENCES game_tables (id) ON DELETE CASCADE,
    seat        INTEGER NOT NULL,
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    rank        INTEGER NOT NULL,
    score       REAL,
    resigned    INTEGER NOT NULL DEFAULT 0,
    finished_at TEXT    NOT NULL,
    PRIMARY KEY (table_id, seat)
);
CREATE INDEX results_guild_game ON results (guild_id, game);
CREATE INDEX results_guild_user ON results (guild_id, user_id);

CREATE TABLE ratings (
    guild_id   INTEGER NOT NULL,
    game       TEXT    NOT NULL,
    user_id    INTEGER NOT NULL,
    mu         REAL    NOT NULL,
    sigma      REAL    NOT NULL,
    updated_at TEXT    NOT NULL,
    PRIMARY KEY (guild_id, game, user_id)
);
