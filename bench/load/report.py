"""The markdown report (``bench/results/REPORT.md``)."""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

from bench.load.cachestats import CacheCounts
from bench.load.cpu import per_action_and_game
from bench.load.load import PhaseResult
from bench.load.markdown import error_counts, integrity_text, number, percent, table
from bench.load.profile import ActionProfile
from bench.load.pyspy import markdown as pyspy_markdown
from bench.load.report_sections import faults_section, fuzz_section, growth_section, method_section
from bench.load.results import LoadSection, RunResults
from bench.load.scaling import render_scaling
from bench.load.security import render_security
from bench.load.stats import Recorder, latencies
from bench.load.streams import render_streams


def _merge(results: Sequence[PhaseResult]) -> Recorder:
    from bench.load.stats import merge

    return merge(r.recorder for r in results)


def _latency_rows(name: str, recorder: Recorder) -> list[list[str]]:
    return [[name, lat.label, f"{lat.count:,}", number(lat.p50), number(lat.p95), number(lat.p99), number(lat.max)]
            for lat in latencies(recorder)]


def _cache(counts: CacheCounts) -> str:
    return (f"{percent(counts.hit_ratio)} served from cache ({counts.hits:,} hits at the current version + "
            f"{counts.partial_hits:,} snapshot hits that replayed only newer events; {counts.misses:,} full replays; "
            f"{counts.errors} cache errors)")


def render(results: RunResults) -> str:
    """The whole report."""
    cfg = results.config
    out = [
        "# Cable Car: load, faults and speed",
        "",
        f"Written by the harness on {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())} in "
        f"{results.seconds:.0f} s. Command:",
        "",
        "```sh",
        cfg.command,
        "```",
        "",
        "Stack: gunicorn (`-c python:service.serving.gunicorn_conf`, "
        f"{cfg.workers} workers x {cfg.threads} threads) + PostgreSQL + Redis on this machine, a fresh database "
        "for the run. Clients are threads of the harness process on the same machine, each with a keep-alive "
        "connection. Numbers are noisy (2 cores shared with the server and with other work); compare the "
        "ratios, which are measured in the same run.",
        "",
        *table(["fact", "value"], [[k, f"`{v}`"] for k, v in results.environment.items()]),
        "",
    ]
    if results.failures:
        out += ["## Sections that failed to run", "", *[f"- {f}" for f in results.failures], ""]
    out += _headline(results)
    if results.load is not None:
        out += _load(results.load, cfg.clients)
    if results.profile is not None:
        out += _profile(results.profile)
    if results.py_spy is not None:
        out += ["## py-spy on the workers (write path)", "", *pyspy_markdown(results.py_spy), ""]
    if results.growth is not None:
        out += growth_section(results.growth)
    if results.faults:
        out += faults_section(results.faults, results.races)
    if results.streams is not None:
        out += render_streams(results.streams)
    if results.security is not None:
        out += render_security(results.security)
    if results.fuzz is not None:
        out += fuzz_section(results.fuzz)
    if results.scaling is not None:
        out += render_scaling(results.scaling, cfg.durable, cfg.scaling_seconds, cfg.scaling_rounds)
    out += _findings(results)
    out += method_section()
    return "\n".join(out) + "\n"


def _headline(results: RunResults) -> list[str]:
    rows: list[list[str]] = []
    load = results.load
    if load is not None:
        base = LoadSection.total_rate(load.baseline)
        write = LoadSection.total_rate(load.write)
        rows.append(["**action throughput / baseline insert throughput**",
                     f"**{number(load.ratio, 2)}** ({number(write)} actions/s vs {number(base)} inserts/s; goal >= 0.5)"])
        if load.flask_baseline:
            rows.append(["action throughput / a one-route Flask app's insert throughput (the framework's own floor)",
                         f"{number(load.flask_ratio, 2)} ({number(LoadSection.total_rate(load.flask_baseline))} inserts/s)"])
        if load.fullpath:
            rows.append(["same service without worker-local state (every action on the full path)",
                         f"{number(load.ratio_of(load.fullpath), 2)} ({number(LoadSection.total_rate(load.fullpath))} "
                         "actions/s)"])
        post = [lat for lat in latencies(_merge(load.write)) if lat.label.startswith("POST /v1/games/{id}/actions")]
        if post:
            rows.append(["POST /actions latency under load (p50 / p95 / p99)",
                         f"{number(post[0].p50)} / {number(post[0].p95)} / {number(post[0].p99)} ms"])
        get = [lat for lat in latencies(load.bots.recorder) if lat.label == "GET /v1/games/{id}"]
        if get:
            rows.append(["GET /games/{id} latency in the bot mix (p50 / p95 / p99)",
                         f"{number(get[0].p50)} / {number(get[0].p95)} / {number(get[0].p99)} ms"])
        rows.append(["cache hit ratio (bot mix)", percent(load.bots_cache.hit_ratio)])
        rows.append(["errors under load (write path + bots)",
                     error_counts(_merge(load.write).errors + load.bots.recorder.errors)])
    if results.growth is not None and results.growth.rows:
        first, last = results.growth.rows[0], results.growth.rows[-1]
        rows.append([f"snapshot read, {first.events} -> {last.events} events",
                     f"{number(first.median('snapshot read'))} -> {number(last.median('snapshot read'))} ms (median)"])
        rows.append([f"cold read (no cache), {first.events} -> {last.events} events",
                     f"{number(first.median('cold read'))} -> {number(last.median('cold read'))} ms (median)"])
    if results.faults:
        lost = sum(f.integrity.lost for f in results.faults)
        dup = sum(f.integrity.duplicated + f.integrity.mismatched for f in results.faults)
        audits = sum(f.integrity.audits_ok for f in results.faults)
        games = sum(f.integrity.games for f in results.faults)
        unclean = sum(len(f.seen.unclean) for f in results.faults)
        rows.append(["faults: events lost / duplicated or changed", f"{lost} / {dup}"])
        rows.append(["faults: games whose audit passed", f"{audits} / {games}"])
        rows.append(["faults: client-visible answers other than clean 503/409", str(unclean)])
    if results.fuzz is not None:
        st_cases = sum(r.cases for r in results.fuzz.schemathesis)
        st_5xx = sum(r.server_errors for r in results.fuzz.schemathesis)
        rows.append(["bad input: inputs tried / inputs answered 5xx",
                     f"{st_cases + results.fuzz.bodies.inputs:,} / {st_5xx + results.fuzz.bodies.server_errors} "
                     "(schemathesis counts unique failures)"])
    if results.scaling:
        cells = {(r.clients, r.variant): r for r in results.scaling}
        for n in sorted({r.clients for r in results.scaling}):
            new, old = cells.get((n, "shipped")), cells.get((n, "old lock"))
            if new is not None and old is not None and old.rate:
                rows.append([f"appends/s at {n} clients, no lock / old global lock",
                             f"{new.rate:,.0f} / {old.rate:,.0f} (x{new.rate / old.rate:.2f})"])
    return ["## Headline", "", *table(["measure", "value"], rows), ""]


def _load(load: LoadSection, clients: int) -> list[str]:
    out = ["## Load", ""]
    out += [
        f"{clients} concurrent clients. **Baseline**: `bench/baseline_app.py`, a plain WSGI function under the same "
        "gunicorn configuration that inserts the JSON body as one row into PostgreSQL (same pool size) and "
        "answers JSON. **Write path**: scripted players create games (with a seed, so the deal is known) and "
        "POST every action of a game decided in advance with `expected_version` and an `Idempotency-Key`, one "
        "request per action, as fast as they get answers: the same one-request-one-write shape as the baseline. "
        "Baseline and write path alternate in chunks so that background noise hits both. **Bot mix**: clients "
        "play like `bots/client.py` (per move: the seat's view, its legal actions, the chosen action).",
        "",
    ]
    rows = []
    for r in (*load.baseline, *load.flask_baseline, *load.write, *load.compare, *load.fullpath, load.bots):
        rows.append([r.name, f"{r.seconds:.1f}", f"{r.accepted:,}", number(r.throughput), number(r.request_rate),
                     f"{r.recorder.games_created:,} / {r.recorder.games_finished:,}", error_counts(r.recorder.errors)])
    out += table(["phase", "seconds", "accepted", "per second", "requests/s", "games created / finished",
                   "errors"], rows)
    base = LoadSection.total_rate(load.baseline)
    out += [
        "",
        f"- Baseline: **{number(base)} inserts/s**; service write path: **{number(LoadSection.total_rate(load.write))} "
        f"actions/s**; ratio **{number(load.ratio, 2)}**.",
        *([f"- Flask baseline (`bench/baseline_app.py` `flask_app`: the same insert as a one-route Flask app, "
           f"same gunicorn configuration): **{number(LoadSection.total_rate(load.flask_baseline))} inserts/s**; the "
           f"service reaches **{number(load.flask_ratio, 2)}** of it."] if load.flask_baseline else []),
        *([f"- Full-path write path (the same service with `CABLECAR_LOCAL_CACHE_ENTRIES=0`: no worker-local "
           f"state, so every action reads the game row and Redis, appends, and writes Redis): "
           f"**{number(LoadSection.total_rate(load.fullpath))} actions/s**, ratio "
           f"**{number(load.ratio_of(load.fullpath), 2)}**."] if load.fullpath else []),
        *([f"- Compared revision (`--compare-with`, its write path in every round next to this one's, the same "
           f"database, Redis and gunicorn configuration): **{number(LoadSection.total_rate(load.compare))} actions/s**, "
           f"ratio **{number(load.ratio_of(load.compare), 2)}**; its games: "
           f"{integrity_text(load.compare_integrity) if load.compare_integrity else 'not checked'}."]
          if load.compare else []),
        f"- Bot mix: {number(load.bots.throughput)} actions/s from {number(load.bots.request_rate)} requests/s "
        f"({number(load.bots.request_rate / base if base else math.nan, 2)} x the baseline's request rate); "
        f"{load.bots.recorder.conflicts} stale-version conflicts.",
        f"- Write-path cache: {_cache(load.write_cache)}.",
        f"- Bot-mix cache: {_cache(load.bots_cache)}.",
    ]
    if load.redis_keyspace is not None:
        hits, misses = load.redis_keyspace
        out.append(f"- Redis INFO over the load section: keyspace_hits {hits:,}, keyspace_misses {misses:,} "
                   "(also counts the read inside every cache write).")
    out += [
        f"- Write-path games checked event by event against their scripts: {integrity_text(load.write_integrity)}.",
        f"- Bot-mix games audited: {load.bot_audits[0]}/{load.bot_audits[1]} ok.",
        f"- Resent on a fresh connection after the server had closed a keep-alive one: "
        f"{_merge(load.write).resends + load.bots.recorder.resends}.",
        "",
        "### CPU per accepted action (ms)",
        "",
        "CPU time (user + system, from `/proc`) spent by each part of the stack during the phase, divided by "
        "the actions (inserts, for the baseline) accepted in it. On 2 shared cores this, not waiting, is what "
        "bounds throughput.",
        "",
        *_cpu_table(load),
        *_net_of_creation(load),
        "",
        "### Latency (ms)",
        "",
    ]
    rows = _latency_rows("baseline", _merge(load.baseline))
    if load.flask_baseline:
        rows += _latency_rows("Flask baseline", _merge(load.flask_baseline))
    rows += _latency_rows("write path", _merge(load.write))
    if load.compare:
        rows += _latency_rows("compared write path", _merge(load.compare))
    if load.fullpath:
        rows += _latency_rows("full-path write path", _merge(load.fullpath))
    rows += _latency_rows("bot mix", load.bots.recorder)
    out += table(["phase", "request", "count", "p50", "p95", "p99", "max"], rows)
    return [*out, ""]


def _net_of_creation(load: LoadSection) -> list[str]:
    lines = []
    for kind, chunks in load.chunks:
        if kind == "baseline" or not any(g for _, g, _ in chunks):
            continue
        fit = per_action_and_game(list(chunks))
        if fit is not None and fit[0] > 0 and fit[1] > 0:  # a noisy machine can make the fit meaningless
            lines.append(f"- {kind}: **{number(fit[0], 2)} ms per action** and {number(fit[1], 2)} ms per game created "
                         f"(its server, {len(chunks)} chunks)")
    if not lines:
        return []
    return ["", "Every client creates a game when a chunk starts, so a slow chunk pays more creation per action. "
            "The server's CPU split by least squares over the chunks (CPU = a x actions + b x games created):", "",
            *lines]


def _cpu_table(load: LoadSection) -> list[str]:
    kinds = {"baseline": load.baseline, "Flask baseline": load.flask_baseline, "write path": load.write,
             "full-path write path": load.fullpath, "compared write path": load.compare,
             "bot mix": (load.bots,)}
    rows: list[list[str]] = []
    header: list[str] = []
    for kind, use in load.cpu:
        accepted = sum(len(r.recorder.accepted) for r in kinds.get(kind, ()))
        per = use.per(accepted)
        header = [name for name, _ in per]
        rows.append([kind, f"{accepted:,}", *(number(v, 2) for _, v in per)])
    return table(["phase", "accepted", *header], rows) if rows else []


def _profile(p: ActionProfile) -> list[str]:
    out = [
        "## Where an action's time goes (one thread, in process)",
        "",
        "`bench/load/profile.py` drives the app built by `service.api.app.create_app` (same PostgreSQL and Redis) "
        "through Flask's test client, one scripted action after another: no HTTP, no gunicorn, no concurrency.",
        "",
        f"- **{number(p.ms_per_action, 2)} ms per action**, of which **{number(p.cpu_ms_per_action, 2)} ms CPU** in this "
        f"process ({p.actions} actions, no profiler); the rest is waiting for PostgreSQL and Redis.",
        f"- Database: {number(p.transactions_per_action, 2)} transactions per action; statements per action: "
        + ", ".join(f"{name} {number(n, 2)}" for name, n in p.statements) + ".",
        "- Redis commands per action: " + (", ".join(f"{name} {number(n, 2)}" for name, n in p.redis_commands) or "none")
        + ".",
        "- The baseline does 1 statement (1 transaction) per request and no Redis command.",
        "",
    ]
    out += ["CPU by group (cProfile with a `process_time` timer; the time of builtins and standard-library code "
            "is given to the groups that called it, e.g. `copy.deepcopy` under marshmallow; Flask / Werkzeug "
            "includes the test client building each request):", ""]
    out += table(["CPU spent in", "share"],
                  [[name, percent(share)] for name, share in p.shares])
    if p.top:
        out += ["", "The functions with the most CPU self time under the same profiler (its own cost per call "
                "inflates small functions called often):", ""]
        out += table(["#", "function", "self ms / action", "share"],
                      [[str(i), f"`{name}`", number(ms, 3), percent(share)] for i, (name, ms, share) in enumerate(p.top, 1)])
    return [*out, ""]


def _findings(results: RunResults) -> list[str]:
    notes: list[str] = []
    load = results.load
    if load is not None and load.ratio < 0.5:
        cpu = {kind: dict(use.per(sum(len(r.recorder.accepted) for r in phases)))
               for kind, use in load.cpu
               for phases in [{"baseline": load.baseline, "write path": load.write}.get(kind, ())] if phases}
        write, base = cpu.get("write path", {}), cpu.get("baseline", {})
        notes.append(
            f"The write path reaches {number(load.ratio, 2)} of the baseline (goal 0.5). The machine is CPU-bound, and "
            f"an action costs {number(write.get('total', math.nan), 2)} ms of CPU over the whole stack against "
            f"{number(base.get('total', math.nan), 2)} ms for a baseline insert: "
            f"{number(write.get('gunicorn: service', math.nan), 2)} ms in the gunicorn workers (baseline "
            f"{number(base.get('gunicorn: baseline', math.nan), 2)}) and {number(write.get('PostgreSQL', math.nan), 2)} ms "
            f"in PostgreSQL (baseline {number(base.get('PostgreSQL', math.nan), 2)}). To reach 0.5 an action would "
            f"have to cost about {number(2 * base.get('total', math.nan), 2)} ms in all. An action already is at "
            "most one database round trip (the appends of concurrent actions share one: group commit) and, most "
            "of the time, no Redis round trip; what is left is CPU spread over many parts: the HTTP request and "
            "answer, the checks of the body and the action parsed from it, the rules deciding and applying the "
            "action, encoding, hashing and signing the events, psycopg sending the call, and in PostgreSQL the "
            "function itself (guard, idempotency key, version check, chained hashes, about 1.5 event rows and a "
            "key row per action against the baseline's one row: `bench/results/ROWS.md`)."
        )
        if load.flask_baseline:
            flask_cpu = next((dict(use.per(sum(len(r.recorder.accepted) for r in load.flask_baseline)))
                              for kind, use in load.cpu if kind == "Flask baseline"), {})
            notes.append(
                "The same one-row insert written as a one-route Flask app manages "
                f"{number(LoadSection.total_rate(load.flask_baseline))} inserts/s "
                f"({number(LoadSection.total_rate(load.flask_baseline) / LoadSection.total_rate(load.baseline), 2)} of "
                f"the bare WSGI baseline) at {number(flask_cpu.get('total', math.nan), 2)} ms of CPU per insert: the web "
                "framework the service is built on takes that much before the service does anything. Against that "
                f"floor the service reaches {number(load.flask_ratio, 2)}."
            )
        if load.fullpath:
            gain = load.ratio / load.ratio_of(load.fullpath) if load.ratio_of(load.fullpath) else math.nan
            full_cpu = next((dict(use.per(sum(len(r.recorder.accepted) for r in load.fullpath)))
                             for kind, use in load.cpu if kind == "full-path write path"), {})
            notes.append(
                "Without the worker-local state (`CABLECAR_LOCAL_CACHE_ENTRIES=0`) every action reads the game "
                "row, reads Redis, appends and writes Redis: "
                f"{number(load.ratio_of(load.fullpath), 2)} of the baseline at "
                f"{number(full_cpu.get('total', math.nan), 2)} ms of CPU per action; the one-round-trip path "
                f"(inside `GameCommands.act`, `service/usecases/commands.py`) is x{number(gain, 2)} that."
            )
    shared = [r for r in results.races if r.same_key and r.refused]
    in_flight = sum(f.seen.stale_in_flight for f in results.faults)
    if shared or in_flight:
        notes.append(
            "A retry with the same Idempotency-Key can be answered `409 stale_version` instead of the replay "
            f"when its first attempt is still in flight ({sum(sum(r.refused.values()) for r in shared)} of the "
            f"shared-key racers; {in_flight} retries after a dropped answer). Nothing is written twice (the "
            "checks above pass), but the client is told its action failed when it succeeded: `GameCommands.act` "
            "(`service/usecases/commands.py`) must look the key up again before it answers a refusal."
        )
    if results.fuzz is not None:
        for run in results.fuzz.schemathesis:
            if run.server_errors:
                text = (f"schemathesis ({run.label}) found {run.server_errors} request(s) answered 5xx: see the "
                        "Bad input section for how to reproduce them.")
                if "\\u0000" in run.failures and "POST /v1/games" in run.failures:
                    text += (" The request carries a player name containing U+0000: PostgreSQL cannot store NUL "
                             "in jsonb, the store raises IntegrityError, which has no error handler, so the "
                             "answer is 500 (SQLite accepts it, so the in-process fuzz test in tests/api never "
                             "sees it). Fix: refuse control characters in names in `service/api/schemas/requests.py` "
                             "(400), and map the store's IntegrityError to a problem answer.")
                notes.append(text)
                break
    if not notes:
        return []
    return ["## Findings", "", *[f"- {n}" for n in notes], ""]


