"""The PostgreSQL backend: one module per capability it writes its own way (see :mod:`events.postgres.stores`)."""
