"""``bash bench/run.sh --only soak``: the durability soak in each mode, and
``bench/results/SOAK.md`` (see :mod:`bench.load.soak`)."""

from __future__ import annotations

import os
import platform
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from bench.load.config import HarnessConfig
from bench.load.soak import SoakResult, SoakSettings, production_server, run_embedded, run_mode
from bench.load.stack import ROOT, Services, signing_key_file


def _log(message: str) -> None:
    print(f"[soak {time.strftime('%H:%M:%S')}] {message}", file=sys.stderr, flush=True)


def settings_of(config: HarnessConfig) -> SoakSettings:
    """The soak's sizes from the harness options."""
    return SoakSettings(seconds=config.soak_seconds, clients=config.soak_clients, workers=2,
                        threads=config.threads, fault_every=config.soak_fault_every,
                        max_requests=config.soak_max_requests)


def run_production(work: Path, config: HarnessConfig, cfg: SoakSettings) -> SoakResult:
    """The production mode: private PostgreSQL and Redis, a fresh database."""
    from events.factory import postgres_stores

    _log(f"starting PostgreSQL and Redis (state in {config.services_dir})")
    services = Services.up(config.services_dir)
    database_url = services.fresh_database()
    work.mkdir(parents=True, exist_ok=True)
    key_file = signing_key_file(work / "signing-key.json")  # a server on PostgreSQL signs with a configured key
    try:
        return run_mode("production",
                        lambda log: production_server(database_url, services.redis_url, log, cfg, key_file),
                        lambda: postgres_stores(database_url), work, cfg, None, _log)
    finally:
        services.drop_database(database_url)
        if not config.keep_services:
            services.down()


def run_soak(config: HarnessConfig) -> int:
    """Every mode of ``config.soak_modes``, then the report; 0 unless the harness could not run."""
    started = time.monotonic()
    cfg = settings_of(config)
    work = config.workdir / "soak"
    shutil.rmtree(work, ignore_errors=True)
    results: list[SoakResult] = []
    failures: list[str] = []
    for mode in config.soak_modes:
        try:
            if mode == "embedded":
                results.append(run_embedded(work / "embedded", cfg, _log))
            else:
                results.append(run_production(work / "production", config, cfg))
        except Exception as e:  # the report says what could not run
            _log(f"{mode} FAILED: {type(e).__name__}: {e}")
            failures.append(f"{mode}: {type(e).__name__}: {e}")
    text = render(results, failures, cfg, config.command, time.monotonic() - started)
    config.soak_report.parent.mkdir(parents=True, exist_ok=True)
    config.soak_report.write_text(text)
    _log(f"report written to {config.soak_report} ({time.monotonic() - started:.0f} s)")
    return 0


def _source() -> str:
    out = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, capture_output=True, text=True,
                         check=False)
    return os.environ.get("CABLECAR_BENCH_SOURCE") or out.stdout.strip() or "?"


def render(results: Sequence[SoakResult], failures: Sequence[str], cfg: SoakSettings, command: str,
           seconds: float) -> str:
    """The markdown report."""
    faults = ", ".join(s.name for s in cfg.faults)
    lines = [
        "# Durability soak",
        "",
        f"`{command}` ({seconds:.0f} s in all), {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, "
        f"source {_source()}, Python {platform.python_version()}, {os.cpu_count()} CPUs.",
        "",
        f"Per mode: {cfg.clients} scripted writers for {cfg.seconds:g} s against {cfg.workers} workers; every "
        f"{cfg.fault_every:g} s one worker is sent, in turn, {faults}; `CABLECAR_MAX_REQUESTS={cfg.max_requests}` "
        "(plus gunicorn's jitter of up to 100) recycles workers on top. Every game is created and every action "
        "POSTed with `expected_version` and an `Idempotency-Key`, retried with the same key through 503s and "
        "lost connections. Then the server is stopped, the SQLite file gets `PRAGMA integrity_check`, a fresh "
        "server is started on the same store, and every acknowledged game and action is compared with the store "
        "and every game audited (`GET /v1/games/{id}/audit`).",
        "",
        "- *embedded*: `cablecar serve` with no database URL (threaded workers, one SQLite file);",
        "- *production*: gunicorn with `service.serving.gunicorn_conf` (gevent workers), PostgreSQL and Redis.",
        "",
        "| mode | verdict | games acknowledged | games stored | actions acknowledged | actions stored | lost | "
        "duplicated | changed | audits failed | integrity_check | 5xx answers | no answer | requests | "
        "faults sent | recycled | worker crashes | tracebacks |",
        "|" + "---|" * 18,
    ]
    for r in results:
        s = r.stored
        fives = ", ".join(f"{k}: {n}" for k, n in r.answers_5xx.most_common()) or "0"
        sent = ", ".join(f"{k} {n}" for k, n in sorted(r.faults.items())) or "none"
        lines.append(
            f"| {r.mode} | {'**ok**' if r.ok else '**LOST OR DAMAGED**'} | {s.games_acknowledged:,} | "
            f"{s.games_stored:,} | {s.actions_acknowledged:,} | {s.actions_stored:,} | {s.lost} | {s.duplicated} | "
            f"{s.mismatched + s.gaps} | {s.audits_failed} | {r.integrity_check} | {fives} | {r.no_answer} | "
            f"{r.requests:,} | {sent} | {r.recycled} | {r.worker_crashes} | {r.tracebacks} |"
        )
    lines += [
        "",
        "*lost*: acknowledged games missing plus acknowledged actions missing; *duplicated*: events no "
        "acknowledged action explains, or one key applied twice; *changed*: stored events that differ from the "
        "script, or seq gaps; *5xx answers*: every answer >= 500 the writers got (`503 unavailable` is the clean "
        "refusal of a worker that is stopping or a store that is failing; the writers retry it); *no answer*: "
        "requests cut by a stopped worker (retried with the same key); *worker crashes*: workers the master saw "
        "exit with a non-zero code (a SIGKILL is logged apart and not counted); *tracebacks*: in the server log.",
    ]
    for r in results:
        if r.stored.problems:
            lines += ["", f"Problems ({r.mode}):", ""] + [f"- {p}" for p in r.stored.problems]
    if failures:
        lines += ["", "Could not run:", ""] + [f"- {f}" for f in failures]
    return "\n".join(lines) + "\n"
