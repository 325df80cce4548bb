"""The service's WSGI app plus a bench-only counter of its cache outcomes.

``gunicorn -c python:service.serving.gunicorn_conf bench.load.instrumented_wsgi:app``
serves exactly ``service.serving.wsgi:app`` (the middleware wraps its ``wsgi_app``, so
gunicorn's worker hooks still find the Flask app); after a request, at most every
``INTERVAL`` seconds, the worker writes its :class:`service.adapters.cache.CacheStats`
(hits, partial hits, misses, errors) to ``$CABLECAR_BENCH_STATS_DIR/<pid>.json``
so the harness can add up the counters of every worker, including workers
that were killed (their last file stays).
"""

from __future__ import annotations

import json
import os
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import asdict
from pathlib import Path
from typing import Any

from service.api.runtime import Runtime
from service.serving.wsgi import app as service_app

#: seconds between dumps: each is a file write and a rename, which blocks a gevent worker
INTERVAL = 1.0

StartResponse = Callable[..., Any]


class CacheStatsMiddleware:
    """WSGI middleware that periodically dumps the cache counters of this worker."""

    def __init__(self, wrapped: Any, runtime: Runtime, folder: Path) -> None:
        self.wrapped = wrapped
        self.runtime = runtime
        self.folder = folder
        self._next_dump = 0.0
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, Any], start_response: StartResponse) -> Iterable[bytes]:
        try:
            result: Iterable[bytes] = self.wrapped(environ, start_response)
            return result
        finally:
            now = time.monotonic()
            if now >= self._next_dump and self._lock.acquire(blocking=False):
                try:
                    self._next_dump = now + INTERVAL
                    self.dump()
                finally:
                    self._lock.release()

    def dump(self) -> None:
        """Write this worker's counters (atomically: temp file + rename)."""
        pid = os.getpid()
        target = self.folder / f"{pid}.json"
        tmp = self.folder / f".{pid}.tmp"
        tmp.write_text(json.dumps(asdict(self.runtime.cache.stats)))
        tmp.replace(target)


def _build() -> Any:
    folder = os.environ.get("CABLECAR_BENCH_STATS_DIR")
    if not folder:
        return service_app
    path = Path(folder)
    path.mkdir(parents=True, exist_ok=True)
    runtime = service_app.extensions["cablecar"]
    assert isinstance(runtime, Runtime)
    service_app.wsgi_app = CacheStatsMiddleware(service_app.wsgi_app, runtime, path)  # type: ignore[method-assign]
    return service_app


app = _build()
