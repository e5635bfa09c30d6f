# The bot in a small image. The steps are README's run command:
#   python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/python -m bot
# Build:  docker build -t tabletop-bot .
# Run:    docker run -d --name tabletop-bot -e DISCORD_TOKEN=... -v tabletop-data:/data tabletop-bot
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    BOT_DATABASE=/data/bot.sqlite3 \
    BOT_HEARTBEAT_FILE=/tmp/bot-heartbeat

WORKDIR /app
COPY pyproject.toml setup.py README.md ./
COPY engines ./engines
COPY renderers ./renderers
COPY bot ./bot

# gcc compiles the Varanasi search (engines/_varanasi_search.c) and is removed again.
RUN apt-get update && apt-get install -y --no-install-recommends gcc libc6-dev \
    && python3 -m venv .venv && .venv/bin/pip install -q --no-cache-dir -e . \
    && apt-get purge -y gcc libc6-dev && apt-get autoremove -y && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 10001 bot \
    && mkdir -p /data && chown bot /data

USER bot
# The database (the move logs of every table) lives on a volume: it survives new images.
VOLUME ["/data"]
# Healthy while the bot's upkeep loop runs (it touches the heartbeat file every 15 s).
HEALTHCHECK --interval=30s --timeout=10s --start-period=120s --retries=3 \
    CMD [".venv/bin/python", "-m", "bot", "health"]
CMD [".venv/bin/python", "-m", "bot"]
