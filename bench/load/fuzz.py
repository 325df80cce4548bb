"""Bad input against the running server: schemathesis and hypothesis.

* **schemathesis** (its CLI) generates requests for every operation of the
  server's own ``/openapi.json``, twice: once as it likes (random ids, no
  token) and once pinned to a real game with a real seat token, so the
  generated bodies and parameters reach the rules; the only check is
  ``not_a_server_error`` (no 5xx).
* **hypothesis** sends action bodies to ``POST /v1/games/{id}/actions`` of
  real games with real seat tokens: arbitrary JSON values, valid bodies
  (taken from the legal actions) with fields replaced by arbitrary values,
  removed or added, and raw bytes that are not JSON.  Every answer must be
  below 500.
"""

from __future__ import annotations

import json
import re
import subprocess
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from hypothesis import HealthCheck, given, seed, settings
from hypothesis import strategies as st

from bench.load.http import Connection, TransportFailure
from domain.core import JSON


@dataclass(frozen=True)
class SchemathesisRun:
    """One schemathesis CLI run."""

    label: str
    command: str
    #: test cases generated (each one request or more)
    cases: int
    #: unique failures of the ``not_a_server_error`` check (5xx answers)
    server_errors: int
    exit_code: int
    #: the FAILURES section of the output (how to reproduce each), '' if none
    failures: str


@dataclass(frozen=True)
class BodyFuzz:
    """The hypothesis run over action bodies."""

    inputs: int
    statuses: tuple[tuple[int, int], ...]
    server_errors: int
    transport_errors: int
    first_failure: str


_CASES = re.compile(r"(\d+) generated")
_SERVER_ERRORS = re.compile(r"Server error: (\d+)")


def run_schemathesis(
    base_url: str, workdir: Path, label: str, max_examples: int, game_id: str | None = None,
    token: str | None = None, max_time: int = 120,
) -> SchemathesisRun:
    """Run ``schemathesis run <base_url>/openapi.json`` (config file in ``workdir``)."""
    workdir.mkdir(parents=True, exist_ok=True)
    config = ['request-timeout = 30.0']
    if token:
        config.append(f'headers = {{ Authorization = "Bearer {token}" }}')
    if game_id:
        config += ["", "[parameters]", f'"path.id" = "{game_id}"']
    (workdir / "schemathesis.toml").write_text("\n".join(config) + "\n")
    argv = [
        "schemathesis", "--config-file", str(workdir / "schemathesis.toml"), "run", f"{base_url}/openapi.json",
        "--checks", "not_a_server_error", "--max-examples", str(max_examples), "--max-time", str(max_time),
        "--phases", "examples,coverage,fuzzing", "--no-color", "--seed", "7",
        "--report", "ndjson", "--report-ndjson-path", str(workdir / "events.ndjson"),
    ]
    log = workdir / "schemathesis.log"
    with log.open("w") as out:
        proc = subprocess.run(argv, cwd=workdir, stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT,
                              timeout=max_time + 300, check=False)
    text = log.read_text()
    cases = _CASES.search(text)
    server_errors = _SERVER_ERRORS.search(text)
    failures = ""
    if "= FAILURES =" in text:
        start = text.index("= FAILURES =")
        end = text.find("= WARNINGS =", start)
        failures = text[text.index("\n", start) + 1:end if end > 0 else None].strip().rstrip("=").strip()
    shown = " ".join(a if " " not in a else repr(a) for a in argv).replace(str(workdir), "<workdir>")
    return SchemathesisRun(label, shown, int(cases.group(1)) if cases else 0,
                           int(server_errors.group(1)) if server_errors else 0, proc.returncode, failures[:2500])


def _json_values() -> st.SearchStrategy[JSON]:
    scalars = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=30)
    return st.recursive(
        scalars,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=12), inner, max_size=4),
        max_leaves=12,
    )


def _mutated(valid: Sequence[dict[str, JSON]]) -> st.SearchStrategy[JSON]:
    fields = sorted({k for body in valid for k in body} | {"expected_version", "type"})

    @st.composite
    def mutate(draw: st.DrawFn) -> JSON:
        body = dict(draw(st.sampled_from(list(valid))))
        for _ in range(draw(st.integers(1, 3))):
            op = draw(st.sampled_from(["replace", "drop", "add"]))
            key = draw(st.sampled_from(fields) | st.text(max_size=10))
            if op == "drop":
                body.pop(key, None)
            else:
                body[key] = draw(_json_values() | st.integers(-(2**70), 2**70) | st.sampled_from([0, -1, 2**53]))
        return body

    return mutate()


def fuzz_action_bodies(base_url: str, max_examples: int, random_seed: int = 7) -> BodyFuzz:
    """Hypothesis over ``POST /v1/games/{id}/actions`` bodies (see the module docs)."""
    conn = Connection(base_url)
    games: list[tuple[str, list[str]]] = []
    valid: list[dict[str, JSON]] = []
    for game_type, players in (("ttr-sf", 2), ("ttr-sf", 4), ("cable-car", 2)):
        created = conn.request("POST", "/v1/games", {"type": game_type, "players": [{"name": f"f{i}"}
                                                                                     for i in range(players)]})
        tokens = [s["token"] for s in created.body["seats"]]
        games.append((created.body["id"], tokens))
        for token in tokens:
            legal = conn.request("GET", f"/v1/games/{created.body['id']}/legal-actions?limit=20", token=token)
            if legal.status == 200:
                valid.extend(legal.body["actions"])
    statuses: Counter[int] = Counter()
    failures: list[str] = []
    transport = 0

    bodies = _json_values() | _mutated(valid or [{"type": "draw_card", "source": "deck"}]) | st.binary(max_size=60)

    @seed(random_seed)
    @settings(max_examples=max_examples, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(body=bodies, game=st.sampled_from(games), seat=st.integers(0, 3))
    def probe(body: JSON, game: tuple[str, list[str]], seat: int) -> None:
        nonlocal transport
        game_id, tokens = game
        token = tokens[seat % len(tokens)]
        path = f"/v1/games/{game_id}/actions"
        try:
            if isinstance(body, bytes):
                answer = conn.request_raw("POST", path, body, token)
            else:
                answer = conn.request("POST", path, body, token)
        except TransportFailure as e:
            transport += 1
            raise AssertionError(f"no answer to {body!r}: {e}") from e
        statuses[answer.status] += 1
        if answer.status >= 500:
            failures.append(f"{answer.status} for {json.dumps(body) if not isinstance(body, bytes) else body!r}")
            raise AssertionError(failures[-1])

    try:
        probe()
    except Exception as e:  # the failing example was recorded; keep the error if it was something else
        if not failures:
            failures.append(f"{type(e).__name__}: {e}"[:300])
    conn.close()
    return BodyFuzz(
        inputs=sum(statuses.values()) + transport,
        statuses=tuple(sorted(statuses.items())),
        server_errors=sum(n for s, n in statuses.items() if s >= 500),
        transport_errors=transport,
        first_failure=failures[0] if failures else "",
    )


@dataclass(frozen=True)
class FuzzSection:
    """Bad-input runs."""

    schemathesis: tuple[SchemathesisRun, ...]
    bodies: BodyFuzz


def fuzz_server(url: str, work: Path, examples: int, max_time: int, body_examples: int,
                log: Callable[[str], None]) -> FuzzSection:
    """schemathesis twice (free, then pinned to a real game with a seat token), then hypothesis over action bodies."""
    conn = Connection(url)
    created = conn.request("POST", "/v1/games", {"type": "ttr-sf", "players": [{"name": "a"}, {"name": "b"}]})
    conn.close()
    game_id, token = created.body["id"], created.body["seats"][0]["token"]
    runs: list[SchemathesisRun] = []
    for label, gid, tok in (("free (random ids, no token)", None, None),
                            ("pinned to a real game with a seat token", game_id, token)):
        log(f"fuzz: schemathesis {label}")
        runs.append(run_schemathesis(url, work / f"schemathesis-{len(runs)}", label, examples, gid, tok, max_time))
    log(f"fuzz: hypothesis over {body_examples} action bodies")
    return FuzzSection(tuple(runs), fuzz_action_bodies(url, body_examples))
