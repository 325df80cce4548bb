"""Many watchers: the bot mix alone, then again while up to ``target`` event
streams are open on the games the bots are playing.  Every stream must get
every event of its game, in order; the bots' ``POST /actions`` p99 with the
streams is compared with the run without them.

The readers are raw sockets in one selector thread (HTTP/1.0, so the body is
the bare event stream until the server closes it): a thousand threads in the
harness process would measure the harness, not the server.
"""

from __future__ import annotations

import json
import resource
import selectors
import socket
import threading
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field

from bench.load.clients import POST_ACTION, BotPlayer
from bench.load.load import Phase, PhaseResult, run_phase


@dataclass
class Watcher:
    """One open stream and what it received."""

    game_id: str
    sock: socket.socket
    buffer: bytes = b""
    header_done: bool = False
    status: int | None = None
    ids: list[int] = field(default_factory=list)
    ended: bool = False
    closed: bool = False

    def feed(self, data: bytes) -> None:
        self.buffer += data
        if not self.header_done:
            head, sep, rest = self.buffer.partition(b"\r\n\r\n")
            if not sep:
                return
            self.header_done = True
            self.status = int(head.split(b" ", 2)[1])
            self.buffer = rest
        *messages, self.buffer = self.buffer.split(b"\n\n")
        for message in messages:
            for line in message.split(b"\n"):
                if line.startswith(b"id: "):
                    self.ids.append(int(line[4:]))
                elif line == b"event: end":
                    self.ended = True

    @property
    def in_order(self) -> bool:
        return self.ids == list(range(1, len(self.ids) + 1))


class Readers:
    """Opens streams and reads them all in one thread."""

    def __init__(self, host: str, port: int) -> None:
        self.host, self.port = host, port
        self.selector = selectors.DefaultSelector()
        self.watchers: list[Watcher] = []
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.max_open = 0
        self.thread = threading.Thread(target=self._loop, name="stream-readers", daemon=True)
        self.thread.start()

    def open(self, game_id: str) -> None:
        sock = socket.create_connection((self.host, self.port), timeout=5)
        sock.sendall(f"GET /v1/games/{game_id}/events/stream HTTP/1.0\r\nHost: {self.host}\r\n"
                     "Accept: text/event-stream\r\n\r\n".encode())
        sock.setblocking(False)
        watcher = Watcher(game_id, sock)
        with self.lock:
            self.watchers.append(watcher)
            self.selector.register(sock, selectors.EVENT_READ, watcher)

    @property
    def open_count(self) -> int:
        with self.lock:
            return sum(1 for w in self.watchers if not w.closed)

    def _loop(self) -> None:
        while not self.stop.is_set():
            with self.lock:
                empty = not self.selector.get_map()
            if empty:
                time.sleep(0.01)
                continue
            for key, _ in self.selector.select(timeout=0.1):
                watcher: Watcher = key.data
                try:
                    data = watcher.sock.recv(65536)
                except BlockingIOError:
                    continue
                except OSError:
                    data = b""
                if data:
                    watcher.feed(data)
                else:
                    with self.lock:
                        self.selector.unregister(watcher.sock)
                    watcher.sock.close()
                    watcher.closed = True
            self.max_open = max(self.max_open, self.open_count)

    def close(self) -> None:
        self.stop.set()
        self.thread.join(5)
        for w in self.watchers:
            if not w.closed:
                w.sock.close()
                w.closed = True


@dataclass(frozen=True)
class StreamsSection:
    """The bot mix without and with many open streams."""

    target: int
    without: PhaseResult
    with_streams: PhaseResult
    opened: int
    max_open: int
    refused: int
    complete: int
    out_of_order: int
    incomplete: int

    @staticmethod
    def action_p99(result: PhaseResult) -> float:
        for lat in result.latencies:
            if lat.label == POST_ACTION:
                return lat.p99
        return float("nan")

    @property
    def p99_ratio(self) -> float:
        return self.action_p99(self.with_streams) / self.action_p99(self.without)


def raise_open_files(wanted: int) -> None:
    """Let this process (and the servers it starts) hold ``wanted`` sockets."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


def _version(base_url: str, game_id: str) -> int:
    with urllib.request.urlopen(f"{base_url}/v1/games/{game_id}", timeout=10) as resp:
        return int(json.loads(resp.read())["version"])


def run_streams(base_url: str, clients: int, seconds: float, target: int,
                log: Callable[[str], None]) -> StreamsSection:
    """The bot mix alone, then with up to ``target`` streams on the bots' games."""
    log(f"streams: bot mix alone, {clients} clients x {seconds:g} s")
    without = run_phase("bots-alone", base_url, lambda ph, i: BotPlayer(ph, f"alone{i}"), clients, seconds)
    host, port = base_url.split("//", 1)[1].rsplit(":", 1)
    readers = Readers(host, int(port))
    bots: list[BotPlayer] = []
    per_game = max(1, -(-target // clients))

    def make(ph: Phase, i: int) -> BotPlayer:
        bot = BotPlayer(ph, f"watched{i}")
        bots.append(bot)
        return bot

    def watch(phase: Phase) -> None:
        seen: set[str] = set()
        until = time.monotonic() + seconds  # the phase ends when this returns
        while time.monotonic() < until:
            for bot in list(bots):
                for game_id in list(bot.games):
                    if game_id in seen:
                        continue
                    seen.add(game_id)
                    room = target - readers.open_count
                    for _ in range(min(per_game, max(0, room))):
                        readers.open(game_id)
            time.sleep(0.05)

    log(f"streams: bot mix with up to {target} open streams ({per_game} per game)")
    with_streams = run_phase("bots-watched", base_url, make, clients, seconds, during=watch)
    time.sleep(3)  # the last events reach their watchers
    versions = {gid: _version(base_url, gid) for gid in {w.game_id for w in readers.watchers}}
    readers.close()
    accepted = [w for w in readers.watchers if w.status == 200]
    complete = sum(1 for w in accepted if w.in_order and len(w.ids) == versions[w.game_id])
    return StreamsSection(
        target=target,
        without=without,
        with_streams=with_streams,
        opened=len(readers.watchers),
        max_open=readers.max_open,
        refused=sum(1 for w in readers.watchers if w.status != 200),
        complete=complete,
        out_of_order=sum(1 for w in accepted if not w.in_order),
        incomplete=sum(1 for w in accepted if w.in_order and len(w.ids) != versions[w.game_id]),
    )


def render_streams(s: StreamsSection) -> list[str]:
    """The report's section."""
    return [
        "## Many watchers (event streams)",
        "",
        f"The bot mix ({s.without.clients} clients) alone, then again while up to {s.target} event streams are open on "
        "the games the bots are playing (raw-socket readers in one thread of the harness). A stream is complete when "
        "it received every event of its game, in order, up to the game's version at the end.",
        "",
        "| measure | value |",
        "|---|---|",
        f"| streams opened / most open at once | {s.opened} / {s.max_open} |",
        f"| refused (not 200) | {s.refused} |",
        f"| complete and in order | {s.complete} |",
        f"| out of order | {s.out_of_order} |",
        f"| in order but missing events | {s.incomplete} |",
        f"| bot POST /actions p99 alone / with streams | {StreamsSection.action_p99(s.without):.1f} / "
        f"{StreamsSection.action_p99(s.with_streams):.1f} ms (x{s.p99_ratio:.2f}; goal <= x2) |",
        f"| bot actions/s alone / with streams | {s.without.throughput:.1f} / {s.with_streams.throughput:.1f} |",
        "",
    ]
