"""The room benchmark (issue 36): one ``cablecar serve`` with its default
settings, an evening's club room on it.

``bash bench/run.sh --only room [--tables 40 --spectators 500 --hostile 200 --seconds 60]``

* ``--tables`` tables of 2 to 4 seats (in turn), half of the seats (rounded
  down) server bots (``greedy``), Ticket to Ride and cable cars alternately,
  each created from an address of its own;
* every person seat: a browser-like event stream opened with a stream ticket
  (``POST /v1/games/{id}/stream-tickets``, then ``?ticket=``), from the seat's
  own address, and a player who, when the seat is to move, waits
  ``--think`` seconds, reads ``legal-actions?sample=8`` and posts one of them
  (``expected_version``, ``Idempotency-Key``);
* ``--spectators`` token-less streams spread over the tables, from
  ``--spectator-addresses`` addresses;
* ``--hostile`` slow or lying connections (slow head, slow body, a chunked
  body announced and never sent) from 4 addresses, reopened whenever the
  server lets one go;
* ``/v1/health`` asked every half second, as a load balancer would.

Measured over ``--seconds``: event delivery latency to every stream (from a
person's action's 201 to each stream receiving that action's last event;
and, for every event, bots' included, how far behind the first stream of its
game each other stream got it), action latency, health latency, refusals, the
server's CPU and memory (its processes: master, workers, bot runners) per
open stream.  Writes ``bench/results/ROOM.md`` (``--report``).  ``--smoke``
is a few tables for a few seconds (the test suite runs it).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.load.cpu import spent, tree_cpu
from bench.load.soak import Server
from bench.load.stack import CLI_MODULE, ROOT
from bench.room_clients import Apart, Api, Stream, StreamReader

GOALS = {"delivery_p99": 1.0, "health_max": 1.0}


def _addr(block: int, n: int) -> str:
    return f"127.{block}.{n // 250}.{n % 250 + 1}"


@dataclass
class Table:
    game: str
    seats: list[str | None]  # tokens; None: a bot seat
    sources: dict[int, str]  # person seat -> its address
    actions: list[tuple[int, float]] = field(default_factory=list)  # (version, time of the 201)
    action_seconds: list[float] = field(default_factory=list)
    legal_seconds: list[float] = field(default_factory=list)
    refused: dict[str, int] = field(default_factory=dict)
    finished: bool = False


def create_tables(port: int, count: int) -> list[Table]:
    tables = []
    for t in range(count):
        n = 2 + t % 3
        bots = n // 2
        kind = "ttr-sf" if t % 2 == 0 else "cable-car"
        players: list[dict[str, str]] = [{"name": f"p{t}-{i}"} for i in range(n - bots)]
        players += [{"name": f"bot{t}-{i}", "bot": "greedy"} for i in range(bots)]
        api = Api(port, _addr(4, t))
        status, body, _ = api.call("POST", "/v1/games", {"type": kind, "players": players},
                                   headers={"Idempotency-Key": str(uuid.uuid4())})
        if status != 201:
            raise RuntimeError(f"creating table {t}: {status} {body}")
        tokens = [s["token"] for s in body["seats"]]
        people = [i for i, tok in enumerate(tokens) if tok]
        tables.append(Table(body["id"], tokens, {i: _addr(1, t * 4 + i) for i in people}))
    return tables


def wait_for_bots(port: int, timeout: float) -> None:
    """Until ``/v1/health`` says a bot runner is alive (creating a bot seat is refused before)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        status, body, _ = Api(port, "127.0.0.1").call("GET", "/v1/health")
        if status == 200 and (body.get("bots") or {}).get("ok"):
            return
        time.sleep(0.3)
    raise RuntimeError(f"no bot runner alive within {timeout:g} s")


def seat_stream(port: int, table: Table, seat: int) -> Stream:
    """A person seat's stream, opened as the web page opens it: a ticket first."""
    api = Api(port, table.sources[seat])
    status, body, _ = api.call("POST", f"/v1/games/{table.game}/stream-tickets", {}, table.seats[seat])
    if status != 201 and status != 200:
        raise RuntimeError(f"stream ticket: {status} {body}")
    return Stream(table.game, table.sources[seat], "seat", f"?ticket={body['ticket']}")


def play(port: int, table: Table, reader: StreamReader, think: float, stop: threading.Event, seed: int) -> None:
    """The table's people: each moves when it is their turn, after thinking."""
    rng = random.Random(seed)
    apis = {seat: Api(port, src) for seat, src in table.sources.items()}
    watcher = next(iter(apis.values()))
    version = 0
    while not stop.is_set():
        status, view, _ = watcher.call("GET", f"/v1/games/{table.game}")
        if status != 200:
            table.refused[f"view {status}"] = table.refused.get(f"view {status}", 0) + 1
            stop.wait(1.0)
            continue
        version = view["version"]
        if view["status"] in ("finished", "cancelled"):
            table.finished = True
            return
        mine = [s for s in view.get("active_seats", []) if s in apis]
        if not mine:
            reader.wait_past(table.game, version, 2.0)
            continue
        if stop.wait(think):
            return
        for seat in mine:
            api, token = apis[seat], table.seats[seat]
            status, legal, took = api.call(
                "GET", f"/v1/games/{table.game}/legal-actions?sample=8&seed={rng.randrange(1 << 30)}", token=token)
            if status != 200:
                continue
            table.legal_seconds.append(took)
            choices = [a for a in legal["actions"] if a.get("type") != "resign"] or legal["actions"]
            if not choices:
                continue
            action = {**rng.choice(choices), "expected_version": legal["version"]}
            status, body, took = api.call("POST", f"/v1/games/{table.game}/actions", action, token,
                                          {"Idempotency-Key": str(uuid.uuid4())})
            if status == 201:
                table.actions.append((body["version"], time.monotonic()))
                table.action_seconds.append(took)
            else:
                code = (body or {}).get("code", "")
                table.refused[f"{status} {code}"] = table.refused.get(f"{status} {code}", 0) + 1


def _rss_kib(root: int) -> int:
    from bench.load.cpu import _children

    total, todo = 0, [root]
    while todo:
        pid = todo.pop()
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            pass
        todo.extend(_children(pid))
    return total


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def run(a: argparse.Namespace) -> dict[str, Any]:
    work = Path(tempfile.mkdtemp(prefix="cablecar-room-"))
    argv = [sys.executable, "-m", CLI_MODULE, "serve", "--host", "127.0.0.1", "--port", "{port}",
            "--data-dir", str(work / "data")]
    server = Server(argv, {}, work / "serve.log", 2)  # defaults: nothing set
    stop = threading.Event()
    reader = StreamReader()
    hostile: Apart | None = None
    health_probe: Apart | None = None
    try:
        server.wait_ready(90)
        wait_for_bots(server.port, 60)
        rss_idle = _rss_kib(server.proc.pid)
        health_probe = Apart("health", server.port)  # forked before this process starts its threads
        tables = create_tables(server.port, a.tables)
        seats = [seat_stream(server.port, t, s) for t in tables for s in t.sources]
        spectators = [Stream(tables[i % len(tables)].game, _addr(2, i % a.spectator_addresses), "spectator")
                      for i in range(a.spectators)]
        streams = seats + spectators
        for s in streams:
            s.open(server.port)
        reader.add(streams)
        reader.start()
        deadline = time.monotonic() + 30
        while any(s.status is None and not s.ended for s in streams) and time.monotonic() < deadline:
            time.sleep(0.2)
        hostile = Apart("hostile", server.port, a.hostile, [_addr(3, i) for i in range(4)])
        time.sleep(1.0)
        granted = [s for s in streams if s.status == 200]
        rss_streams = _rss_kib(server.proc.pid)
        threads = [threading.Thread(target=play, args=(server.port, t, reader, a.think, stop, i), daemon=True)
                    for i, t in enumerate(tables)]
        load_before = os.getloadavg()[0]
        cpu_before = tree_cpu(server.proc.pid)
        started = time.monotonic()
        for t in threads:
            t.start()
        time.sleep(a.seconds)
        stop.set()
        cpu = spent(cpu_before, tree_cpu(server.proc.pid))
        wall = time.monotonic() - started
        rss_end = _rss_kib(server.proc.pid)
        for t in threads:
            t.join(35)
        time.sleep(min(2.0, a.seconds / 4))  # the last events reach their streams
        probes, at = health_probe.finish() or ([], [])
        played = [(t - started, x) for t, x in zip(at, probes, strict=False) if started <= t <= started + wall]
        health = [x for _, x in played]
        opened, cut = hostile.finish() or (0, 0)
        result = summarise(a, tables, streams, granted, health, (opened, cut), cpu, wall, rss_idle, rss_streams,
                           rss_end)
        result["load_average"] = (load_before, os.getloadavg()[0])
        result["health_slowest"] = sorted(((round(t, 2), round(x, 3)) for t, x in played), key=lambda p: -p[1])[:8]
        return result
    finally:
        stop.set()
        for apart in (hostile, health_probe):
            if apart is not None and apart.proc.is_alive():
                apart.finish()
        reader.close()
        server.stop()


def summarise(a: argparse.Namespace, tables: list[Table], streams: list[Stream], granted: list[Stream],
              health: list[float], hostile: tuple[int, int], cpu: float, wall: float, rss_idle: int, rss_streams: int,
              rss_end: int) -> dict[str, Any]:
    by_game: dict[str, list[Stream]] = {}
    for s in granted:
        by_game.setdefault(s.game, []).append(s)
    delivery: dict[str, list[float]] = {"seat": [], "spectator": []}
    missed = 0
    for t in tables:
        for version, acked in t.actions:
            for s in by_game.get(t.game, []):
                got = s.arrived.get(version)
                if got is None:
                    missed += 1
                else:
                    delivery[s.kind].append(max(0.0, got - acked))
    spread: list[float] = []  # every event, bots' included: behind the first stream of its game
    for ss in by_game.values():
        ids = set().union(*(s.arrived for s in ss))
        for i in ids:
            times = [s.arrived[i] for s in ss if i in s.arrived]
            first = min(times)
            spread.extend(x - first for x in times)
    everyone = delivery["seat"] + delivery["spectator"]
    refused: dict[str, int] = {}
    for s in streams:
        if s.status != 200:
            key = f"{s.kind}: {s.status}"
            refused[key] = refused.get(key, 0) + 1
    action_refusals: dict[str, int] = {}
    for t in tables:
        for k, n in t.refused.items():
            action_refusals[k] = action_refusals.get(k, 0) + n
    actions = [x for t in tables for x in t.action_seconds]
    legal = [x for t in tables for x in t.legal_seconds]
    return {
        "tables": len(tables), "seats": sum(len(t.seats) for t in tables),
        "bot_seats": sum(1 for t in tables for tok in t.seats if tok is None),
        "seat_streams": sum(1 for s in streams if s.kind == "seat"),
        "spectator_streams": sum(1 for s in streams if s.kind == "spectator"),
        "spectator_addresses": a.spectator_addresses, "hostile": a.hostile, "seconds": round(wall, 1),
        "granted": len(granted), "refused": refused, "seat_503": refused.get("seat: 503", 0),
        "hostile_opened": hostile[0], "hostile_cut": hostile[1],
        "person_actions": len(actions), "action_refusals": action_refusals,
        "games_finished": sum(1 for t in tables if t.finished),
        "events_seen": len({(s.game, i) for s in granted for i in s.arrived}),
        "delivery_p50": pct(everyone, 0.5), "delivery_p99": pct(everyone, 0.99),
        "delivery_max": max(everyone, default=float("nan")), "deliveries": len(everyone), "missed": missed,
        "seat_p99": pct(delivery["seat"], 0.99), "spectator_p99": pct(delivery["spectator"], 0.99),
        "spread_p50": pct(spread, 0.5), "spread_p99": pct(spread, 0.99),
        "action_p50": pct(actions, 0.5), "action_p99": pct(actions, 0.99),
        "legal_p50": pct(legal, 0.5), "legal_p99": pct(legal, 0.99), "legal_max": max(legal, default=0.0),
        "health_p50": pct(health, 0.5), "health_p99": pct(health, 0.99), "health_max": max(health, default=0.0),
        "health_probes": len(health),
        "cpu_share": cpu / wall if wall else 0.0, "rss_idle_mib": rss_idle / 1024,
        "rss_streams_mib": rss_streams / 1024, "rss_end_mib": rss_end / 1024,
        "rss_per_stream_kib": (rss_streams - rss_idle) / max(1, len(granted)),
        "cpu_ms_per_stream_s": 1000 * cpu / wall / max(1, len(granted)) if wall else 0.0,
    }


def render(r: dict[str, Any], command: str) -> str:
    ms = lambda x: f"{1000 * x:.0f} ms"  # noqa: E731
    ok = (r["delivery_p99"] <= GOALS["delivery_p99"] and r["health_max"] <= GOALS["health_max"]
          and r["seat_503"] == 0 and r["missed"] == 0)
    refused = ", ".join(f"{k}: {n}" for k, n in sorted(r["refused"].items())) or "none"
    act_ref = ", ".join(f"{k}: {n}" for k, n in sorted(r["action_refusals"].items())) or "none"
    return f"""# The room benchmark

`{command}` ({time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} CPUs, the clients on the
same machine; load average {r['load_average'][0]:.1f} before, {r['load_average'][1]:.1f} after): one `cablecar serve` with its default settings (embedded SQLite, gevent workers, the bot
runners it starts), {r['seconds']} s of play.

**Goal (issue 36): delivery p99 ≤ 1 s, health ≤ 1 s, no 503 to any seat — {"met" if ok else "NOT met"}.**

| the room | |
|---|---|
| tables (2–4 seats, half bots, `greedy`) | {r['tables']} ({r['seats']} seats, {r['bot_seats']} bots) |
| person-seat streams (stream tickets, one address each) | {r['seat_streams']} |
| spectator streams | {r['spectator_streams']} from {r['spectator_addresses']} addresses |
| streams granted / refused | {r['granted']} / {refused} |
| hostile connections (slow head, slow body, lying chunked; 4 addresses) | {r['hostile']} at once, each reopened as soon as the server cut it ({r['hostile_opened']} opened in all) |
| person actions (201) / refused | {r['person_actions']} / {act_ref} |
| events seen on the streams / games finished | {r['events_seen']} / {r['games_finished']} |

| measured | p50 | p99 | max |
|---|---|---|---|
| delivery: a person's 201 → each stream of the game has the event ({r['deliveries']} deliveries, {r['missed']} never arrived) | {ms(r['delivery_p50'])} | {ms(r['delivery_p99'])} | {ms(r['delivery_max'])} |
| … to the seats' streams / the spectators' | | {ms(r['seat_p99'])} / {ms(r['spectator_p99'])} | |
| every event (bots' too): behind the first stream of its game | {ms(r['spread_p50'])} | {ms(r['spread_p99'])} | |
| action (`POST …/actions`, as the player saw it) | {ms(r['action_p50'])} | {ms(r['action_p99'])} | |
| legal actions (`?sample=8`, before each person's move) | {ms(r['legal_p50'])} | {ms(r['legal_p99'])} | {ms(r['legal_max'])} |
| `/v1/health` every 0.5 s ({r['health_probes']} probes) | {ms(r['health_p50'])} | {ms(r['health_p99'])} | {ms(r['health_max'])} |

The server (master, 2 workers, bot runners): {100 * r['cpu_share']:.0f} % of one CPU during play,
{r['cpu_ms_per_stream_s']:.2f} ms of CPU per second per open stream (everything it did, divided by the
streams); memory {r['rss_idle_mib']:.0f} MiB idle, {r['rss_streams_mib']:.0f} MiB with the streams open
({r['rss_per_stream_kib']:.0f} KiB per stream), {r['rss_end_mib']:.0f} MiB at the end.

Spectators beyond `CABLECAR_SSE_MAX_STREAMS_PER_ADDRESS` (20) on one address are refused with `503
streams_busy` and `Retry-After` by design (the web page then reads the game at that pace); a seat's
stream comes from its own address. The clients (one thread reading every stream, one per table; the
health probe and the hostile connections in processes of their own) share the CPUs with the server, so
the latencies include their own delays.
"""


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="bash bench/run.sh --only room", description=__doc__.split("\n\n")[0])
    p.add_argument("--tables", type=int, default=40)
    p.add_argument("--spectators", type=int, default=500)
    p.add_argument("--spectator-addresses", type=int, default=20)
    p.add_argument("--hostile", type=int, default=200)
    p.add_argument("--seconds", type=float, default=60.0)
    p.add_argument("--think", type=float, default=1.0, help="seconds a person waits before moving")
    p.add_argument("--smoke", action="store_true", help="4 tables, 20 spectators, 12 hostile, 6 s")
    p.add_argument("--report", type=Path, default=ROOT / "bench" / "results" / "ROOM.md")
    p.add_argument("--json", type=Path, help="also write the figures as JSON here")
    a = p.parse_args(argv)
    if a.smoke:
        a.tables, a.spectators, a.spectator_addresses, a.hostile, a.seconds, a.think = 4, 20, 2, 12, 6.0, 0.2
    result = run(a)
    command = os.environ.get("CABLECAR_BENCH_COMMAND", "bash bench/run.sh --only room")
    a.report.parent.mkdir(parents=True, exist_ok=True)
    a.report.write_text(render(result, command))
    if a.json:
        a.json.write_text(json.dumps(result, indent=1, default=str))
    print(a.report.read_text())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
