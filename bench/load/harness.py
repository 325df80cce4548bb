"""The whole run: stack up, load + baseline, growth, faults, fuzz, report."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

from bench.baseline_app import create_table
from bench.bench_append_contention import set_durable
from bench.load.cachestats import CacheCounts, delta, read_counts, redis_keyspace
from bench.load.clients import BaselineClient, BotPlayer, Phase, ScriptedPlayer
from bench.load.config import HarnessConfig
from bench.load.cpu import CpuGroups, CpuUse
from bench.load.faults import (
    FaultResult,
    FaultSettings,
    dropped_responses,
    postgres_restart,
    redis_restart,
    same_action_race,
    worker_kill,
)
from bench.load.fuzz import FuzzSection, fuzz_server
from bench.load.growth import GrowthResult, longest_script, measure_growth
from bench.load.integrity import audit_game, check_games
from bench.load.load import Client, PhaseResult, run_phase
from bench.load.profile import profile_actions
from bench.load.pyspy import Recording, summarize
from bench.load.results import SERVER_OF, LoadSection, RunResults, environment
from bench.load.scaling import run_scaling
from bench.load.scripts import GameScript, make_script
from bench.load.security import SecurityTable
from bench.load.security_run import security_tables
from bench.load.stack import ROOT, Gunicorn, ServerSpec, Services, signing_key_file
from bench.load.streams import raise_open_files, run_streams
from events.factory import postgres_stores
from events.recorders.event_log import EventStore

T = TypeVar("T")

class Harness:
    """Runs the sections of one :class:`HarnessConfig`."""

    def __init__(self, config: HarnessConfig) -> None:
        self.config = config
        self.results = RunResults(config)
        self.work = config.workdir
        self.stats_dir = self.work / "cache-stats"

    def log(self, message: str) -> None:
        """Progress on stderr."""
        print(f"[bench {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)

    def guarded(self, name: str, step: Callable[[], T]) -> T | None:
        """Run one section; a crash is recorded in the report, not fatal."""
        try:
            return step()
        except Exception as e:
            self.log(f"{name} FAILED: {type(e).__name__}: {e}")
            self.results.failures.append(f"{name}: {type(e).__name__}: {e}")
            return None

    def run(self) -> RunResults:
        """Everything, then the report."""
        started = time.monotonic()
        shutil.rmtree(self.work, ignore_errors=True)
        self.stats_dir.mkdir(parents=True)
        cfg = self.config
        self.log(f"starting PostgreSQL and Redis (state in {cfg.services_dir})")
        services = Services.up(cfg.services_dir)
        if cfg.durable:
            set_durable(services.base_database_url, True)
        return self._run_on(services, started)

    def _run_on(self, services: Services, started: float) -> RunResults:
        cfg = self.config
        self.results.environment = environment(services)
        self.results.environment["postgresql durability"] = (
            "fsync=on, synchronous_commit=on (--durable)" if cfg.durable else "fsync=off, synchronous_commit=off"
        )
        database_url = services.fresh_database()
        create_table(database_url)
        self.log(f"fresh database {database_url.rsplit('/', 1)[1]}; deciding {cfg.scripts} scripted games")
        scripts = [make_script(f"bench-{i}") for i in range(cfg.scripts)]
        env = (("DATABASE_URL", database_url), ("REDIS_URL", services.redis_url), ("CABLECAR_SECRET_KEY", "bench-secret-key-0123456789abcdef0123456789"),
               ("CABLECAR_SIGNING_KEY_FILE", self.signing_key_file()),
               ("CABLECAR_BENCH_STATS_DIR", str(self.stats_dir)),
               # every simulated client comes from 127.0.0.1: the per-address limits would throttle the load
               ("CABLECAR_CREATE_RATE_LIMIT", "off"), ("CABLECAR_STREAM_RATE_LIMIT", "off"),
               # the games are audited afterwards, more than the per-address audit limit allows in a minute
               ("CABLECAR_AUDIT_RATE_LIMIT", "off"),
               # the streams section's readers all connect from 127.0.0.1 too
               ("CABLECAR_SSE_MAX_STREAMS", str(4 * cfg.streams)),
               ("CABLECAR_SSE_MAX_STREAMS_PER_ADDRESS", str(4 * cfg.streams)),
               ("CABLECAR_WORKER_CONNECTIONS", str(4 * cfg.streams + 500)))
        if "streams" in cfg.sections:
            raise_open_files(8 * cfg.streams + 4096)  # inherited by the servers started below
        service = Gunicorn(ServerSpec("bench.load.instrumented_wsgi:app", cfg.workers, cfg.threads, env),
                           self.work / "gunicorn-service.log")
        baseline = Gunicorn(ServerSpec("bench.baseline_app:app", cfg.workers, cfg.threads, env),
                            self.work / "gunicorn-baseline.log")
        fullpath = None
        if "fullpath" in cfg.sections and "load" in cfg.sections:
            # the same service with no worker-local state: every action takes the full path
            fullpath = Gunicorn(ServerSpec("bench.load.instrumented_wsgi:app", cfg.workers, cfg.threads,
                                           (*env, ("CABLECAR_LOCAL_CACHE_ENTRIES", "0"))),
                                self.work / "gunicorn-fullpath.log")
        flask_base = None
        if "flaskbase" in cfg.sections and "load" in cfg.sections:
            flask_base = Gunicorn(ServerSpec("bench.baseline_app:flask_app", cfg.workers, cfg.threads, env),
                                  self.work / "gunicorn-flask-baseline.log")
        compare = None
        if cfg.compare_with and "load" in cfg.sections:
            # another revision of the service on the same database and Redis (its own cache-counter folder)
            compare = Gunicorn(ServerSpec("bench.load.instrumented_wsgi:app", cfg.workers, cfg.threads,
                                          (*env, ("CABLECAR_BENCH_STATS_DIR", str(self.work / "compare-stats")))),
                               self.work / "gunicorn-compare.log", root=self.export(cfg.compare_with))
        stores = postgres_stores(database_url)
        store = stores.events
        try:
            service.wait_ready("/v1/health")
            if compare is not None:
                compare.wait_ready("/v1/health")
            baseline.wait_ready("/health")
            if flask_base is not None:
                flask_base.wait_ready("/health")
            if fullpath is not None:
                fullpath.wait_ready("/v1/health")
            if "load" in cfg.sections:
                self.results.load = self.guarded(
                    "load", lambda: self.run_load(service, baseline, fullpath, flask_base, scripts, services, store,
                                                  compare)
                )
            if compare is not None:
                compare.stop()
            baseline.stop()
            if flask_base is not None:
                flask_base.stop()
            if fullpath is not None:
                fullpath.stop()
            if "profile" in cfg.sections:
                self.log("profile: one thread, in process")
                self.results.profile = self.guarded(
                    "profile", lambda: profile_actions(database_url, services.redis_url, scripts[:10],
                                                  self.signing_key_file())
                )
            if "growth" in cfg.sections:
                self.results.growth = self.guarded("growth", lambda: self.measure_growth(env, services, store))
            if "faults" in cfg.sections:
                self.guarded("faults", lambda: self.run_faults(service, services, store, scripts))
            if "streams" in cfg.sections:
                self.results.streams = self.guarded(
                    "streams", lambda: run_streams(service.url, cfg.clients, cfg.bot_seconds, cfg.streams, self.log)
                )
            if "security" in cfg.sections:
                self.results.security = self.guarded("security", lambda: self.run_security(database_url, services))
            if "fuzz" in cfg.sections:
                self.results.fuzz = self.guarded("fuzz", lambda: self.run_fuzz(service))
            if "scaling" in cfg.sections:
                self.log(f"scaling: {cfg.scaling_clients} clients, shipped vs old lock")
                self.results.scaling = self.guarded("scaling", lambda: run_scaling(
                    services.base_database_url, cfg.scaling_clients, cfg.scaling_seconds, cfg.scaling_rounds, self.log
                ))
        finally:
            stores.close()
            service.stop()
            if compare is not None:
                compare.stop()
            baseline.stop()
            if flask_base is not None:
                flask_base.stop()
            if fullpath is not None:
                fullpath.stop()
            self.guarded("drop database", lambda: services.drop_database(database_url))
            if cfg.durable:  # the private server's settings as scripts/test-services.sh made them
                self.guarded("durability reset", lambda: set_durable(services.base_database_url, False))
            if not cfg.keep_services:
                self.guarded("services down", services.down)
        self.results.seconds = time.monotonic() - started
        return self.results

    def signing_key_file(self) -> str:
        """The signing key every server of this run shares (:func:`bench.load.stack.signing_key_file`)."""
        return signing_key_file(self.work / "signing-key.json")

    def export(self, revision: str) -> Path:
        """The service at git ``revision`` in a folder of the work directory, with this
        harness' ``bench/`` (the wrapper the servers are started through)."""
        import io
        import tarfile
        import tempfile

        if not (ROOT / ".git").exists():
            raise RuntimeError(f"--compare-with needs a git checkout; {ROOT} is not one (run without CABLECAR_BENCH_FROM)")
        target = Path(tempfile.mkdtemp(prefix="compare-", dir=self.work))
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", revision],
                                 capture_output=True, check=True).stdout
        with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
            # our own git archive; "data" (refuse links out of the folder) where this Python has it (3.11.4+)
            tar.extractall(target, **({"filter": "data"} if hasattr(tarfile, "data_filter") else {}))
        shutil.rmtree(target / "bench", ignore_errors=True)
        shutil.copytree(ROOT / "bench", target / "bench", ignore=shutil.ignore_patterns("results", "__pycache__"))
        # Both servers use one database, migrated by this checkout; a server refuses a database holding a
        # migration it does not ship, so the revision gets this checkout's later migrations (SQL files only:
        # they add, and its code goes on calling its own functions, e.g. 0075 keeps the appends before it).
        for folder in ("postgres", "sqlite"):
            theirs = target / "events" / "migrations" / folder
            for migration in sorted((ROOT / "events" / "migrations" / folder).glob("*.sql")):
                if theirs.is_dir() and not (theirs / migration.name).exists():
                    shutil.copy2(migration, theirs / migration.name)
        return target

    # -- sections ----------------------------------------------------------------

    def run_security(self, database_url: str, services: Services) -> tuple[SecurityTable, ...]:
        """The attacks, against servers of their own with the shipped defaults, on each stack asked for."""
        return security_tables(self.work, database_url, services, self.config.security_stacks, self.config.threads,
                               self.signing_key_file(), self.log)

    def run_load(self, service: Gunicorn, baseline: Gunicorn, fullpath: Gunicorn | None,
                 flask_base: Gunicorn | None, scripts: list[GameScript], services: Services,
                 store: EventStore, compare: Gunicorn | None = None) -> LoadSection:
        """Baseline and service write path in alternating chunks, then bots."""
        cfg = self.config
        chunk = cfg.seconds / cfg.rounds
        roots = [("gunicorn: service", service.proc.pid, True), ("gunicorn: baseline", baseline.proc.pid, True)]
        if fullpath is not None:
            roots.append(("gunicorn: full path", fullpath.proc.pid, True))
        if flask_base is not None:
            roots.append(("gunicorn: Flask baseline", flask_base.proc.pid, True))
        if compare is not None:
            roots.append(("gunicorn: compared", compare.proc.pid, True))
        roots += [("PostgreSQL", services.postgres_pid(), True), ("Redis", services.redis_pid(), False),
                  ("clients (harness process)", os.getpid(), False)]
        groups = CpuGroups(tuple(roots))
        cpu: dict[str, CpuUse] = {}

        spied: list[Path] = []
        chunks: dict[str, list[tuple[int, int, float]]] = {}
        spied_actions = 0

        def measured(kind: str, name: str, url: str, make: Callable[[Phase, int], Client], seconds: float
                     ) -> PhaseResult:
            nonlocal spied_actions
            spy = None
            if cfg.py_spy and kind == "write path":
                spy = Recording(service.proc.pid, self.work / f"pyspy-{name}.txt")
                time.sleep(1.0)  # py-spy attaches to every worker before the chunk starts
            before = groups.read()
            result = run_phase(name, url, make, cfg.clients, seconds)
            used = CpuUse.between(before, groups.read())
            if spy is not None:
                spy.stop()
                spied.append(spy.out)
                spied_actions += len(result.recorder.accepted)
            cpu[kind] = cpu[kind].plus(used) if kind in cpu else used
            own = dict(used.seconds).get(SERVER_OF.get(kind, ""), 0.0)
            chunks.setdefault(kind, []).append((len(result.recorder.accepted), result.recorder.games_created, own))
            return result

        def inserter(phase: Phase, i: int) -> BaselineClient:
            return BaselineClient(phase, f"b{i}")

        base_results: list[PhaseResult] = []
        write_results: list[PhaseResult] = []
        fullpath_results: list[PhaseResult] = []
        flask_results: list[PhaseResult] = []
        compare_results: list[PhaseResult] = []
        write_cache = CacheCounts()
        keyspace_before = redis_keyspace(services.redis_url)
        for r in range(cfg.rounds):
            self.log(f"baseline chunk {r + 1}/{cfg.rounds}: {cfg.clients} clients x {chunk:g} s")
            base_results.append(measured("baseline", f"baseline-{r}", baseline.url, inserter, chunk))
            if flask_base is not None:
                self.log(f"Flask baseline chunk {r + 1}/{cfg.rounds}")
                flask_results.append(measured("Flask baseline", f"flask-baseline-{r}", flask_base.url, inserter,
                                              chunk))
            if compare is not None and r % 2 == 1:  # every other round the compared revision goes first
                self.log(f"compared ({cfg.compare_with}) write path chunk {r + 1}/{cfg.rounds}")
                compare_results.append(measured("compared write path", f"compared-{r}", compare.url,
                                                self._scripted(scripts, r + 200), chunk))
            self.log(f"service write path chunk {r + 1}/{cfg.rounds}")
            before = read_counts(self.stats_dir)
            write_results.append(measured("write path", f"write-{r}", service.url, self._scripted(scripts, r), chunk))
            time.sleep(1.2)  # let every worker dump its counters
            write_cache = write_cache.plus(delta(before, read_counts(self.stats_dir)))
            if compare is not None and r % 2 == 0:
                self.log(f"compared ({cfg.compare_with}) write path chunk {r + 1}/{cfg.rounds}")
                compare_results.append(measured("compared write path", f"compared-{r}", compare.url,
                                                self._scripted(scripts, r + 200), chunk))
            if fullpath is not None:
                self.log(f"full-path write path chunk {r + 1}/{cfg.rounds}")
                fullpath_results.append(measured("full-path write path", f"fullpath-{r}", fullpath.url,
                                               self._scripted(scripts, r + 100), chunk))
        if spied:
            worker_ms = dict(cpu["write path"].per(spied_actions)).get("gunicorn: service", float("nan"))
            self.results.py_spy = summarize(spied, spied_actions, worker_ms)
        self.log(f"bot mix: {cfg.clients} clients x {cfg.bot_seconds:g} s")
        before = read_counts(self.stats_dir)
        bots_holder: list[BotPlayer] = []

        def make_bot(ph: Phase, i: int) -> BotPlayer:
            bot = BotPlayer(ph, f"bot{i}")
            bots_holder.append(bot)
            return bot

        bots = measured("bot mix", "bots", service.url, make_bot, cfg.bot_seconds)
        time.sleep(1.2)
        bots_cache = delta(before, read_counts(self.stats_dir))
        keyspace_after = redis_keyspace(services.redis_url)
        keyspace = None
        if keyspace_before and keyspace_after:
            keyspace = (keyspace_after[0] - keyspace_before[0], keyspace_after[1] - keyspace_before[1])
        self.log("checking every write-path game (events against the scripts, audits)")
        integrity = check_games(store, service.url, [g for w in write_results for g in w.ledgers])
        bot_games = [g for b in bots_holder for g in b.games]
        audits = sum(1 for g in bot_games if audit_game(service.url, g)[0])
        compare_integrity = None
        if compare is not None:
            compare_integrity = check_games(store, compare.url, [g for w in compare_results for g in w.ledgers])
        return LoadSection(tuple(base_results), tuple(write_results), tuple(fullpath_results), tuple(flask_results),
                           bots, write_cache,
                           bots_cache, keyspace, integrity, (audits, len(bot_games)), tuple(cpu.items()),
                           tuple(compare_results), compare_integrity,
                           tuple((k, tuple(v)) for k, v in chunks.items()))

    def _scripted(self, scripts: list[GameScript], round_no: int) -> Callable[[Phase, int], ScriptedPlayer]:
        def make(phase: Phase, i: int) -> ScriptedPlayer:
            return ScriptedPlayer(phase, scripts, f"w{round_no}-{i}", i + round_no * self.config.clients)

        return make

    def measure_growth(self, env: tuple[tuple[str, str], ...], services: Services, store: EventStore
                       ) -> GrowthResult:
        """Cost of reads and actions as a game grows, on a server whose workers
        keep no state of their own (``CABLECAR_LOCAL_CACHE_ENTRIES=0``): Redis
        is then the only cache, so flushing it makes a read truly cold."""
        import redis

        self.log("growth: deciding long games")
        script = longest_script([f"long-{i}" for i in range(6)])
        server = Gunicorn(ServerSpec("bench.load.instrumented_wsgi:app", self.config.workers, self.config.threads,
                                     (*env, ("CABLECAR_LOCAL_CACHE_ENTRIES", "0"))),
                          self.work / "gunicorn-growth.log")
        client = redis.Redis.from_url(services.redis_url)
        try:
            server.wait_ready("/v1/health")
            self.log(f"growth: measuring up to {script.version_after(len(script.actions))} events")
            return measure_growth(store, server.url, lambda: None if client.flushdb() else None, script,
                                  self.config.growth_reps)
        finally:
            client.close()
            server.stop()

    def run_faults(self, service: Gunicorn, services: Services, store: EventStore, scripts: list[GameScript]) -> None:
        """Every fault scenario, one after another."""
        cfg = self.config
        settings = FaultSettings(cfg.fault_clients, cfg.fault_seconds, cfg.fault_warmup, cfg.outage,
                                        cfg.racers, cfg.race_rounds)
        steps: list[tuple[str, Callable[[], FaultResult]]] = [
            ("redis restart", lambda: redis_restart(service, services, store, scripts, settings)),
            ("postgres restart", lambda: postgres_restart(service, services, store, scripts, settings)),
            ("worker kill", lambda: worker_kill(service, store, scripts, settings)),
            ("dropped responses", lambda: dropped_responses(service, store, scripts, settings)),
        ]
        for name, step in steps:
            self.log(f"fault: {name} ({cfg.fault_clients} clients x {cfg.fault_seconds:g} s)")
            result = self.guarded(f"fault {name}", step)
            if result is not None:
                self.results.faults.append(result)
        self.log(f"fault: {cfg.racers} clients, same action, same version")
        race = self.guarded("fault same-action race", lambda: same_action_race(service, store, scripts, settings))
        if race is not None:
            self.results.faults.append(race[0])
            self.results.races = race[1]

    def run_fuzz(self, service: Gunicorn) -> FuzzSection:
        """schemathesis twice, then hypothesis over action bodies."""
        cfg = self.config
        return fuzz_server(service.url, self.work, cfg.schemathesis_examples, cfg.schemathesis_max_time,
                           cfg.body_examples, self.log)


def main_with(config: HarnessConfig, write: Callable[[RunResults], str]) -> int:
    """Run and write the report; the exit code is 0 (benchmarks never fail CI)
    unless the harness itself could not run."""
    harness = Harness(config)
    results = harness.run()
    text = write(results)
    Path(config.report).parent.mkdir(parents=True, exist_ok=True)
    Path(config.report).write_text(text)
    harness.log(f"report written to {config.report} ({results.seconds:.0f} s)")
    return 0
