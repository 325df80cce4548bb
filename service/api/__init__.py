"""The HTTP edge (Flask): the app factory, routes, schemas, the one problem+json mapping, streams and rate limits."""
