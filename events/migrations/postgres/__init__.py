"""PostgreSQL schema migrations (applied by :func:`events.migrate.migrate`)."""
