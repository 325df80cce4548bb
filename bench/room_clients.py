"""The room benchmark's clients (``bench/bench_room.py``): event streams read
as a browser's ``EventSource`` reads them and hostile slow connections, all
held open without a thread each; a keep-alive API client; the health probe.

Every connection is a raw socket from a loopback address of its own choosing
(Linux routes all of 127.0.0.0/8 to the loopback interface), so that the
server's per-address rules see as many clients as the room has."""

from __future__ import annotations

import http.client
import json
import re
import selectors
import socket
import threading
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

_ID = re.compile(rb"^id: (\d+)$", re.M)
_RETRY_AFTER = re.compile(rb"\r\nretry-after: *(\d+)", re.I)


@dataclass(eq=False)
class Stream:
    """One ``GET /v1/games/{id}/events/stream`` on a raw socket: its status, and
    when each event id first arrived (monotonic seconds)."""

    game: str
    source: str
    kind: str  # "seat" or "spectator"
    query: str = ""
    sock: socket.socket | None = None
    status: int | None = None
    retry_after: int | None = None
    arrived: dict[int, float] = field(default_factory=dict)
    ended: bool = False
    _raw: bytes = b""
    _body: bytes = b""
    _chunked: bool = False

    def open(self, port: int) -> None:
        self.sock = socket.create_connection(("127.0.0.1", port), timeout=10, source_address=(self.source, 0))
        self.sock.sendall((f"GET /v1/games/{self.game}/events/stream{self.query} HTTP/1.1\r\nHost: cablecar\r\n"
                           "Accept: text/event-stream\r\nCache-Control: no-cache\r\n\r\n").encode())
        self.sock.setblocking(False)

    def feed(self, data: bytes, now: float) -> None:
        """Take what arrived: the head once, then the (chunked) body's event ids."""
        if self.status is None:
            self._raw += data
            head, found, rest = self._raw.partition(b"\r\n\r\n")
            if not found:
                return
            self.status = int(head.split(b" ", 2)[1])
            self._chunked = b"transfer-encoding: chunked" in head.lower()
            m = _RETRY_AFTER.search(head)
            self.retry_after = int(m.group(1)) if m else None
            self._raw, data = b"", rest
        if self._chunked:
            self._raw += data
            data = b""
            while True:  # whole chunks only
                size_line, found, rest = self._raw.partition(b"\r\n")
                if not found:
                    break
                size = int(size_line.split(b";")[0] or b"0", 16)
                if size == 0:
                    self.ended = True
                    self._raw = b""
                    break
                if len(rest) < size + 2:
                    break
                data += rest[:size]
                self._raw = rest[size + 2:]
        self._body += data
        messages, sep, self._body = self._body.rpartition(b"\n\n")
        for m in _ID.finditer(messages):
            self.arrived.setdefault(int(m.group(1)), now)

    def close(self) -> None:
        if self.sock is not None:
            self.sock.close()


class StreamReader:
    """One thread reading every open stream, and telling a game's players when
    new events of it arrived (:meth:`wait_past`)."""

    def __init__(self) -> None:
        self._sel = selectors.DefaultSelector()
        self._lock = threading.Lock()
        self._news = threading.Condition(self._lock)
        self._latest: dict[str, int] = {}
        self.stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="room-streams", daemon=True)

    def add(self, streams: Iterable[Stream]) -> None:
        for s in streams:
            assert s.sock is not None
            self._sel.register(s.sock, selectors.EVENT_READ, s)

    def start(self) -> None:
        self._thread.start()

    def wait_past(self, game: str, version: int, timeout: float) -> None:
        """Until a stream of ``game`` saw an event after ``version`` (or ``timeout``)."""
        with self._news:
            self._news.wait_for(lambda: self._latest.get(game, 0) > version, timeout)

    def _run(self) -> None:
        while not self.stop.is_set():
            if not self._sel.get_map():
                time.sleep(0.05)
                continue
            for key, _ in self._sel.select(0.2):
                s: Stream = key.data
                assert s.sock is not None
                try:
                    chunk = s.sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    chunk = b""
                now = time.monotonic()
                if not chunk:
                    s.ended = True
                    self._sel.unregister(s.sock)
                    continue
                s.feed(chunk, now)
                if s.arrived:
                    top = max(s.arrived)
                    if top > self._latest.get(s.game, 0):
                        with self._news:
                            self._latest[s.game] = top
                            self._news.notify_all()

    def close(self) -> None:
        self.stop.set()
        if self._thread.is_alive():
            self._thread.join(5)
        self._sel.close()


#: what a hostile connection sends first, and whether it then trickles a byte every 0.2 s
HOSTILE = {
    "slow-header": (b"GET /v1/health HTTP/1.1\r\nHost: x\r\nX-Slow: ", True),
    "slow-body": (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  b"Content-Length: 4000\r\n\r\n{", True),
    "lying-chunked": (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                      b"Transfer-Encoding: chunked\r\n\r\n7fffffff\r\n{\"", False),
}


class Hostile:
    """``count`` slow or lying connections from ``sources`` (the kinds of
    :data:`HOSTILE` in turn), one thread for all of them: each is reopened as
    soon as the server lets it go, for as long as the room runs."""

    def __init__(self, port: int, count: int, sources: list[str]) -> None:
        self.port = port
        self.slots = [(list(HOSTILE)[i % len(HOSTILE)], sources[i % len(sources)]) for i in range(count)]
        self.socks: list[socket.socket | None] = [None] * count
        self.opened = 0
        self.cut = 0  # connections the server closed (or refused)
        self.stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="room-hostile", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def _open(self, i: int) -> None:
        kind, source = self.slots[i]
        try:
            s = socket.create_connection(("127.0.0.1", self.port), timeout=2, source_address=(source, 0))
            s.sendall(HOSTILE[kind][0])
            s.setblocking(False)
            self.socks[i] = s
            self.opened += 1
        except OSError:
            self.socks[i] = None
            self.cut += 1

    def _run(self) -> None:
        while not self.stop.wait(0.2):
            for i, s in enumerate(self.socks):
                if s is None:
                    self._open(i)
                    continue
                try:
                    if HOSTILE[self.slots[i][0]][1]:
                        s.send(b"a")
                    if s.recv(4096, socket.MSG_PEEK) == b"":
                        raise ConnectionResetError
                    s.recv(4096)  # an answer (408, 400...): the server is done with it
                    raise ConnectionResetError
                except BlockingIOError:
                    continue
                except OSError:
                    s.close()
                    self.cut += 1
                    self._open(i)

    def close(self) -> None:
        self.stop.set()
        if self._thread.is_alive():
            self._thread.join(5)
        for s in self.socks:
            if s is not None:
                s.close()


class Api:
    """A keep-alive HTTP connection from one source address."""

    def __init__(self, port: int, source: str) -> None:
        self.port, self.source = port, source
        self.conn: http.client.HTTPConnection | None = None

    def call(self, method: str, path: str, body: Any = None, token: str | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, Any, float]:
        """Status, JSON body (or None) and seconds taken; one retry on a dropped connection."""
        hdrs = {"Content-Type": "application/json", **(headers or {})}
        if token:
            hdrs["Authorization"] = f"Bearer {token}"
        data = None if body is None else json.dumps(body).encode()
        for attempt in (1, 2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30,
                                                       source_address=(self.source, 0))
            started = time.monotonic()
            try:
                self.conn.request(method, path, data, hdrs)
                resp = self.conn.getresponse()
                raw = resp.read()
            except (OSError, http.client.HTTPException):
                self.conn.close()
                self.conn = None
                if attempt == 2:
                    raise
                continue
            took = time.monotonic() - started
            try:
                return resp.status, json.loads(raw) if raw else None, took
            except ValueError:
                return resp.status, None, took
        raise AssertionError("unreachable")


def health_probe(port: int, stop: threading.Event, out: list[float], at: list[float] | None = None) -> None:
    """``GET /v1/health`` on a new connection every half second, as a load balancer asks: the seconds
    each took (``inf``: failed) in ``out``, when each was asked in ``at``."""
    while not stop.wait(0.5):
        started = time.monotonic()
        if at is not None:
            at.append(started)
        try:
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            conn.request("GET", "/v1/health")
            ok = conn.getresponse().status == 200
            conn.close()
            out.append(time.monotonic() - started if ok else float("inf"))
        except OSError:
            out.append(float("inf"))


def _apart(send: Any, stop: Any, kind: str, args: tuple[Any, ...]) -> None:
    if kind == "health":
        out: list[float] = []
        at: list[float] = []
        health_probe(args[0], stop, out, at)
        send.send((out, at))
        return
    hostile = Hostile(*args)
    hostile.start()
    stop.wait()
    hostile.close()
    send.send((hostile.opened, hostile.cut))


class Apart:
    """The health probe (``"health"``: ``port``) or the hostile connections
    (``"hostile"``: :class:`Hostile`'s arguments) in a process of their own, so
    that the bench's busy threads (its GIL) neither delay the probe nor slow
    the attack; :meth:`finish` stops it and answers what it saw."""

    def __init__(self, kind: str, *args: Any) -> None:
        import multiprocessing

        ctx = multiprocessing.get_context("fork")
        self.stop = ctx.Event()
        self._results, send = ctx.Pipe(duplex=False)
        self.proc = ctx.Process(target=_apart, args=(send, self.stop, kind, args), daemon=True)
        self.proc.start()

    def finish(self) -> Any:
        self.stop.set()
        result = self._results.recv() if self._results.poll(30) else None
        self.proc.join(10)
        return result
