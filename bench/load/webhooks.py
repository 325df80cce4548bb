"""Webhook fairness, measured through HTTP: the receivers (one prompt, one
that hangs) and the flood row of the security table.

``bench/bench_webhook_fairness.py`` measures the same in process (Flask's test
client); both use the receivers and the probe loop here.

The flood: one organiser registers ``hooks`` webhooks at a receiver that
accepts every connection and never answers (each attempt is held for the
server's whole delivery timeout), then creates a batch of ``tables`` games,
so ``hooks x tables`` ``game.started`` deliveries fall due at once.  Another
organiser's webhook points at a receiver that answers 200 at once; it creates
probe games, first with no flood (the baseline), then during the flood.  A
probe's latency runs from its creation to its delivery's arrival.
"""

from __future__ import annotations

import json
import socket
import statistics
import threading
import time
from collections.abc import Callable
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from bench.load.attacks import Attack, http_request, json_request

PLAYERS = [{"name": "Ada"}, {"name": "Bo"}]


class Arrivals:
    """When each game's ``game.started`` reached the prompt receiver."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.at: dict[str, float] = {}

    def serve(self) -> ThreadingHTTPServer:
        """The prompt receiver on a free loopback port (serving in a thread)."""
        arrivals = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (http.server's name)
                body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
                now = time.monotonic()
                game = json.loads(body).get("game", {}).get("id")
                with arrivals.lock:
                    arrivals.at.setdefault(str(game), now)
                self.send_response(200)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        return server


def hanging_receiver(stop: threading.Event) -> tuple[str, list[int]]:
    """A receiver that accepts every connection and never answers, until
    ``stop`` is set: its URL and a one-item list counting the connections."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1024)
    listener.settimeout(0.2)
    accepted = [0]

    def hold(conn: socket.socket) -> None:
        with conn:
            stop.wait(600)

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = listener.accept()
            except TimeoutError:
                continue
            accepted[0] += 1
            threading.Thread(target=hold, args=(conn,), daemon=True).start()
        listener.close()

    threading.Thread(target=serve, daemon=True).start()
    return f"http://127.0.0.1:{listener.getsockname()[1]}", accepted


def probe(create: Callable[[], str], arrivals: Arrivals, probes: int, gap: float, wait: float = 120.0
          ) -> list[float]:
    """Create ``probes`` games (``create`` returns a game's id), one every
    ``gap`` seconds; the seconds from each creation to its delivery's
    arrival (``inf`` when it did not arrive within ``wait`` seconds)."""
    created: dict[str, float] = {}
    for _ in range(probes):
        at = time.monotonic()
        created[create()] = at
        time.sleep(gap)
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        with arrivals.lock:
            if all(g in arrivals.at for g in created):
                break
        time.sleep(0.02)
    with arrivals.lock:
        return [arrivals.at.get(g, float("inf")) - t for g, t in created.items()]


class _Api:
    """The few calls the flood makes, counting 5xx answers."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.server_errors = 0

    def post(self, path: str, obj: object, token: str = "") -> tuple[int, Any]:
        body, headers = json_request(obj)
        if token:
            headers["Authorization"] = f"Bearer {token}"
        status, raw = http_request(self.base, "POST", path, body, headers)
        self.server_errors += int(status >= 500)
        return status, json.loads(raw) if raw else None

    def organiser(self, name: str) -> str:
        status, body = self.post("/v1/organisers", {"name": name})
        if status != 201:
            raise RuntimeError(f"POST /v1/organisers answered {status}: {body}")
        return str(body["token"])

    def game(self, token: str) -> str:
        status, body = self.post("/v1/games", {"type": "ttr-sf", "players": PLAYERS}, token)
        if status != 201:
            raise RuntimeError(f"POST /v1/games answered {status}: {body}")
        return str(body["id"])


def webhook_flood(base: str, log: Callable[[str], None], hooks: int = 10, tables: int = 50, probes: int = 8,
                  gap: float = 0.5, floor: float = 1.0) -> Attack:
    """The flood against a server that lets webhooks reach loopback
    (``CABLECAR_WEBHOOK_PRIVATE_ADDRESSES``) and runs its dispatchers.  A
    probe during the flood is refused (the flood did not delay it) when it
    arrived within twice the quiet baseline's median, or within ``floor``
    seconds (the dispatcher's poll makes the baseline itself jitter)."""
    name = f"starve another organiser's webhooks ({hooks} hanging receivers x {tables} tables = {hooks * tables} deliveries)"
    api = _Api(base)
    stop = threading.Event()
    hang_url, accepted = hanging_receiver(stop)
    arrivals = Arrivals()
    prompt = arrivals.serve()
    try:
        quiet, flood = api.organiser("Quiet"), api.organiser("Flood")
        status, body = api.post("/v1/webhooks", {"url": f"http://127.0.0.1:{prompt.server_address[1]}/hook",
                                                 "events": ["game.started"]}, quiet)
        if status != 201:
            raise RuntimeError(f"the quiet organiser's webhook: {status} {body}")
        log(f"security: webhook flood, quiet baseline ({probes} probes)")
        baseline = probe(lambda: api.game(quiet), arrivals, probes, gap)
        for i in range(hooks):
            status, body = api.post("/v1/webhooks", {"url": f"{hang_url}/h{i}", "events": ["game.started"]}, flood)
            if status != 201:
                raise RuntimeError(f"the flood's webhook {i}: {status} {body}")
        status, body = api.post("/v1/batches", {"type": "ttr-sf", "tables": [{"players": PLAYERS}] * tables}, flood)
        if status != 201:
            raise RuntimeError(f"the flood's batch: {status} {body}")
        time.sleep(1.0)  # the flood's deliveries are recorded and its first attempts hang
        log(f"security: webhook flood, {hooks * tables} deliveries due, {probes} probes")
        during = probe(lambda: api.game(quiet), arrivals, probes, gap, wait=60.0)
    finally:
        stop.set()
        prompt.shutdown()
        prompt.server_close()
    limit = max(2 * statistics.median(baseline), floor)
    on_time = sum(1 for d in during if d <= limit)
    log(f"security: webhook flood: baseline median {statistics.median(baseline) * 1000:.0f} ms, during "
        f"median {statistics.median(during) * 1000:.0f} ms, max {max(during) * 1000:.0f} ms; "
        f"{accepted[0]} flood attempts held")
    return Attack(name, f"each delivery of the other organiser within 2x its quiet median, at least {floor:g} s "
                        f"(quiet {statistics.median(baseline) * 1000:.0f} ms, flood {statistics.median(during) * 1000:.0f} ms)",
                  len(during), on_time, api.server_errors)
