"""The report's later sections: growth, faults, fuzz, and how it was measured."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from bench.load.faults import FaultResult, RaceOutcome
from bench.load.fuzz import FuzzSection
from bench.load.growth import GrowthResult
from bench.load.markdown import error_counts, integrity_text, number, table


def growth_section(result: GrowthResult) -> list[str]:
    out = [
        "## Growth: cost as a game gets longer",
        "",
        "One long 4-player game (the longest of a few decided with a draw-heavy policy; "
        f"{result.longest_game} events, seed `{result.script_seed}`) is built to each length by appending its "
        "real events through the event store, then, on a server started with `CABLECAR_LOCAL_CACHE_ENTRIES=0` "
        "(Redis is the only cache, so a flushed Redis means a cold read: what a worker that does not hold the "
        "game pays), "
        f"{result.reps} times per length with nothing else running: *snapshot read* (the cache holds the state "
        "one action old: the GET replays the tail only), *warm read* (exact hit), *cold read* (Redis flushed: "
        "load and replay every event), *action* and *cold action* (POST one action, cache warm / flushed). "
        "Median (best) in ms. Ticket to Ride: San Francisco ends by its rules well before 1000 events (about 500 at "
        "most), so the longest row is the longest legal game found.",
        "",
    ]
    from bench.load.growth import MEASURES

    rows = [[str(r.events), *(f"{number(r.median(m), 2)} ({number(r.best(m), 2)})" for m in MEASURES)] for r in result.rows]
    out += table(["events", *MEASURES], rows)
    if len(result.rows) >= 2:
        first, last = result.rows[0], result.rows[-1]
        out += [""]
        for m in MEASURES:
            out.append(f"- {m}: x{number(last.median(m) / first.median(m), 2)} (best: "
                       f"x{number(last.best(m) / first.best(m), 2)}) from {first.events} to {last.events} events")
    return [*out, ""]


def faults_section(results: Sequence[FaultResult], races: Sequence[RaceOutcome]) -> list[str]:
    out = [
        "## Faults (each while scripted load runs)",
        "",
        "Every scenario runs scripted players (each action with `expected_version` and an `Idempotency-Key`, "
        "retried with the same key after a 503 or a lost connection; the acting seat's view read after each "
        "action), injects the fault after the warm-up, restores, and then checks every game touched: the stored "
        "events against the script (nothing acknowledged lost, nothing applied twice, nothing changed) and "
        "`GET /v1/games/{id}/audit`.",
        "",
    ]
    rows = []
    for f in results:
        rec = f.seen
        no_answer = sum(n for k, n in rec.errors.items() if k.startswith("no answer"))
        http_errors = Counter({k: n for k, n in rec.errors.items() if not k.startswith("no answer")})
        rows.append([
            f.name, f"{f.load.accepted:,}", error_counts(http_errors), str(len(rec.unclean)),
            f"{no_answer} (+{rec.resends} resent)", str(f.integrity.lost),
            str(f.integrity.duplicated + f.integrity.mismatched), f"{f.integrity.audits_ok}/{f.integrity.games}",
            "n/a" if f.recovered_after is None else f"{f.recovered_after:.2f} s",
            "n/a" if f.health_ok_after is None else f"{f.health_ok_after:.2f} s",
        ])
    out += table(["scenario", "actions", "HTTP errors seen", "unclean", "no answer", "lost", "dup/changed",
                   "audits ok", "first action after restore", "health ok after restore"], rows)
    for f in results:
        before = f.load.rate_between(f.load.started + 1, f.fault_at)
        during = f.load.rate_between(f.fault_at, max(f.restored_at, f.fault_at + 0.5))
        after = f.load.rate_between(f.restored_at, f.load.stopped) if f.load.stopped - f.restored_at >= 1 else None
        out += [
            "",
            f"### {f.name}",
            "",
            f"{f.what}. Fault at {f.fault_at - f.load.started:.1f} s, restored at "
            f"{f.restored_at - f.load.started:.1f} s. Actions/s before {number(before)}, during {number(during)}, "
            f"after {'n/a (the scenario ran to the end of the load)' if after is None else number(after)}.",
            "",
            f"- accepted actions per second: `{' '.join(map(str, f.per_second()))}`",
            f"- integrity: {integrity_text(f.integrity)}",
        ]
        if f.seen.stale_in_flight:
            out.append(f"- 409 stale_version answers to a retry whose first attempt (same key) was still in "
                       f"flight: {f.seen.stale_in_flight}")
        out += [f"- {k}: {v}" for k, v in f.notes]
        out += [f"- unclean: {u}" for u in f.seen.unclean[:5]]
        out += [f"- problem: {p}" for p in f.integrity.problems[:5]]
    if races:
        out += ["", "### Same action, same version, all at once", "",
                "Right answers: with a key each, one 201 and 409 `stale_version` for all the others; with one "
                "shared key, one 201 applied and the replay (201, `replayed: true`) for all the others.", ""]
        rows = [["one shared key" if r.same_key else "a key each", str(r.created), str(r.replayed),
                 error_counts(Counter(r.refused)), str(r.no_answer)] for r in races]
        out += table(["Idempotency-Key", "201 applied", "201 replayed", "refused", "no answer"], rows)
    return [*out, ""]


def fuzz_section(section: FuzzSection) -> list[str]:
    out = ["## Bad input", ""]
    rows = [[r.label, f"{r.cases:,}", str(r.server_errors), str(r.exit_code)] for r in section.schemathesis]
    out += table(["schemathesis run (check: not_a_server_error)", "test cases", "unique 5xx failures",
                   "exit code"], rows)
    out += ["", "Commands (the second run's config file pins the `id` path parameter to a real game and sends a "
            "seat token):", ""]
    out += [f"- `{r.command}`" for r in section.schemathesis]
    for r in section.schemathesis:
        if r.failures:
            out += ["", f"Failures of the run *{r.label}*, as schemathesis reports them:", "", "```text",
                    r.failures, "```"]
    b = section.bodies
    out += [
        "",
        f"Hypothesis over `POST /v1/games/{{id}}/actions` bodies (arbitrary JSON, mutated legal actions, raw "
        f"bytes; real games and seat tokens): **{b.inputs:,} inputs**, {b.server_errors} answers >= 500, "
        f"{b.transport_errors} without an answer. Statuses: "
        + ", ".join(f"{s}: {n}" for s, n in b.statuses) + ".",
    ]
    if b.first_failure:
        out.append(f"First failure: `{b.first_failure}`")
    return [*out, ""]


def method_section() -> list[str]:
    return [
        "## How to read this",
        "",
        "- *accepted* counts actions newly applied (201, not a replay) inside the timed window; requests/s counts "
        "every HTTP request including retries.",
        "- Latency is measured by the client around one request on a keep-alive connection (queueing in the "
        "server included).",
        "- *unclean* answers are any non-2xx answer other than a problem+json 503 `unavailable` or 409 "
        "(`stale_version`, `not_your_turn`, `game_finished`); *no answer* counts requests whose connection "
        "failed (a killed worker's in-flight requests); *resent* counts requests resent once on a fresh "
        "connection because the server had closed the kept-alive one, as HTTP client libraries do.",
        "- The cache ratio comes from the service's own counters (`service.adapters.cache.CacheStats`), added over "
        "workers by the bench-only wrapper `bench/load/instrumented_wsgi.py`.",
        "- Details of each part: `bench/README.md`.",
        "",
    ]
