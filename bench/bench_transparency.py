"""The transparency log's costs (issue 35), per backend and tree size: publishing a checkpoint (per
batch of new leaves: read the new events, hash their leaves and the nodes they complete, store them and a
signed checkpoint in one transaction) and serving an inclusion and a consistency proof.

A tree of N leaves is filled in bulk, not by playing N games: N random leaf hashes, every perfect node
above them (events/integrity/merkle.py's node_hash, level by level) and a signed checkpoint of its root, written
straight into log_leaves, log_nodes and log_checkpoints (SQLite: executemany; PostgreSQL: COPY, as the
owner), and the log's head (log_state) moved to it.  Then a game of B real events is appended through the
store and the server's publisher (LogPublisher.publish) times the checkpoint that takes them in; the
proofs are LogProofs' (the route's work without HTTP): the inclusion of that game's last event in the new
tree, and the consistency from the tree a third of the size (a published checkpoint too) to it.

    python bench/bench_transparency.py                    # 1,000 / 100,000 / 1,000,000 leaves; sqlite, and
                                                          # postgres when CABLECAR_TEST_DATABASE_URL is set
    python bench/bench_transparency.py --smoke            # 1,000 leaves, sqlite: what the test suite runs
    python bench/bench_transparency.py --sizes 1000,100000 --batches 100,1000 --out /tmp/T.md

Writes bench/results/TRANSPARENCY.md (``--out``): one row per backend, tree size and batch.
"""

from __future__ import annotations

import argparse
import io
import os
import platform
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_store import median_time  # noqa: E402
from events.encoding.timestamps import format_timestamp, system_clock  # noqa: E402
from events.integrity import merkle  # noqa: E402
from events.integrity.checkpoint import Checkpoint, sign_note  # noqa: E402
from events.integrity.signing import Signer  # noqa: E402
from events.recorders.capabilities import Stores  # noqa: E402
from events.records import NewEvent  # noqa: E402
from events.sql.database import SqlDatabase  # noqa: E402
from service.usecases.checkpoints import LogProofs, LogPublisher  # noqa: E402

ORIGIN = "bench.example.org/log"
RESULTS = Path(__file__).resolve().parent / "results" / "TRANSPARENCY.md"
HEADER = ("| backend | tree size | batch | publish (ms) | per leaf (µs) | inclusion proof (ms) | "
          "consistency proof (ms) | fill (s) |")


class _Clock:
    """What the publisher needs of a clock (the lease's database time is not timed here)."""

    def estimated_time(self) -> Any:
        return system_clock()


def _perfect_nodes(leaves: list[bytes]) -> Iterator[tuple[int, int, bytes]]:
    """Every perfect node of the tree of ``leaves``, level by level (level 0: the leaves)."""
    level, row = 0, leaves
    while row:
        yield from ((level, i, h) for i, h in enumerate(row))
        row = [merkle.node_hash(row[i], row[i + 1]) for i in range(0, len(row) - 1, 2)]
        level += 1


def _database(stores: Stores) -> SqlDatabase:
    """The SQL database under ``stores`` (both backends' are)."""
    database = stores.database
    assert isinstance(database, SqlDatabase)
    return database


def _bulk(database: SqlDatabase, table: str, columns: str, rows: list[tuple[Any, ...]]) -> None:
    with database.transaction() as cur:
        if database.dialect.name == "postgres":
            with cur.copy(f"COPY {table} ({columns}) FROM STDIN") as copy:
                for row in rows:
                    copy.write_row(row)
        else:
            marks = ", ".join("?" for _ in columns.split(","))
            cur.executemany(f"INSERT INTO {table} ({columns}) VALUES ({marks})", rows)


def fill(stores: Stores, signer: Signer, size: int, game_id: str, extra_sizes: list[int]) -> None:
    """A published tree of ``size`` random leaves (and checkpoints of ``extra_sizes``), in bulk."""
    database = _database(stores)
    rng = os.urandom(32 * size)
    leaves = [rng[32 * i:32 * i + 32] for i in range(size)]
    nodes = list(_perfect_nodes(leaves))
    # filler leaves belong to one game; their positions are negative so that the publisher's next read
    # (after the last checkpoint's last_position, a real event's) finds the events appended afterwards
    _bulk(database, "log_leaves", "leaf_index, game_id, seq, position",
          [(i, game_id, i + 1, -(i + 1)) for i in range(size)])
    _bulk(database, "log_nodes", "level, node_index, hash", nodes)
    last = stores.events.read_all(0, 10)[-1].position  # the filler game's one event: nothing else exists yet
    hashes = {(lv, i): h for lv, i, h in nodes}
    for n in sorted({*extra_sizes, size}):
        root = merkle.range_hash([hashes[x] for x in merkle.tree_nodes(n)])
        note = sign_note(Checkpoint(ORIGIN, n, root).body(), ORIGIN, signer.public_raw, signer.sign_bytes)
        _bulk(database, "log_checkpoints", "tree_size, root_hash, note, key_id, last_position, created_at",
              [(n, root, note, signer.key_id, last, database.dialect.time_param(system_clock()))])
    # the head the publisher extends (as the owner: on PostgreSQL only the owner's function writes it)
    with database.transaction() as cur:
        cur.execute(database.dialect.sql("UPDATE log_state SET tree_size = ?, last_position = ?"), (size, last))


def _ms(action: Callable[[], Any], repeat: int) -> float:
    return median_time(action, repeat) * 1000


def measure(make_stores: Callable[[Signer], Stores], backend: str, size: int, batches: list[int],
            repeat: int) -> list[dict[str, Any]]:
    """The rows of one backend and tree size."""
    signer = Signer.generate(format_timestamp(system_clock()))
    stores = make_stores(signer)
    store = stores.events
    rows = []
    try:
        filler = f"filler-{size}"
        store.create_game(filler, "ttr-sf", {"players": ["a", "b"], "leaf_salt": "ab" * 32},
                          [NewEvent("noted", {"i": 0})], "finished")
        started = time.perf_counter()
        fill(stores, signer, size, filler, [max(1, size // 3)])
        filled = time.perf_counter() - started
        publisher = LogPublisher(stores.log, signer, ORIGIN, _Clock(), max_leaves=max(batches))
        proofs = LogProofs(stores.log, store)
        for batch in batches:
            publish_ms = []
            for r in range(repeat):
                game = f"g-{batch}-{r}"
                store.create_game(game, "ttr-sf", {"players": ["a", "b"], "leaf_salt": "cd" * 32},
                                  [NewEvent("noted", {"i": i}) for i in range(batch)], "finished")
                start = time.perf_counter()
                published = publisher.publish()
                publish_ms.append((time.perf_counter() - start) * 1000)
                assert published is not None and published.tree_size >= size + batch
            tree = published.tree_size
            inclusion = _ms(lambda g=game, t=tree: proofs.inclusion(g, t), repeat)  # type: ignore[misc]
            cp, leaf, proof = proofs.inclusion(game, tree)  # the figures are of proofs that verify
            last = store.load(game)[-1].hash
            assert merkle.verify_inclusion(merkle.leaf_hash(bytes.fromhex(last) + bytes.fromhex("cd" * 32)),
                                           leaf.leaf_index, tree, proof, cp.root_hash)
            first = max(1, size // 3)
            assert merkle.verify_consistency(first, tree, proofs.consistency(first, tree),
                                             proofs.checkpoint(first).root_hash, cp.root_hash)
            consistency = _ms(lambda f=first, t=tree: proofs.consistency(f, t), repeat)  # type: ignore[misc]
            median = statistics.median(publish_ms)
            rows.append({"backend": backend, "size": size, "batch": batch, "publish_ms": median,
                         "per_leaf_us": median * 1000 / batch, "inclusion_ms": inclusion,
                         "consistency_ms": consistency, "fill_s": filled})
            print(f"{backend:<8} {size:>9} leaves  batch {batch:>5}: publish {median:8.2f} ms "
                  f"({median * 1000 / batch:6.1f} µs/leaf)  inclusion {inclusion:6.2f} ms  "
                  f"consistency {consistency:6.2f} ms  (filled in {filled:.1f} s)", flush=True)
    finally:
        stores.close()
    return rows


@contextmanager
def sqlite_stores() -> Iterator[Callable[[Signer], Stores]]:
    from events import factory

    with tempfile.TemporaryDirectory() as folder:
        made = iter(range(1_000_000))
        yield lambda signer: factory.sqlite_stores(Path(folder) / f"log-{next(made)}.sqlite3", signer=signer)


@contextmanager
def postgres_stores(admin_url: str) -> Iterator[Callable[[Signer], Stores]]:
    import psycopg

    from events import factory

    names: list[str] = []

    def make(signer: Signer) -> Stores:
        name = f"cc_bench_tlog_{uuid.uuid4().hex[:10]}"
        with psycopg.connect(admin_url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"'.encode())
        names.append(name)
        url = admin_url.rsplit("/", 1)[0] + f"/{name}"
        factory.migrate(url)
        return factory.postgres_stores(url, signer=signer)

    try:
        yield make
    finally:
        with psycopg.connect(admin_url, autocommit=True) as admin:
            for name in names:
                admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'.encode())


def report(rows: list[dict[str, Any]], command: str) -> str:
    """The results file."""
    out = io.StringIO()
    out.write("# The transparency log's costs (issue 35)\n\n")
    out.write(f"`{command}` (bench/bench_transparency.py), {time.strftime('%Y-%m-%d')}, on "
              f"{platform.machine()} {platform.system()} {platform.release()}, {os.cpu_count()} CPUs "
              f"(shared), Python {platform.python_version()}.\n\n")
    out.write("Publish: one checkpoint taking in a batch of new events (median of the repeats). Proofs: "
              "`LogProofs.inclusion` (the game's lookup, its leaf, the nodes) and `LogProofs.consistency` "
              "from the checkpoint of a third of the tree, without HTTP. Fill: writing the tree in bulk "
              "(not part of any figure).\n\n")
    out.write(HEADER + "\n|---|---:|---:|---:|---:|---:|---:|---:|\n")
    for r in rows:
        out.write(f"| {r['backend']} | {r['size']:,} | {r['batch']:,} | {r['publish_ms']:.2f} | "
                  f"{r['per_leaf_us']:.1f} | {r['inclusion_ms']:.2f} | {r['consistency_ms']:.2f} | "
                  f"{r['fill_s']:.1f} |\n")
    return out.getvalue()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,100000,1000000", help="tree sizes, comma-separated")
    parser.add_argument("--batches", default="100,1000", help="new leaves per checkpoint, comma-separated")
    parser.add_argument("--repeat", type=int, default=5, help="checkpoints (and proofs) timed per row")
    parser.add_argument("--backend", choices=("all", "sqlite", "postgres"), default="all",
                        help="all: sqlite, and postgres when CABLECAR_TEST_DATABASE_URL is set")
    parser.add_argument("--smoke", action="store_true", help="1,000 leaves, batch 10, 2 repeats, sqlite")
    parser.add_argument("--out", default=str(RESULTS), help="the results file")
    args = parser.parse_args(argv)
    sizes, batches, repeat, backend = ([int(s) for s in args.sizes.split(",")],
                                       [int(b) for b in args.batches.split(",")], args.repeat, args.backend)
    if args.smoke:
        sizes, batches, repeat, backend = [1000], [10], 2, "sqlite"
    url = os.environ.get("CABLECAR_TEST_DATABASE_URL")
    if backend == "postgres" and not url:
        parser.error("--backend postgres needs CABLECAR_TEST_DATABASE_URL")
    rows: list[dict[str, Any]] = []
    with sqlite_stores() as make:
        if backend in ("all", "sqlite"):
            for size in sizes:
                rows += measure(make, "sqlite", size, batches, repeat)
    if backend in ("all", "postgres") and url:
        with postgres_stores(url) as make:
            for size in sizes:
                rows += measure(make, "postgres", size, batches, repeat)
    command = "python bench/bench_transparency.py " + " ".join(argv if argv is not None else sys.argv[1:])
    Path(args.out).write_text(report(rows, command.strip()), encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
