"""PostgreSQL schema migrations (applied by :func:`events.migrations.apply.migrate`)."""
