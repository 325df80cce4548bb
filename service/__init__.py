"""The HTTP service: app factory, schemas, routes, cache, config, CLI."""
