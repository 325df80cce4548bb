"""gunicorn workers that bound how long one request may take to arrive.

gunicorn waits for a request's head and body as long as the client sends a
byte now and then: a threaded (``gthread``) worker gives each such
connection a thread, a gevent worker a greenlet out of
``worker_connections``, so a few slow-header clients (threads) or a few
thousand slow-body ones (greenlets) hold every place and ``/v1/health``
stops answering.  These workers read every request through
:class:`DeadlineSocket`: from the first byte of a request, its head and body
must arrive within ``CABLECAR_REQUEST_READ_SECONDS``; after that the socket
reads as closed (end of file), so gunicorn drops a half-sent head and the app
answers a body cut short with ``400``, and the place is free again.

This bounds how long one connection holds a place, not how many places one
address takes: in production a buffering proxy in front (the compose stack's
nginx, README "Production") reads whole requests before they reach a worker
and limits connections per address.
"""

from __future__ import annotations

import functools
import socket
import time
from typing import Any

from gunicorn.workers.gthread import ThreadWorker

from service.config import Settings


class DeadlineSocket:
    """A connected socket whose reads of one request end at a deadline.

    The deadline is armed by the first byte a request brings and disarmed
    (:meth:`disarm`) when the worker starts on the next request; everything
    but reading is the socket's own (writing an answer or a stream is never
    cut short)."""

    def __init__(self, sock: socket.socket, limit: float) -> None:
        self._sock = sock
        self._limit = limit
        self._deadline: float | None = None

    def disarm(self) -> None:
        """The request is over: the next one's first byte starts its own deadline."""
        self._deadline = None

    def recv(self, size: int, *flags: int) -> bytes:
        data: bytes = self._bounded(self._sock.recv, b"", size, *flags)
        return data

    def recv_into(self, buffer: Any, *args: int) -> int:
        count: int = self._bounded(self._sock.recv_into, 0, buffer, *args)
        return count

    def _bounded(self, read: Any, closed: Any, *args: Any) -> Any:
        if self._deadline is None:
            # Waiting for a request to begin is the worker's own business (its
            # keep-alive timeout); the deadline starts with the first byte.
            got = read(*args)
            if got:
                self._deadline = time.monotonic() + self._limit
            return got
        remaining = self._deadline - time.monotonic()
        if remaining <= 0:
            return closed
        previous = self._sock.gettimeout()
        self._sock.settimeout(remaining if previous is None else min(previous, remaining))
        try:
            return read(*args)
        except TimeoutError:
            if time.monotonic() >= self._deadline:
                return closed  # read as the end of the request: the worker lets the connection go
            raise
        finally:
            self._sock.settimeout(previous)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)


def read_limit() -> float:
    """``CABLECAR_REQUEST_READ_SECONDS``, as the worker's environment says."""
    return Settings.from_env().request_read_seconds


class BoundedThreadWorker(ThreadWorker):
    """gunicorn's ``gthread`` worker, reading each request within the limit."""

    def init_process(self) -> None:
        self.read_limit = read_limit()
        super().init_process()

    def enqueue_req(self, conn: Any) -> None:
        if not isinstance(conn.sock, DeadlineSocket) and not self.cfg.is_ssl:
            conn.sock = DeadlineSocket(conn.sock, self.read_limit)
        super().enqueue_req(conn)

    def handle(self, conn: Any) -> Any:
        # one request per call: its deadline starts with its first byte
        if isinstance(conn.sock, DeadlineSocket):
            conn.sock.disarm()
        return super().handle(conn)


@functools.cache
def _gevent_worker() -> type:
    """gunicorn's ``gevent`` worker, reading each request within the limit."""
    from gunicorn.workers.ggevent import GeventWorker

    class BoundedGeventWorker(GeventWorker):
        def init_process(self) -> None:
            self.read_limit = read_limit()
            super().init_process()

        def handle(self, listener: Any, client: Any, addr: Any) -> None:
            super().handle(listener, DeadlineSocket(client, self.read_limit), addr)

        def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
            try:
                return super().handle_request(listener_name, req, sock, addr)
            finally:
                if isinstance(sock, DeadlineSocket):
                    sock.disarm()

    return BoundedGeventWorker


#: the worker classes, by the name gunicorn's ``worker_class`` gives
THREADED = "service.infra.workers.BoundedThreadWorker"
GEVENT = "service.infra.workers.BoundedGeventWorker"


def __getattr__(name: str) -> Any:
    # Built on first use: gevent's worker is imported by gevent servers only.
    if name == "BoundedGeventWorker":
        return _gevent_worker()
    raise AttributeError(name)
