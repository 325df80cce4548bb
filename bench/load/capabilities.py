"""Attacks of issue 25's round, for the security table (``security.py``):
taking over a game by reusing its creation key, keeping a stream open on a
rotated seat token, and holding the server with slow request bodies.

Each returns an :class:`~bench.load.security.Attack`: tried, refused as it
should be, and 5xx answers.  They need games of their own, so the harness
runs the first two before the creation flood uses up this address's count.
"""

from __future__ import annotations

import contextlib
import json
import socket
import time
import uuid
from collections.abc import Callable

from bench.load.attacks import Attack, http_request, json_request

PLAYERS = [{"name": "Ada"}, {"name": "Bo"}]


def creation_key_takeover(base: str) -> Attack:
    """The victim creates a game with a random key; the attacker rebuilds the
    body from the public list and sends it with keys it can guess (short ones
    as the issue's victim used, truncations and other UUIDs).  Refused: a 400
    ``idempotency_key_too_short``, a 429, or a 201 of another game, never the
    victim's tokens."""
    body, headers = json_request({"type": "ttr-sf", "players": PLAYERS})
    victim_key = str(uuid.uuid4())
    status, raw = http_request(base, "POST", "/v1/games", body, {**headers, "Idempotency-Key": victim_key})
    if status != 201:
        return Attack("reuse another caller's creation key (rebuilt body, guessed keys)", "never the victim's tokens",
                      0, 0, int(status >= 500))
    victim = json.loads(raw)
    guesses = [f"table-{i}" for i in range(1, 9)] + [victim_key[:31], victim_key.upper()[:31]]
    guesses += [str(uuid.uuid4()) for _ in range(2)]
    refused = errors = 0
    for guess in guesses:
        status, raw = http_request(base, "POST", "/v1/games", body, {**headers, "Idempotency-Key": guess})
        took = status == 201 and json.loads(raw).get("id") == victim["id"]
        refused += int(not took and (status in (400, 429) or status == 201))
        errors += int(status >= 500)
    return Attack("reuse another caller's creation key (rebuilt body, short and guessed keys)",
                  "400 idempotency_key_too_short, or another game: never the victim's", len(guesses), refused, errors)


def rotated_token_stream(base: str, tries: int = 4, within: float = 5.0) -> Attack:
    """A seat's stream opened on its token, then the host rotates that token:
    refused when the stream ends within ``within`` seconds."""
    body, headers = json_request({"type": "ttr-sf", "players": PLAYERS})
    status, raw = http_request(base, "POST", "/v1/games", body, {**headers, "Idempotency-Key": str(uuid.uuid4())})
    name = "keep a seat's stream open after its token is rotated"
    if status != 201:
        return Attack(name, f"ended within {within:g} s", 0, 0, int(status >= 500))
    game = json.loads(raw)
    token = game["seats"][0]["token"]
    host, port = base.split("//", 1)[1].rsplit(":", 1)
    refused = errors = 0
    for _ in range(tries):
        sock = socket.create_connection((host, int(port)), timeout=within + 5)
        sock.sendall(f"GET /v1/games/{game['id']}/events/stream HTTP/1.0\r\nHost: x\r\n"
                     f"Authorization: Bearer {token}\r\n\r\n".encode())
        head = sock.recv(64)
        if not head.startswith(b"HTTP/1.0 200") and not head.startswith(b"HTTP/1.1 200"):
            errors += int(head[9:10] == b"5")
            sock.close()
            continue
        time.sleep(0.5)
        status, raw = http_request(base, "POST", f"/v1/games/{game['id']}/seats/0/token", b"",
                               {"Authorization": f"Bearer {game['host_token']}"})
        errors += int(status >= 500)
        rotated_at = time.monotonic()
        if status == 200:
            token = json.loads(raw)["token"]
        refused += int(_closed_within(sock, rotated_at + within))
        sock.close()
    return Attack(name, f"ended within {within:g} s", tries, refused, errors)


def _closed_within(sock: socket.socket, deadline: float) -> bool:
    while (left := deadline - time.monotonic()) > 0:
        sock.settimeout(left)
        try:
            if not sock.recv(65536):
                return True
        except TimeoutError:
            return False
        except OSError:
            return True
    return False


def slow_bodies(base: str, log: Callable[[str], None], count: int = 200, every: float = 2.0,
                hold: float = 14.0) -> Attack:
    """``count`` connections announce a 2,000-byte body and send one byte
    every ``every`` seconds: refused when the server cuts each one off (closes
    it, or answers 4xx) within ``hold`` seconds."""
    log(f"security: {count} slow-body connections")
    host, port = base.split("//", 1)[1].rsplit(":", 1)
    head = (b"POST /v1/games HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            b"Content-Length: 2000\r\n\r\n{")
    open_socks = []
    for _ in range(count):
        try:
            sock = socket.create_connection((host, int(port)), timeout=5)
            sock.sendall(head)
            sock.setblocking(False)
            open_socks.append(sock)
        except OSError:
            pass
    cut = errors = 0
    end = time.monotonic() + hold
    next_byte = time.monotonic() + every
    while open_socks and time.monotonic() < end:
        time.sleep(0.1)
        for sock in list(open_socks):
            try:
                data = sock.recv(4096)
            except BlockingIOError:
                continue
            except OSError:
                data = b""
            if data.startswith(b"HTTP/") and data[9:10] == b"5":
                errors += 1
            else:
                cut += 1
            open_socks.remove(sock)
            sock.close()
        if time.monotonic() >= next_byte:
            next_byte += every
            for sock in open_socks:
                with contextlib.suppress(OSError):
                    sock.send(b"a")
    for sock in open_socks:
        sock.close()
    return Attack(f"{count} slow-body connections (one byte every {every:g} s)",
                  f"cut off by the server within {hold:g} s", count, cut, errors)
