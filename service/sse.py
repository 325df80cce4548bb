"""Server-Sent Events for a game's event log.

Each connection sends the events after the client's position (``Last-Event-ID``
or ``?after=``), then waits for new ones *in the event store*
(``EventStore.wait_for_events``: LISTEN/NOTIFY on PostgreSQL, polling on
SQLite), so any worker on any host wakes up when any other one appends.
Comment lines keep idle connections alive; after ``max_seconds`` the server
closes the stream and the client reconnects with ``Last-Event-ID``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator

from service.auth import Caller
from service.queries import GameQueries


def format_event(event_id: int | None, data: object, event: str | None = None) -> str:
    """One SSE message."""
    lines = []
    if event_id is not None:
        lines.append(f"id: {event_id}")
    if event:
        lines.append(f"event: {event}")
    text = json.dumps(data, separators=(",", ":"))
    lines.append(f"data: {text}")
    return "\n".join(lines) + "\n\n"


def stream(
    queries: GameQueries,
    game_id: str,
    caller: Caller,
    after: int,
    max_seconds: float,
    heartbeat: float,
) -> Iterator[str]:
    """Yield SSE messages for ``game_id`` from ``after`` on, as ``caller`` may see them."""
    deadline = time.monotonic() + max_seconds
    yield "retry: 2000\n\n"
    position = after
    while True:
        loaded = queries.load(game_id)
        if loaded.version > position:
            for event in queries.events(loaded, caller.seat, position, 200):
                position = event["seq"]
                yield format_event(position, event)
            continue
        if loaded.finished:
            yield format_event(None, {"version": loaded.version, "status": "finished"}, "end")
            return
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            return
        if not queries.store.wait_for_events(game_id, position, min(heartbeat, remaining)):
            yield ": keep-alive\n\n"
