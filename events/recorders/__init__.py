"""The interfaces of the stores, one per capability (each a few methods)."""
