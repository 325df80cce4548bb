"""Versioned SQL schema files, one folder per database dialect.

``postgres/NNNN_name.sql`` and ``sqlite/NNNN_name.sql`` are applied in name
order and recorded in ``schema_migrations`` (see :mod:`events.migrations.apply`).  An
applied file is never edited: later changes go in a new file.
"""
