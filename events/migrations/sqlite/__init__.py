"""SQLite schema migrations (applied when a SQLite store opens)."""
