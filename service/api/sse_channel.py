"""One game watched by this process's event streams (:mod:`service.api.sse`):
its latest state, the seats' token hashes as last read, and the SSE pages
rendered from it, shared by every watcher at the same position."""

from __future__ import annotations

import json
import select
import socket
import threading
from collections import OrderedDict
from collections.abc import Callable

from service.errors import GameDamaged
from service.usecases.loaded import Loaded
from service.usecases.queries import GameQueries

#: events per page a stream sends before looking for more
PAGE = 200
#: pages a channel remembers (watchers lagging behind share them too)
_PAGES_KEPT = 64


def peer_closed(sock: object) -> Callable[[], bool]:
    """A check of whether the client closed ``sock`` (the connection a stream
    writes to; anything without ``fileno``: never), without reading what it
    may have sent: a closed connection reads as the end of the stream."""
    if not hasattr(sock, "fileno") or not hasattr(sock, "recv"):
        return lambda: False

    def closed() -> bool:
        try:
            readable, _, _ = select.select([sock], [], [], 0)
            return bool(readable) and sock.recv(1, socket.MSG_PEEK) == b""
        except (OSError, ValueError):  # reset, or closed on our side
            return True

    return closed


def damaged_comment(game_id: str) -> str:
    # the answer's status went out long before: a comment line is what is left to say it
    return (f": the game's records are damaged (GET /v1/games/{game_id} shows it up to its last good event,"
            " with damaged_from; actions answer 409 game_damaged)\n\n")


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


class Channel:
    """One game watched in this process: its latest state and the pages rendered from it."""

    def __init__(self, game_id: str) -> None:
        self.game_id = game_id
        self.watchers = 0
        self.seat_watchers = 0
        self.cond = threading.Condition()
        self.loaded: Loaded | None = None
        # The seats' token hashes as the store last said, and when (monotonic,
        # taken before that read): a watcher trusts only reads after it opened.
        self.token_hashes: tuple[str, ...] = ()
        self.hashes_at = float("-inf")
        # Set when a read of the game found its records damaged: its streams end, saying so.
        self.damaged: GameDamaged | None = None
        self._pages: OrderedDict[tuple[int | None, int, int], list[tuple[int, str]]] = OrderedDict()
        # Held while a page is read, so that watchers at one position read it once.
        self._page_lock = threading.Lock()

    def publish(self, loaded: Loaded) -> None:
        """Make ``loaded`` the state watchers see, unless a newer one is there."""
        with self.cond:
            if self.loaded is None or loaded.version > self.loaded.version:
                self.loaded = loaded
                self.cond.notify_all()

    def damage(self, error: GameDamaged) -> None:
        """Record that the game's records were found damaged; wake the watchers."""
        with self.cond:
            self.damaged = error
            self.cond.notify_all()

    def tokens_seen(self, hashes: object, read_at: float) -> None:
        """Record the seats' token hashes a read begun at ``read_at`` found;
        wake the watchers if they changed."""
        found = tuple(str(h) for h in hashes) if isinstance(hashes, list | tuple) else ()
        with self.cond:
            if read_at <= self.hashes_at:
                return
            changed = found != self.token_hashes
            self.token_hashes, self.hashes_at = found, read_at
            if changed:
                self.cond.notify_all()

    def revoked(self, seat: int | None, token_hash: str | None, opened_at: float) -> bool:
        """Whether a read of the store made after ``opened_at`` shows that
        ``seat``'s token is no longer the one hashed ``token_hash``."""
        if seat is None or token_hash is None or self.hashes_at < opened_at:
            return False
        hashes = self.token_hashes
        return seat >= len(hashes) or hashes[seat] != token_hash

    def wait(self, position: int, timeout: float, closing: threading.Event,
             gone: Callable[[], bool] = lambda: False) -> bool:
        """Wait up to ``timeout`` seconds for a state past ``position`` (or
        finished, or the hub closing, or ``gone``: the watcher's token
        revoked); True if one came."""
        def ready() -> bool:
            loaded = self.loaded
            return closing.is_set() or gone() or self.damaged is not None or (
                loaded is not None and (loaded.version > position or loaded.finished))

        with self.cond:
            return self.cond.wait_for(ready, timeout)

    def page(self, queries: GameQueries, loaded: Loaded, seat: int | None, after: int) -> list[tuple[int, str]]:
        """The SSE messages of the events after ``after`` as ``seat`` sees them at ``loaded``."""
        key = (seat, after, loaded.version)
        with self._page_lock:
            found = self._pages.get(key)
            if found is None:
                found = [
                    (event["seq"], format_event(event["seq"], event))
                    for event in queries.events(loaded, seat, after, PAGE)
                ]
                self._pages[key] = found
                while len(self._pages) > _PAGES_KEPT:
                    self._pages.popitem(last=False)
            return found
