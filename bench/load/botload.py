"""Server bots under load: many concurrent games where every seat but one is a
server bot, the one left played by a person over HTTP (issue 28, "Measured").

    python -m bench.bench_bot_runner --load --games 200                 # embedded SQLite
    python -m bench.bench_bot_runner --load --games 200 --postgres      # PostgreSQL + Redis (test services)
    bash bench/run.sh --only bot-load [options]                          # the same

The server is gunicorn with production's configuration (``service.serving.wsgi:app``);
the bot runners are processes of their own (``python -m bench.load.botload
runner``: ``cablecar bots run``'s runner, timed).  Two phases, each
``seconds`` long, with the same person clients and the same request mix:

1. **quiet**: no runner; every person client reads, for each of its games,
   the seat's view and its legal actions (``GET /v1/games/{id}``,
   ``GET /v1/games/{id}/legal-actions``), at a fixed pace, and plays its
   move when the seat is active;
2. **bots**: the runners play every bot seat meanwhile.

Measured: the request latencies of both phases (the reads are the same mix
both ways: their p99 with and without the bot load); the bot move latency,
from the event that made the bot seat active to its move's first event (both
stamped by the store) for turns that began in the bots phase; and each
runner's CPU time per move (the deciding thread's: view, legal actions,
decision, append), per game type and strategy.
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bench.load.clients import GET_GAME, GET_LEGAL, POST_ACTION
from bench.load.http import Connection, TransportFailure
from bench.load.scripts import greedy_policy
from bench.load.stack import ROOT, Gunicorn, ServerSpec
from bench.load.stats import Latency, Recorder, merge, percentile

if TYPE_CHECKING:
    from events import Stores

#: the bot seats of each game, round the mix (every game has one person seat too)
MIX: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("ttr-sf", ("mcts", "planner")),
    ("ttr-sf", ("greedy", "random")),
    ("cable-car", ("planner", "random")),
    ("cable-car", ("planner", "greedy")),
)
READS = (GET_GAME, GET_LEGAL)


@dataclass
class PersonGame:
    """One game and its person seat."""

    game_id: str
    seat: int
    token: str


class Person:
    """A client thread playing the person seat of its games: for each game in turn
    it reads the view and the legal actions (whoever's turn it is), and sends a
    greedy move when its seat is active; ``pace`` seconds per game visited."""

    def __init__(self, base_url: str, games: Sequence[PersonGame], pace: float, seed: int) -> None:
        self.games = games
        self.pace = pace
        self.rng = random.Random(seed)
        self.conn = Connection(base_url)
        self.recorder = Recorder()
        self.stop = threading.Event()

    def _get(self, label: str, path: str, token: str) -> Any:
        try:
            answer = self.recorder.timed(label, self.conn.request("GET", path, token=token))
        except TransportFailure as e:
            self.recorder.transport(label, e.error)
            return None
        if answer.status != 200:
            self.recorder.refused(label, answer)
            return None
        return answer.body

    def run(self) -> None:
        next_at = time.monotonic()
        while not self.stop.is_set():
            for game in self.games:
                if self.stop.is_set():
                    break
                next_at += self.pace
                self.visit(game)
                delay = next_at - time.monotonic()
                if delay > 0:
                    self.stop.wait(delay)
                else:
                    next_at = time.monotonic()  # behind: no burst to catch up
        self.conn.close()

    def visit(self, game: PersonGame) -> None:
        view = self._get(GET_GAME, f"/v1/games/{game.game_id}", game.token)
        legal = self._get(GET_LEGAL, f"/v1/games/{game.game_id}/legal-actions?limit=500", game.token)
        if not view or not legal or game.seat not in view["active_seats"] or not legal["actions"]:
            return
        action = dict(greedy_policy(legal["actions"], self.rng))
        action["expected_version"] = legal["version"]
        key = f"person-{game.game_id}-{legal['version']}"
        try:
            answer = self.recorder.timed(POST_ACTION, self.conn.request(
                "POST", f"/v1/games/{game.game_id}/actions", action, game.token, {"Idempotency-Key": key}))
        except TransportFailure as e:
            self.recorder.transport(POST_ACTION, e.error)
            return
        if answer.status == 201:
            self.recorder.accepted.append(time.monotonic())
        else:
            self.recorder.refused(POST_ACTION, answer)


@dataclass
class BotLoadResult:
    """What one run measured."""

    store: str
    games: int
    seconds: float
    runners: int
    clients: int
    pace: float
    quiet: Recorder = field(default_factory=Recorder)
    loaded: Recorder = field(default_factory=Recorder)
    #: "game-type strategy" -> seconds
    latency: dict[str, list[float]] = field(default_factory=dict)
    cpu: dict[str, list[float]] = field(default_factory=dict)
    runner_stats: list[dict[str, int]] = field(default_factory=list)
    finished: int = 0
    wall: float = 0.0


def _signing_key(path: Path) -> str:
    import base64
    import secrets

    if not path.exists():
        seed = base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode()
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            json.dump({"algorithm": "ed25519", "private_key": seed}, out)
    return str(path)


def _create(conn: Connection, i: int) -> PersonGame:
    game_type, bots = MIX[i % len(MIX)]
    seat = i % (len(bots) + 1)
    names = [{"name": f"Bot{k}", "bot": b} for k, b in enumerate(bots)]
    players: list[dict[str, str]] = [*names[:seat], {"name": "Person"}, *names[seat:]]
    answer = conn.request("POST", "/v1/games", {"type": game_type, "players": players, "seed": f"botload-{i}"})
    if answer.status != 201:
        raise RuntimeError(f"creating game {i}: {answer.status} {answer.body}")
    return PersonGame(answer.body["id"], seat, answer.body["seats"][seat]["token"])


def run_bot_load(workdir: Path, games: int, seconds: float, runners: int, clients: int, pace: float,
                 think_ms: int, env: dict[str, str], store_label: str, workers: int = 2, threads: int = 8
                 ) -> BotLoadResult:
    """Serve, create ``games`` games, run the quiet phase then the bots phase; measure."""
    workdir.mkdir(parents=True, exist_ok=True)
    env = {**env, "CABLECAR_SECRET_KEY": "bench-secret-key-0123456789abcdef0123456789",
           "CABLECAR_SIGNING_KEY_FILE": _signing_key(workdir / "signing-key.json"),
           "CABLECAR_CREATE_RATE_LIMIT": "off"}
    result = BotLoadResult(store_label, games, seconds, runners, clients, pace)
    started = time.perf_counter()
    server = Gunicorn(ServerSpec("service.serving.wsgi:app", workers, threads, tuple(env.items())), workdir / "gunicorn.log")
    procs: list[subprocess.Popen[bytes]] = []
    try:
        server.wait_ready("/v1/health")
        conn = Connection(server.url)
        created = [_create(conn, i) for i in range(games)]
        conn.close()
        people = [Person(server.url, created[k::clients], pace, k) for k in range(clients)]
        result.quiet = _phase(people, seconds)
        bots_began = _database_now(env)
        stats_files = [workdir / f"runner-{k}.json" for k in range(runners)]
        run_env = {**os.environ, **env, "PYTHONPATH": str(ROOT)}
        for path in stats_files:
            path.unlink(missing_ok=True)
            procs.append(subprocess.Popen(
                [sys.executable, "-m", "bench.load.botload", "runner", str(path), str(think_ms)],
                cwd=ROOT, env=run_env, stdin=subprocess.DEVNULL))
        people = [Person(server.url, created[k::clients], pace, 100 + k) for k in range(clients)]
        result.loaded = _phase(people, seconds)
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            proc.wait(timeout=60)
        for path in stats_files:
            data = json.loads(path.read_text())
            result.runner_stats.append(data["stats"])
            for name, values in data["cpu"].items():
                result.cpu.setdefault(name, []).extend(values)
        result.latency, result.finished = _bot_latency(env, [g.game_id for g in created], bots_began)
    finally:
        for proc in procs:
            if proc.poll() is None:
                proc.kill()
        server.stop()
    result.wall = time.perf_counter() - started
    return result


def _phase(people: list[Person], seconds: float) -> Recorder:
    threads = [threading.Thread(target=p.run, daemon=True) for p in people]
    for t in threads:
        t.start()
    time.sleep(seconds)
    for p in people:
        p.stop.set()
    for t in threads:
        t.join(timeout=60)
    return merge(p.recorder for p in people)


def _open_stores(env: dict[str, str]) -> Stores:
    import events

    return events.open_store(env.get("DATABASE_URL") or None, Path(env["CABLECAR_DATA_DIR"]) if
                             env.get("CABLECAR_DATA_DIR") else None)


def _database_now(env: dict[str, str]) -> datetime:
    stores = _open_stores(env)
    try:
        return stores.deadlines.database_time()
    finally:
        stores.close()


def _bot_latency(env: dict[str, str], game_ids: list[str], since: datetime) -> tuple[dict[str, list[float]], int]:
    """Per "game-type strategy": seconds from the event that made a bot seat active
    (recorded in the bots phase) to that seat's next event; and the games finished."""
    from service.usecases.bot_seats import bot_seats

    stores = _open_stores(env)
    out: dict[str, list[float]] = defaultdict(list)
    finished = 0
    try:
        for game_id in game_ids:
            record = stores.events.get_game(game_id)
            finished += record.status == "finished"
            bots = bot_seats(record.metadata)
            previous: datetime | None = None
            prev_seat: int | None = None
            for e in stores.events.load(game_id):
                at = datetime.fromisoformat(e.recorded_at.replace("Z", "+00:00"))
                if (e.seat is not None and bots[e.seat] is not None and previous is not None
                        and e.seat != prev_seat and previous >= since):
                    out[f"{record.game_type} {bots[e.seat]}"].append((at - previous).total_seconds())
                previous, prev_seat = at, e.seat
    finally:
        stores.close()
    return dict(out), finished


def runner_main(stats_path: str, think_ms: int) -> int:
    """A bot runner (as ``cablecar bots run`` wires it) whose moves are timed
    (the deciding thread's CPU time per move, by game type and strategy); on
    SIGTERM it stops and writes what it measured to ``stats_path``."""
    import events
    from bots.runner import BotRunner
    from service.adapters.cache import open_cache
    from service.adapters.secret_key import ServerSecrets
    from service.adapters.signing_keys import load_server_keys
    from service.bootstrap import wire_games
    from service.config import Settings
    from service.usecases.bot_seats import bot_seats

    settings = Settings.from_env()
    signing_keys = load_server_keys(settings)
    server_secrets = ServerSecrets.from_settings(settings)
    hasher = server_secrets.tokens
    stores = events.open_store(settings.database_url, settings.data_path(), pool_size=settings.db_pool_size,
                               signer=signing_keys.signer, keying=server_secrets)
    queries, commands, _ = wire_games(stores, open_cache(settings), hasher, key_set=signing_keys.key_set())
    runner = BotRunner(queries, commands, stores.bot_turns, stores.deadlines, think_ms=think_ms, interval=0.02)
    cpu: dict[str, list[float]] = defaultdict(list)
    original = runner.move

    def timed(loaded: Any, seat: int, conflicted: list[bool] | None = None) -> bool:
        began = time.thread_time()
        moved = bool(original(loaded, seat, conflicted))
        if moved:
            cpu[f"{loaded.record.game_type} {bot_seats(loaded.record.metadata)[seat]}"].append(time.thread_time() - began)
        return moved

    runner.move = timed  # type: ignore[method-assign]
    for sig in (signal.SIGINT, signal.SIGTERM):
        signal.signal(sig, lambda *_: runner.stop())
    try:
        runner.run()
    finally:
        stores.close()
    stats = runner.stats
    Path(stats_path).write_text(json.dumps({"cpu": cpu, "stats": {
        "moves": stats.moves, "conflicts": stats.conflicts, "errors": stats.errors, "claims": stats.claims}}))
    return 0


def _ms(values: list[float], q: float) -> str:
    return f"{1000 * percentile(sorted(values), q):.0f}" if values else "-"


def render(results: Sequence[BotLoadResult], command: str) -> str:
    """The tables of BOTS.md's "Server bots under load" section."""
    lines = [f"Command: `{command}`", ""]
    for r in results:
        moves = sum(s["moves"] for s in r.runner_stats)
        conflicts = sum(s["conflicts"] for s in r.runner_stats)
        errors = sum(s["errors"] for s in r.runner_stats)
        lines += [f"**{r.store}**: {r.games} games (a person and two bots each), {r.clients} person clients "
                  f"visiting a game every {r.pace * 1000:.0f} ms each, {r.seconds:.0f} s per phase, {r.runners} "
                  f"runner process(es); {moves} bot moves ({conflicts} conflicts, {errors} errors), "
                  f"{r.finished} games finished; {r.wall:.0f} s in all.", ""]
        lines += ["| requests | quiet: count, p50 / p95 / p99 (ms) | with bots: count, p50 / p95 / p99 (ms) |",
                  "|---|---|---|"]
        both = {"reads (view + legal actions)": READS, GET_GAME: (GET_GAME,), GET_LEGAL: (GET_LEGAL,),
                POST_ACTION: (POST_ACTION,)}
        for label, kinds in both.items():
            cells = []
            for rec in (r.quiet, r.loaded):
                values = [v for k in kinds for v in rec.latencies.get(k, [])]
                s = Latency.of(label, values)
                cells.append(f"{s.count}, {s.p50:.1f} / {s.p95:.1f} / {s.p99:.1f}" if values else "-")
            lines.append(f"| {label} | {cells[0]} | {cells[1]} |")
        errs = r.loaded.errors + r.quiet.errors
        if errs:
            lines.append("")
            lines.append("Refusals: " + ", ".join(f"{k}: {v}" for k, v in sorted(errs.items())))
        lines += ["", "| game, bot | moves | bot move latency p50 / p95 (ms) | CPU per move p50 / p95 (ms) |",
                  "|---|---|---|---|"]
        for name in sorted(set(r.cpu) | set(r.latency)):
            lat, cpu = r.latency.get(name, []), r.cpu.get(name, [])
            lines.append(f"| {name} | {len(cpu)} | {_ms(lat, 0.5)} / {_ms(lat, 0.95)} | "
                         f"{1000 * percentile(sorted(cpu), 0.5):.1f} / {1000 * percentile(sorted(cpu), 0.95):.1f} |"
                         if cpu else f"| {name} | 0 | {_ms(lat, 0.5)} / {_ms(lat, 0.95)} | - |")
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "runner":
        sys.exit(runner_main(sys.argv[2], int(sys.argv[3])))
    sys.exit("usage: python -m bench.load.botload runner STATS_FILE THINK_MS (run by bench/bench_bot_runner.py --load)")
