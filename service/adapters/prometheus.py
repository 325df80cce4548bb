"""What an operator watches: the service's Prometheus metrics, declared once.

Every process counts into these (``prometheus_client``'s default registry);
under gunicorn, in its multiprocess mode, each worker writes them to files in
``PROMETHEUS_MULTIPROC_DIR`` and the listener of
:mod:`service.serving.metrics_listener` sums them (``CABLECAR_METRICS_ADDRESS``).
The store's own signals (database calls, the standby's lag) are in
:mod:`events.postgres.db_metrics`.  docs/scaling.md lists them with the alerts they
feed.

Labels are bounded: a route is its rule (``/v1/games/<game_id>``), never the
path, and a problem is its code.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

#: request latency buckets (seconds): a fast read is milliseconds, a failover tens of seconds
LATENCY = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)

REQUESTS = Counter(
    "cablecar_http_requests", "Requests answered, by method, route and status.", ["method", "route", "status"]
)
REQUEST_SECONDS = Histogram(
    "cablecar_http_request_duration_seconds", "Time to the answer's head, by method and route.",
    ["method", "route"], buckets=LATENCY,
)
PROBLEMS = Counter(
    "cablecar_problems", "problem+json answers by code (stale_version: append conflicts; unavailable: store "
    "or cache down; streams_busy: refused streams; rate_limited).", ["code"]
)
STREAMS_OPEN = Gauge(
    "cablecar_streams_open", "Event streams open now.", multiprocess_mode="livesum"
)
CACHE_LOOKUPS = Counter(
    "cablecar_cache_lookups", "State cache lookups by outcome (hits, partial_hits, misses, errors, rejected).",
    ["outcome"]
)
SWEEP_LAST = Gauge(
    "cablecar_sweeper_last_sweep_timestamp_seconds",
    "When this host's timeout sweeper last finished a sweep (the lease holder's is recent: alert when every "
    "host's is old).", multiprocess_mode="max",
)
SETTLED = Counter("cablecar_timeouts_settled", "Games whose passed deadlines the sweeper settled.")
WEBHOOK_ATTEMPTS = Counter(
    "cablecar_webhook_attempts",
    "Webhook delivery attempts by outcome (delivered, pending: a retry, failed, refused: not the server's, not sent).",
    ["outcome"],
)
WEBHOOK_BACKLOG = Gauge(
    "cablecar_webhook_backlog_events",
    "Events of the log the webhook dispatchers had not yet turned into deliveries, at their last look.",
    multiprocess_mode="livemax",
)
CHECKPOINT_CURRENT = Gauge(
    "cablecar_checkpoint_current_timestamp_seconds",
    "When this host's transparency log publisher last found every event under a signed checkpoint (the "
    "lease holder's is recent: alert when every host's is older than a few CABLECAR_LOG_INTERVAL).",
    multiprocess_mode="max",
)
LOG_FOREIGN_ROWS = Counter(
    "cablecar_log_foreign_rows", "Rows of the transparency log's tables that no publication wrote, found beyond "
    "the published tree by the publisher and moved to log_foreign_rows, by table (any is an alert: someone wrote "
    "the log's tables around the server).", ["table"],
)
LOG_BAD_CHECKPOINTS = Counter(
    "cablecar_log_bad_checkpoints", "Checkpoint rows whose note does not verify under the server's keys (or is "
    "not the row's tree), found by this process and never served (any is an alert).",
)
BOT_SLOTS = Gauge("cablecar_bot_slots", "Games the bot runners may play at once.", multiprocess_mode="livesum")
BOT_IN_PLAY = Gauge(
    "cablecar_bot_games_in_play", "Games the bot runners are playing now (at the slots: games queue).",
    multiprocess_mode="livesum",
)
BOT_CLAIMED = Counter("cablecar_bot_claims", "Games the bot runners claimed (a bot seat had to act).")
BOT_MOVE_SECONDS = Histogram(
    "cablecar_bot_move_duration_seconds", "A bot move: decide and append.", buckets=LATENCY
)
BOT_OUTCOMES = Counter("cablecar_bot_moves", "Bot moves by outcome (moved, conflict, error).", ["outcome"])
