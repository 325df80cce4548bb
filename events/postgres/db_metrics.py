"""The store's Prometheus metrics (PostgreSQL): database writes, calls cut
for lack of an answer, and the standby's lag as its reader sees it.  The
service's own are in :mod:`service.adapters.prometheus`; both go to
``prometheus_client``'s default registry (multiprocess under gunicorn)."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

DB_WRITE_SECONDS = Histogram(
    "cablecar_db_write_duration_seconds",
    "A write on the primary (an append, a batch of appends sent together, a creation): connection held from "
    "checkout to commit.",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0),
)
DB_FAILURES = Counter(
    "cablecar_db_failures",
    "Database calls that failed for want of the server, by kind (unavailable: no connection or a lost one; "
    "unknown: a write whose link broke after it was sent; cut: no answer in time, the watchdog cut it; "
    "read_only: the server no longer takes writes).",
    ["kind"],
)
REPLICA_LAG_BYTES = Gauge(
    "cablecar_replica_lag_bytes",
    "How far the standby's replay was behind the primary's WAL when a reader last asked.",
    multiprocess_mode="livemax",
)
REPLICA_READS = Counter(
    "cablecar_replica_reads",
    "Reads routed by the standby reader: served (by the standby), waited (for it to catch up), fell_back (to "
    "the primary).",
    ["outcome"],
)
DB_APPEND_BATCH = Histogram(
    "cablecar_db_append_batch_size",
    "Appends sent to the primary in one transaction (group commit, CABLECAR_DB_GROUP_COMMIT): 1 when an append "
    "found no other waiting.",
    buckets=(1, 2, 4, 8, 16, 32, 64),
)
