"""Following a game's live event stream from Python, with the standard library alone.

The generated client (``clients/python``, openapi-python-client) reads an
answer's body once it is complete, so it cannot watch a stream that stays open
while the game goes on.  This helper sits beside it: :func:`follow` opens
``GET /v1/games/{id}/events/stream``, parses the Server-Sent Events line by
line as they arrive, reopens a stream the server closed before the game's
end with ``Last-Event-ID`` (every event once, in order), and ends with the
``end`` message, which carries the game's final ``status``::

    from cablecar_stream import follow

    for kind, data in follow("http://127.0.0.1:8000", game_id, token=seat_token):
        if kind == "event":
            print(data["seq"], data["type"], data["payload"])
        else:  # "end"
            print("over:", data["status"], "at version", data["version"])

Copy the file into a project, or put ``clients/python_stream`` on ``sys.path``.
"""

from __future__ import annotations

import json
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from typing import Any

#: a message: ``("event", <Event JSON>)`` or ``("end", {"version", "status"})``
Message = tuple[str, dict[str, Any]]


def _messages(lines: Iterator[bytes]) -> Iterator[tuple[str, str]]:
    """``(event name, data)`` of each SSE message, as soon as its blank line arrives."""
    event, data = "message", []
    for raw in lines:
        line = raw.decode("utf-8").rstrip("\r\n")
        if not line:
            if data:
                yield event, "\n".join(data)
            event, data = "message", []
            continue
        if line.startswith(":"):
            continue  # a comment: keep-alive
        field, _, value = line.partition(":")
        value = value.removeprefix(" ")
        if field == "event":
            event = value
        elif field == "data":
            data.append(value)


def follow(
    base_url: str,
    game_id: str,
    token: str | None = None,
    after: int = 0,
    timeout: float = 60.0,
    max_reconnects: int = 5,
) -> Iterator[Message]:
    """Every event of the game after seq ``after`` as it happens, then its end.

    ``token``: a seat token sees its own secrets (others' are ``null``);
    without one the stream is a spectator's.  ``timeout``: seconds without a
    byte (the server sends a keep-alive every few seconds) before the read
    fails.  Raises ``urllib.error.HTTPError`` for a refused stream and
    ``ConnectionError`` after ``max_reconnects`` reopenings in a row that
    brought nothing new."""
    last, quiet = after, 0
    url = f"{base_url.rstrip('/')}/v1/games/{urllib.parse.quote(game_id, safe='')}/events/stream"
    while True:
        headers = {"Accept": "text/event-stream", "Last-Event-ID": str(last)}
        if token:
            headers["Authorization"] = f"Bearer {token}"
        progressed = False
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=timeout) as resp:
            for event, data in _messages(iter(resp.readline, b"")):
                if event == "end":
                    yield "end", json.loads(data)
                    return
                if event != "message":
                    continue  # a kind of message this helper does not know
                parsed = json.loads(data)
                if parsed["seq"] <= last:
                    continue
                last, progressed = parsed["seq"], True
                yield "event", parsed
        # closed before the end (the server's stream lifetime, a restart): reopen after the last event
        quiet = 0 if progressed else quiet + 1
        if quiet > max_reconnects:
            raise ConnectionError(f"the stream of {game_id} closed {quiet} times without news")
        if not progressed:
            time.sleep(0.5)
