"""A raw TCP server on loopback for tests that need a peer misbehaving below
HTTP (trickling, cutting answers short, never answering)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager


@contextmanager
def raw_server(handle: Callable[[socket.socket, threading.Event], None]) -> Iterator[str]:
    """Serve each connection with ``handle(conn, stop)`` in a thread of its
    own; yields ``http://127.0.0.1:<port>``.  ``stop`` is set on exit."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    stop = threading.Event()

    def serve() -> None:
        listener.settimeout(0.2)
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            except OSError:
                return  # closed on exit
            threading.Thread(target=handle, args=(conn, stop), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{listener.getsockname()[1]}"
    finally:
        stop.set()
        thread.join(1)
        listener.close()
