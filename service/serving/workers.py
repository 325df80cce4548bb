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

A chunked body is read by its framing like any other (issue 36), and one
address holds at most :data:`~service.serving.arrival.PER_ADDRESS` unfinished
requests in a worker: a connection bringing one more is closed at its first
byte (:mod:`service.serving.arrival`).  In production a buffering proxy in
front (the compose stack's nginx, docs/production.md) also reads whole
requests before they reach a worker and limits connections per address.
"""

from __future__ import annotations

import functools
import selectors
import socket
import time
from typing import Any

from gunicorn.workers.gthread import ThreadWorker

from service.config import Settings
from service.serving.arrival import BUFFER_LIMIT, AddressGate, request_complete

__all__ = ["BUFFER_LIMIT", "GEVENT", "THREADED", "DeadlineSocket", "read_limit", "request_complete"]


class DeadlineSocket:
    """A connected socket whose reads of one request end at a deadline.

    The deadline is armed by the first byte a request brings (or by
    :meth:`arm`, for a request whose first bytes were read elsewhere) and
    disarmed (:meth:`disarm`) when the worker starts on the next request;
    everything but reading is the socket's own (writing an answer or a stream
    is never cut short).  Given a ``gate``, the request counts as unfinished
    for its client's address from its first byte until the bytes read hold it
    whole (:func:`request_complete`), and a first byte beyond the address's
    allowance reads as closed."""

    def __init__(self, sock: socket.socket, limit: float, gate: AddressGate | None = None,
                 client: Any = None) -> None:
        self._sock = sock
        self._limit = limit
        self._deadline: float | None = None
        self._gate = gate
        self._client = client
        self._seen: bytes | None = None  # the request read so far, while it counts as unfinished

    def arm(self, deadline: float) -> None:
        """The request began earlier: its reads end at ``deadline`` (a ``time.monotonic()``)."""
        self._deadline = deadline

    @property
    def unfinished(self) -> bool:
        """Whether the request counts as unfinished (given a gate): its bytes are not all in."""
        return self._seen is not None

    def disarm(self) -> None:
        """The request is over: the next one's first byte starts its own deadline."""
        self.release()
        self._deadline = None

    def release(self) -> None:
        """No longer count the request as unfinished (it arrived, or the connection ends)."""
        if self._seen is not None and self._gate is not None:
            self._gate.leave(self._client)
        self._seen = None

    def recv(self, size: int, *flags: int) -> bytes:
        data: bytes = self._bounded(self._sock.recv, b"", size, *flags)
        self._saw(data)
        return data

    def recv_into(self, buffer: Any, *args: int) -> int:
        count: int = self._bounded(self._sock.recv_into, 0, buffer, *args)
        self._saw(bytes(memoryview(buffer)[:count]) if self._seen is not None else b"")
        return count

    def _saw(self, data: bytes) -> None:
        if self._seen is not None and data:
            self._seen += data
            if request_complete(self._seen):
                self.release()

    def _bounded(self, read: Any, closed: Any, *args: Any) -> Any:
        if self._deadline is None:
            # Waiting for a request to begin is the worker's own business (its
            # keep-alive timeout); the deadline starts with the first byte.
            got = read(*args)
            if got:
                self._deadline = time.monotonic() + self._limit
                if self._gate is not None:
                    if not self._gate.enter(self._client):
                        self._deadline = 0.0  # one unfinished request too many: read as closed
                        return closed
                    self._seen = b""
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
    """gunicorn's ``gthread`` worker, where a thread takes a request only once
    it has arrived: the worker's event loop reads each request (head and body)
    into a buffer, without a thread, for at most the read limit (then the
    connection is closed), and hands it to a thread whole.  So slow clients
    hold a few kilobytes of memory each, never a thread (a chunked body is
    read by its framing, not handed on at its head); a request handed over
    before it is whole (``request_complete``: ``Expect: 100-continue``, or
    over :data:`BUFFER_LIMIT`) is still read through a :class:`DeadlineSocket`
    armed with the deadline its first byte set.  One address holds at most
    :data:`~service.serving.arrival.PER_ADDRESS` requests being read: a
    connection bringing one more is closed at its first byte."""

    def init_process(self) -> None:
        self.read_limit = read_limit()
        self._reading: dict[Any, float] = {}  # connection -> deadline of its request
        self._gate = AddressGate()  # the requests begun in _reading, by address
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
        if not conn.pending_request:
            if not self._gate.enter(conn.client):
                self._drop(conn)  # its address holds enough unfinished requests already
                return
            conn.read_deadline = self._reading[conn]
        conn.pending_request += data
        if request_complete(conn.pending_request):
            self._stop_reading(conn)
            conn.data_ready = True
            super().enqueue_req(conn)

    def _stop_reading(self, conn: Any) -> None:
        self.poller.unregister(conn.sock)
        del self._reading[conn]
        if conn.pending_request:
            self._gate.leave(conn.client)

    def _drop(self, conn: Any) -> None:
        self._stop_reading(conn)
        self.nr_conns -= 1
        conn.close()

    def murder_pending(self) -> None:
        """Also close the connections whose request did not arrive in time."""
        super().murder_pending()
        now = time.monotonic()
        for conn in [c for c, deadline in self._reading.items() if deadline <= now]:
            self._drop(conn)

    def handle(self, conn: Any) -> Any:
        # one request per call: its deadline starts with its first byte, or
        # went on from the event loop's, which read its first bytes
        pending = getattr(conn, "pending_request", b"")
        if isinstance(conn.sock, DeadlineSocket):
            conn.sock.disarm()
            if pending:
                conn.sock.arm(conn.read_deadline)
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
    within the limit, one address reading at most
    :data:`~service.serving.arrival.PER_ADDRESS` at a time."""
    from service.serving.gevent_worker import GeventWorker

    class BoundedGeventWorker(GeventWorker):
        def init_process(self) -> None:
            self.read_limit = read_limit()
            self.gate = AddressGate()  # requests being read, by address
            super().init_process()

        def handle(self, listener: Any, client: Any, addr: Any) -> None:
            sock = DeadlineSocket(client, self.read_limit, self.gate, addr)
            try:
                super().handle(listener, sock, addr)
            finally:
                sock.release()

        def handle_request(self, listener_name: Any, req: Any, sock: Any, addr: Any) -> Any:
            try:
                return super().handle_request(listener_name, req, sock, addr)
            finally:
                if isinstance(sock, DeadlineSocket):
                    if sock.unfinished:
                        # answered before its body came (a 413 at its head): the rest is
                        # not waited for, the connection ends (not drained for a next one)
                        sock.arm(0.0)
                    else:
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
