"""A small keep-alive JSON client that times every request.

Each load client owns one :class:`Connection` (like a browser tab or a
``requests.Session``).  A request sent on a *reused* connection that the
server had already closed (keep-alive timeout, a restarted worker) is sent
again once on a fresh connection, as every HTTP client library does; those
resends are counted, never hidden.
"""

from __future__ import annotations

import http.client
import json
import socket
import struct
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from domain.core import JSON

#: Transport failures: the request got no HTTP answer.
TRANSPORT_ERRORS: tuple[type[BaseException], ...] = (
    http.client.HTTPException, ConnectionError, TimeoutError, socket.timeout, OSError,
)


@dataclass(frozen=True)
class Answer:
    """One HTTP answer: status, decoded JSON body (None if not JSON), headers, seconds."""

    status: int
    body: JSON
    content_type: str
    retry_after: float | None
    seconds: float

    @property
    def code(self) -> str:
        """The problem+json ``code`` ('' for a success or a non-problem body)."""
        if isinstance(self.body, dict):
            return str(self.body.get("code", ""))
        return ""

    @property
    def is_problem(self) -> bool:
        """Whether the body is an RFC 9457 problem document with a code."""
        return self.content_type.startswith("application/problem+json") and bool(self.code)


class TransportFailure(Exception):
    """No HTTP answer (connection refused, reset, timed out)."""

    def __init__(self, error: BaseException, seconds: float) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.error = error
        self.seconds = seconds


class Connection:
    """One persistent HTTP/1.1 connection to the server."""

    def __init__(self, base_url: str, timeout: float = 30.0) -> None:
        parts = urlsplit(base_url)
        self.host = parts.hostname or "127.0.0.1"
        self.port = parts.port or 80
        self.timeout = timeout
        self._conn: http.client.HTTPConnection | None = None
        self._used = False
        self.resends = 0

    def close(self) -> None:
        """Close the socket (a new one is opened by the next request)."""
        if self._conn is not None:
            self._conn.close()
        self._conn = None
        self._used = False

    def request(
        self,
        method: str,
        path: str,
        body: JSON = None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        """Send one JSON request and read the whole answer; TransportFailure if none came."""
        data = None if body is None else json.dumps(body).encode()
        return self.request_raw(method, path, data, token, headers)

    def request_raw(
        self,
        method: str,
        path: str,
        data: bytes | None,
        token: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> Answer:
        """Send ``data`` as the body (labelled application/json, whatever it holds)."""
        all_headers = {"Accept": "application/json", **(headers or {})}
        if data is not None:
            all_headers["Content-Type"] = "application/json"
        if token:
            all_headers["Authorization"] = f"Bearer {token}"
        started = time.perf_counter()
        for attempt in (0, 1):
            reused = self._used
            try:
                return self._once(method, path, data, all_headers, started)
            except TRANSPORT_ERRORS as e:
                self.close()
                if attempt == 0 and reused and isinstance(
                    e, http.client.RemoteDisconnected | ConnectionResetError | BrokenPipeError
                ):
                    self.resends += 1
                    continue
                raise TransportFailure(e, time.perf_counter() - started) from e
        raise AssertionError("unreachable")  # pragma: no cover

    def _once(self, method: str, path: str, data: bytes | None, headers: dict[str, str], started: float) -> Answer:
        if self._conn is None:
            self._conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
            self._used = False
        self._conn.request(method, path, data, headers)
        self._used = True
        resp = self._conn.getresponse()
        raw = resp.read()
        seconds = time.perf_counter() - started
        if resp.will_close:
            self.close()
        content_type = resp.getheader("Content-Type", "") or ""
        try:
            decoded = json.loads(raw) if raw and "json" in content_type else None
        except ValueError:
            decoded = None
        retry = resp.getheader("Retry-After")
        try:
            retry_after = float(retry) if retry else None
        except ValueError:
            retry_after = None
        return Answer(resp.status, decoded, content_type, retry_after, seconds)


def send_and_drop(base_url: str, path: str, body: JSON, headers: dict[str, str], linger: float) -> None:
    """Send a complete POST, wait ``linger`` seconds, then reset the connection
    without reading the answer: the server may or may not have handled the
    request, and the client never learns which (a dropped response)."""
    parts = urlsplit(base_url)
    data = json.dumps(body).encode()
    lines = [
        f"POST {path} HTTP/1.1",
        f"Host: {parts.hostname}:{parts.port}",
        "Content-Type: application/json",
        f"Content-Length: {len(data)}",
        "Connection: close",
        *(f"{k}: {v}" for k, v in headers.items()),
    ]
    raw = ("\r\n".join(lines) + "\r\n\r\n").encode() + data
    with socket.create_connection((parts.hostname or "127.0.0.1", parts.port or 80), timeout=5) as sock:
        sock.sendall(raw)
        time.sleep(linger)
        # RST instead of FIN: an answer not yet read is thrown away.
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
