-- Tournaments and seasons (bot/tournaments/service.py).

-- Who may run tournaments besides Manage Server; seasons of the leaderboard view.
ALTER TABLE guild_settings ADD COLUMN organiser_role_id INTEGER;
ALTER TABLE guild_settings ADD COLUMN season TEXT NOT NULL DEFAULT 'none'
    CHECK (season IN ('none', 'month', 'quarter'));
ALTER TABLE guild_settings ADD COLUMN season_channel_id INTEGER;  -- where season ends are posted
ALTER TABLE guild_settings ADD COLUMN season_posted TEXT;         -- the last season announced

-- One tournament. `round` moves on only by UPDATE ... WHERE round = ? (one process wins);
-- `next_at` is when the runner looks at it next (start time, or a round to check), claimed
-- with a lease like the turn timers so each step runs in one process.
CREATE TABLE tournaments (
    id               INTEGER PRIMARY KEY AUTOINCREMENT,
    guild_id         INTEGER NOT NULL,
    channel_id       INTEGER NOT NULL,
    message_id       INTEGER,                  -- the sign-up message
    organiser_id     INTEGER NOT NULL,
    game             TEXT    NOT NULL,
    format           TEXT    NOT NULL,
    options          TEXT    NOT NULL,         -- JSON: the game's options
    rounds           INTEGER NOT NULL,         -- planned rounds (fixed at the start)
    seat_limit       INTEGER NOT NULL,
    deadline_seconds INTEGER NOT NULL,
    check_in         INTEGER NOT NULL DEFAULT 0,  -- players must check in before the start
    status           TEXT    NOT NULL DEFAULT 'signup'
                     CHECK (status IN ('signup', 'running', 'finished', 'cancelled')),
    round            INTEGER NOT NULL DEFAULT 0,
    starts_at        TEXT    NOT NULL,
    next_at          TEXT,
    claimed_until    TEXT,
    claimed_by       TEXT,
    created_at       TEXT    NOT NULL,
    finished_at      TEXT
);
CREATE INDEX tournaments_next ON tournaments (next_at);
CREATE INDEX tournaments_guild ON tournaments (guild_id, status);

CREATE TABLE tournament_players (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    user_id       INTEGER NOT NULL,             -- negative: a computer (its level in the id)
    name          TEXT    NOT NULL,
    rating        REAL,                         -- the seed (rating when the event started)
    checked_in    INTEGER NOT NULL DEFAULT 0,
    dropped       INTEGER NOT NULL DEFAULT 0,
    joined_at     TEXT    NOT NULL,
    PRIMARY KEY (tournament_id, user_id)
);

-- One game (table) of a round; a one-player game is a bye. `players` is the JSON list of
-- tournament players in seat order, `seats` maps them to the table's seat user ids.
CREATE TABLE tournament_games (
    tournament_id INTEGER NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE,
    round         INTEGER NOT NULL,
    number        INTEGER NOT NULL,
    players       TEXT    NOT NULL,
    seats         TEXT,
    table_id      INTEGER,
    points        TEXT,                         -- JSON, once the game is over
    claimed_until TEXT,                         -- opening the table: one process at a time
    claimed_by    TEXT,
    PRIMARY KEY (tournament_id, round, number)
);
CREATE INDEX tournament_games_table ON tournament_games (table_id);
