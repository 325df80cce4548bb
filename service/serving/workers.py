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

The threaded worker goes further: its event loop reads each request whole
before a thread takes it (:class:`BoundedThreadWorker`), so a slow client
holds no thread at all.

This bounds how long one connection holds a place, not how many places one
address takes: in production a buffering proxy in front (the compose stack's
nginx, README "Production") reads whole requests before they reach a worker
and limits connections per address.
"""

from __future__ import annotations

import functools
import selectors
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


#: the most a threaded worker buffers of one request before a thread takes it
#: (a larger request is handed over at once: the app refuses bodies over 64 KiB)
BUFFER_LIMIT = 128 * 1024


def request_complete(data: bytes) -> bool:
    """Whether ``data`` holds a whole request (its head, and its body by
    ``Content-Length``), or as much as is worth waiting for without a thread:
    a head asking ``Expect: 100-continue`` or with a chunked body, or more
    than :data:`BUFFER_LIMIT`, goes to a thread as it is (where the read
    deadline still applies)."""
    if len(data) > BUFFER_LIMIT:
        return True
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return False
    length = 0
    for line in data[:end].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        name, value = name.strip().lower(), value.strip().lower()
        if name == b"content-length" and value.isdigit():
            length = int(value)
        elif name == b"transfer-encoding" or (name == b"expect" and value == b"100-continue"):
            return True
    return len(data) - end - 4 >= length or length > BUFFER_LIMIT


class BoundedThreadWorker(ThreadWorker):
    """gunicorn's ``gthread`` worker, where a thread takes a request only once
    it has arrived: the worker's event loop reads each request (head and body)
    into a buffer, without a thread, for at most the read limit (then the
    connection is closed), and hands it to a thread whole.  So slow clients
    hold a few kilobytes of memory each, never a thread; a request handed
    over before it is whole (``request_complete``) is still read through a
    :class:`DeadlineSocket`."""

    def init_process(self) -> None:
        self.read_limit = read_limit()
        self._reading: dict[Any, float] = {}  # connection -> deadline of its request
        super().init_process()

    def enqueue_req(self, conn: Any) -> None:
        if not isinstance(conn.sock, DeadlineSocket) and not self.cfg.is_ssl:
            conn.sock = DeadlineSocket(conn.sock, self.read_limit)
        buffered = conn.initialized and conn.parser is not None and conn.parser.unreader.buf.getvalue()
        if self.cfg.is_ssl or buffered or not self.alive:
            super().enqueue_req(conn)  # a request read ahead already: a thread takes it now
            return
        conn.pending_request = b""
        conn.sock.setblocking(False)
        self._reading[conn] = time.monotonic() + self.read_limit
        self.poller.register(conn.sock, selectors.EVENT_READ, functools.partial(self._on_request_bytes, conn))

    def _on_request_bytes(self, conn: Any, _client: Any) -> None:
        try:
            data = conn.sock.recv(65536)
        except (BlockingIOError, InterruptedError):
            return
        except OSError:
            data = b""
        if not data:
            self._drop(conn)
            return
        conn.pending_request += data
        if request_complete(conn.pending_request):
            self.poller.unregister(conn.sock)
            del self._reading[conn]
            conn.data_ready = True
            super().enqueue_req(conn)

    def _drop(self, conn: Any) -> None:
        self.poller.unregister(conn.sock)
        del self._reading[conn]
        self.nr_conns -= 1
        conn.close()

    def murder_pending(self) -> None:
        """Also close the connections whose request did not arrive in time."""
        super().murder_pending()
        now = time.monotonic()
        for conn in [c for c, deadline in self._reading.items() if deadline <= now]:
            self._drop(conn)

    def handle(self, conn: Any) -> Any:
        # one request per call: its deadline starts with its first byte
        if isinstance(conn.sock, DeadlineSocket):
            conn.sock.disarm()
        pending = getattr(conn, "pending_request", b"")
        if pending:
            conn.pending_request = b""
            conn.sock.setblocking(True)
            conn.init()
            conn.parser.unreader.unread(pending)
        return super().handle(conn)


@functools.cache
def _gevent_worker() -> type:
    """gunicorn's ``gevent`` worker (stopping without waiting on idle
    connections: :mod:`service.serving.gevent_worker`), reading each request
    within the limit."""
    from service.serving.gevent_worker import GeventWorker

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
THREADED = "service.serving.workers.BoundedThreadWorker"
GEVENT = "service.serving.workers.BoundedGeventWorker"


def __getattr__(name: str) -> Any:
    # Built on first use: gevent's worker is imported by gevent servers only.
    if name == "BoundedGeventWorker":
        return _gevent_worker()
    raise AttributeError(name)
