"""The game service, in four folders by job, imports pointing one way:

``serving`` (how it runs: gunicorn, workers, health check) → ``api`` (the HTTP
edge: Flask app, routes, schemas, problem+json, streams, rate limits) →
``usecases`` (what a caller may ask, no Flask) → ``adapters`` (what the use
cases use: cache, tokens, keys, idempotency, Redis places, webhook transport)
→ the shared vocabulary at this level (``config``, ``errors``, ``location``)."""
