"""The SQLite backend, the embedded default: one module per capability it writes its own way (see :mod:`events.sqlite.stores`)."""
