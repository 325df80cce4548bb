"""A WSGI app (the real one, usually) served over real HTTP on a loopback port, for tests."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from werkzeug.serving import make_server


@contextmanager
def served(app: Any) -> Iterator[str]:
    """Serve ``app`` on a free loopback port (threaded); yields ``http://127.0.0.1:<port>``."""
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()
        thread.join(5)
