"""Sending one delivery: an HTTP(S) POST to an address resolved once and
checked to be public, so that what was checked is what is reached."""

from __future__ import annotations

import contextlib
import http.client
import ipaddress
import socket
import ssl
import threading
import time
import urllib.parse
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from service.config import declared

#: How much of a receiver's answer is read (and thrown away) per attempt.
MAX_ANSWER_BYTES = 64 * 1024
#: The variable that lets operators allow non-public addresses (named in refusals).
PRIVATE_SETTING = declared("webhook_private_addresses").env


@dataclass(frozen=True)
class SendResult:
    """The receiver's answer to one POST: its status, or why there was none."""

    status_code: int | None
    error: str | None
    duration_ms: int

    @property
    def ok(self) -> bool:
        """True for a 2xx answer."""
        return self.status_code is not None and 200 <= self.status_code < 300


#: Sends one body: ``(url, body, headers, timeout) -> SendResult``.
Sender = Callable[[str, bytes, Mapping[str, str], float], SendResult]


#: IPv6 ranges that carry an IPv4 address a gateway may forward to (NAT64,
#: 6to4, IPv4-mapped and -translated): refused outright, since the embedded
#: address may be private and we cannot know what the gateway reaches.
_TUNNELS = tuple(
    ipaddress.ip_network(n)
    for n in ("64:ff9b::/96", "64:ff9b:1::/48", "2002::/16", "::ffff:0:0/96", "::ffff:0:0:0/96", "2001::/32")
)


#: IPv6 global unicast (RFC 4291 section 2.4); everything else is not public
_GLOBAL_UNICAST = ipaddress.ip_network("2000::/3")
#: blocks inside it that are not global and that this Python may not know yet
#: (documentation, RFC 9637, 2024)
_NOT_GLOBAL = (ipaddress.ip_network("3fff::/20"),)


def not_public(address: str) -> bool:
    """Whether ``address`` (an IP) is not a public unicast address.

    An allow-list, not a deny-list: an IPv4 address must be global unicast
    (not private, shared, loopback, link-local, reserved, multicast,
    broadcast, documentation...); an IPv6 address must lie in global unicast
    ``2000::/3`` and be global there (not documentation, ORCHID, ...) and
    embed no IPv4 one (NAT64, 6to4, Teredo).  So the ranges a deny-list
    forgets (``::7f00:1`` IPv4-compatible, ``fec0::/10`` site-local, and any
    block assigned later outside ``2000::/3``) are refused too."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        if ip not in _GLOBAL_UNICAST or any(ip in net for net in (*_TUNNELS, *_NOT_GLOBAL)):
            return True
        return not ip.is_global
    return not ip.is_global or ip.is_multicast or ip.is_reserved


def url_refusal(url: str) -> str | None:
    """Why a webhook ``url`` may not be registered when private addresses are
    not allowed: a literal non-public IP or a ``localhost`` name (names are
    resolved again before every attempt).  None if nothing is wrong."""
    host = (urllib.parse.urlsplit(url).hostname or "").lower()
    if host == "localhost" or host.endswith(".localhost"):
        return f"{host} is this machine; webhooks go to public addresses (operators: {PRIVATE_SETTING})"
    try:
        private = not_public(host)
    except ValueError:
        return None  # a name: checked when resolved
    if private:
        return f"{host} is not a public address; webhooks go to public addresses (operators: {PRIVATE_SETTING})"
    return None


def _connect(addresses: Sequence[str], port: int, deadline: float) -> socket.socket:
    """A socket to the first of ``addresses`` that answers (in resolver
    order), all tries together within the ``deadline`` (a monotonic time)."""
    error: OSError = OSError("no address")
    for address in addresses:
        left = deadline - time.monotonic()
        if left <= 0:
            raise TimeoutError("deadline passed while connecting")
        try:
            return socket.create_connection((address, port), left)
        except OSError as e:
            error = e
    raise error


def _error_text(error: BaseException, timeout: float) -> str:
    """What an organiser is told about a failed attempt: a fixed vocabulary
    that never repeats resolver answers, addresses or internal names."""
    if isinstance(error, socket.gaierror):
        return "the host name did not resolve"
    if isinstance(error, TimeoutError | socket.timeout):
        return f"no complete answer within {timeout:g} s"
    if isinstance(error, ssl.SSLCertVerificationError):
        return "TLS: CERTIFICATE_VERIFY_FAILED (the certificate does not match the host name or is not trusted)"
    if isinstance(error, ssl.SSLError):
        return "TLS handshake failed"
    if isinstance(error, ConnectionRefusedError):
        return "connection refused"
    if isinstance(error, ConnectionResetError | BrokenPipeError):
        return "connection reset by the receiver"
    if isinstance(error, http.client.HTTPException):
        return "the answer was not valid HTTP"
    return "connection failed"


class _PinnedHTTPConnection(http.client.HTTPConnection):
    """HTTP to addresses resolved (and checked) beforehand."""

    def __init__(self, host: str, addresses: Sequence[str], port: int, deadline: float) -> None:
        super().__init__(host, port, timeout=max(0.001, deadline - time.monotonic()))
        self._addresses = tuple(addresses)
        self._deadline = deadline

    def connect(self) -> None:
        self.sock = _connect(self._addresses, self.port, self._deadline)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    """HTTPS to addresses resolved (and checked) beforehand, with the
    certificate still verified against the URL's host name."""

    def __init__(self, host: str, addresses: Sequence[str], port: int, deadline: float) -> None:
        super().__init__(
            host, port, timeout=max(0.001, deadline - time.monotonic()), context=ssl.create_default_context()
        )
        self._addresses = tuple(addresses)
        self._deadline = deadline

    def connect(self) -> None:
        sock = _connect(self._addresses, self.port, self._deadline)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def http_send(
    url: str, body: bytes, headers: Mapping[str, str], timeout: float, allow_private: bool = True
) -> SendResult:
    """POST ``body`` to ``url`` and report the answer's status.  Redirects are
    not followed (a 3xx is a failed attempt) and no proxy is used; network
    failures (refused, timeout, DNS, TLS) become an error text, never an
    exception.  ``https`` certificates are verified.

    The host name is resolved once and the connection made to that address,
    so what was checked is what is reached: without ``allow_private`` an
    address that is not public (:func:`not_public`) is refused before
    anything is sent, whatever the name resolves to at that moment."""
    started = time.monotonic()
    deadline = started + timeout

    def elapsed() -> int:
        return int((time.monotonic() - started) * 1000)

    parts = urllib.parse.urlsplit(url)
    if parts.scheme not in ("http", "https") or not parts.hostname:
        return SendResult(None, "not an http(s) URL", 0)
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    try:
        port = parts.port or (443 if parts.scheme == "https" else 80)
        addresses = [str(info[4][0]) for info in socket.getaddrinfo(parts.hostname, port, type=socket.SOCK_STREAM)]
        if not allow_private and any(not_public(a) for a in addresses):
            return SendResult(
                None, f"{parts.hostname} resolves to an address that is not a public address ({PRIVATE_SETTING})",
                elapsed(),
            )
        pinned = _PinnedHTTPSConnection if parts.scheme == "https" else _PinnedHTTPConnection
        connection = pinned(parts.hostname, addresses, port, deadline)
        # Socket timeouts bound each read, not the whole answer: a receiver
        # trickling a byte at a time would hold the attempt for ever.  At the
        # deadline the socket is shut, which ends any read at once.
        cut = threading.Timer(max(0.0, deadline - time.monotonic()), _shut, (connection,))
        cut.daemon = True
        cut.start()
        try:
            connection.request("POST", path, body=body, headers=dict(headers))
            answer = connection.getresponse()
            answer.read(MAX_ANSWER_BYTES)
            status = int(answer.status)
        finally:
            cut.cancel()
            connection.close()
        if time.monotonic() >= deadline:
            raise TimeoutError("deadline passed")
    except (OSError, http.client.HTTPException, ValueError) as e:
        late = time.monotonic() >= deadline
        return SendResult(None, _error_text(TimeoutError() if late else e, timeout), elapsed())
    return SendResult(status, None if 200 <= status < 300 else f"HTTP {status}", elapsed())


def _shut(connection: http.client.HTTPConnection) -> None:
    """End the connection's reads and writes now (the attempt's deadline)."""
    sock = connection.sock
    if sock is not None:
        with contextlib.suppress(OSError):  # already closed
            sock.shutdown(socket.SHUT_RDWR)
