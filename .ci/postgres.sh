# Sourced by .ci/run: make a PostgreSQL server available to the tests as BOT_TEST_POSTGRES_URL.
#  1. BOT_TEST_POSTGRES_URL already set: use it.
#  2. A server answering on 127.0.0.1:5432 (trust auth): use it (the tests create and drop
#     their own database there).
#  3. Else a private throwaway server from the installed binaries (initdb, pg_ctl), on a free
#     port in a temporary folder, run as the `postgres` user when we are root (the server
#     refuses root), stopped and deleted when the calling script exits.
#  4. Else nothing: the PostgreSQL tests skip and say so in one line.

pg_ci_answers() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pg_ci_start() {
    local initdb pgbin port
    initdb=$(command -v initdb || ls -d /usr/lib/postgresql/*/bin/initdb 2>/dev/null | sort -V | tail -1)
    if [ -z "$initdb" ] || [ ! -x "$initdb" ]; then
        echo "ci: no PostgreSQL server or binaries: the PostgreSQL tests will be skipped" >&2
        return 0
    fi
    pgbin=$(dirname "$initdb")
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    PG_CI_DIR=$(mktemp -d)
    PG_CI_AS=()
    if [ "$(id -u)" = 0 ]; then
        chown postgres "$PG_CI_DIR"
        PG_CI_AS=(runuser -u postgres --)
    fi
    PG_CI_CTL="$pgbin/pg_ctl"
    "${PG_CI_AS[@]}" "$pgbin/initdb" -D "$PG_CI_DIR/data" -U postgres --auth=trust -E UTF8 \
        --no-sync >/dev/null
    # fsync and synchronous_commit off: a test server, thrown away at exit.
    "${PG_CI_AS[@]}" "$PG_CI_CTL" -D "$PG_CI_DIR/data" -w -l "$PG_CI_DIR/log" \
        -o "-p $port -k $PG_CI_DIR -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off" \
        start >/dev/null
    trap pg_ci_stop EXIT
    export BOT_TEST_POSTGRES_URL="postgresql://postgres@127.0.0.1:$port/postgres"
    echo "ci: private PostgreSQL server on port $port" >&2
}

pg_ci_stop() {
    "${PG_CI_AS[@]}" "$PG_CI_CTL" -D "$PG_CI_DIR/data" -m immediate stop >/dev/null 2>&1 || true
    rm -rf "$PG_CI_DIR"
}

if [ -n "${BOT_TEST_POSTGRES_URL:-}" ]; then
    echo "ci: PostgreSQL from BOT_TEST_POSTGRES_URL" >&2
elif pg_ci_answers 5432; then
    export BOT_TEST_POSTGRES_URL="postgresql://postgres@127.0.0.1:5432/postgres"
    echo "ci: PostgreSQL answering on 127.0.0.1:5432" >&2
else
    pg_ci_start
fi
