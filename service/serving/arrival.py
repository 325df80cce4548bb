"""Whether a request has arrived whole, and how many unfinished requests one
address may hold in a worker (issue 36).

A request is *unfinished* from its first byte until its head and body are in:
the body by ``Content-Length``, or by its chunked framing (every chunk, the
last one and the trailers).  Clients that announce a body and then send
nothing (a huge chunk, a large ``Content-Length``) are cut off by the read
deadline (``CABLECAR_REQUEST_READ_SECONDS``); until then each holds a place,
so a worker lets one address hold at most :data:`PER_ADDRESS` of them and
closes an address's further connections as soon as their first byte comes
(:class:`AddressGate`).  A buffering proxy in front sends each request whole
at once, so its unfinished requests last no time.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

#: the most a worker buffers of one request before it is handed on as it is
#: (the app refuses bodies over 64 KiB); only bytes that came count, not what
#: a head announces
BUFFER_LIMIT = 128 * 1024

#: the most unfinished requests one client address holds in one worker
PER_ADDRESS = 8


def request_complete(data: bytes) -> bool:
    """Whether ``data`` holds a whole request (its head, and its body by
    ``Content-Length`` or by its chunked framing), or as much as is worth
    waiting for before the app sees it: a head asking ``Expect:
    100-continue`` (its client waits for an answer before sending the body),
    a head the app will refuse anyway (a framing it cannot read), or more than
    :data:`BUFFER_LIMIT` bytes."""
    if len(data) > BUFFER_LIMIT:
        return True
    end = data.find(b"\r\n\r\n")
    if end < 0:
        return False
    length, chunked = 0, False
    for line in data[:end].split(b"\r\n")[1:]:
        name, _, value = line.partition(b":")
        name, value = name.strip().lower(), value.strip().lower()
        if name == b"content-length" and value.isdigit():
            length = int(value)
        elif name == b"transfer-encoding":
            if not value.endswith(b"chunked"):
                return True  # not a framing read here: the app answers it at once
            chunked = True
        elif name == b"expect" and value == b"100-continue":
            return True
    body = data[end + 4:]
    return chunked_complete(body) if chunked else len(body) >= length


def chunked_complete(body: bytes) -> bool:
    """Whether ``body`` holds a whole chunked body: chunks up to the last
    (size 0) and the trailers' end; a malformed one counts as whole (the app
    refuses it)."""
    at = 0
    while True:
        eol = body.find(b"\r\n", at)
        if eol < 0:
            return False
        size_text = body[at:eol].split(b";", 1)[0].strip()
        try:
            size = int(size_text, 16)
        except ValueError:
            return True
        if size < 0:
            return True
        if size == 0:
            # trailers: none (an empty line at once) or lines up to an empty one
            return body.find(b"\r\n\r\n", eol) >= 0
        at = eol + 2 + size + 2
        if len(body) < at:
            return False


class AddressGate:
    """The unfinished requests of one worker, counted by client address.

    Used by one thread only (a threaded worker's event loop, or a gevent
    worker's greenlets): no lock."""

    def __init__(self, limit: int = PER_ADDRESS) -> None:
        self.limit = limit
        self._count: Counter[Any] = Counter()

    def enter(self, client: Any) -> bool:
        """A request from ``client`` begins: ``False`` (and not counted) when
        its address already holds as many unfinished requests as allowed."""
        host = address_of(client)
        if self._count[host] >= self.limit:
            return False
        self._count[host] += 1
        return True

    def leave(self, client: Any) -> None:
        """A request counted by :meth:`enter` has arrived, or was given up."""
        host = address_of(client)
        self._count[host] -= 1
        if self._count[host] <= 0:
            del self._count[host]

    def held(self, client: Any) -> int:
        return self._count[address_of(client)]


def address_of(client: Any) -> Any:
    """The address part of a peer name (``(host, port)``, or a Unix socket's name)."""
    return client[0] if isinstance(client, tuple) and client else client
