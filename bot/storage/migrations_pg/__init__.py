"""Numbered PostgreSQL migrations (NNNN_name.sql), applied by bot.storage.postgres."""
