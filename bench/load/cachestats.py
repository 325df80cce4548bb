"""The cache hit ratio: the service's own counters, added up over workers.

``bench.load.instrumented_wsgi`` makes every gunicorn worker dump its
:class:`service.adapters.cache.CacheStats` to ``<folder>/<pid>.json``; a *hit* is a
read served from a cached state at the current version, a *partial hit* one
that replayed only the events after a cached snapshot, a *miss* a full
replay.  Redis' own ``keyspace_hits``/``keyspace_misses`` are read too, as a
cross-check (they also count the GETRANGE of every cache write).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class CacheCounts:
    """Cache outcomes of the service's state loads."""

    hits: int = 0
    partial_hits: int = 0
    misses: int = 0
    errors: int = 0

    def plus(self, other: CacheCounts) -> CacheCounts:
        """The sum of two counts."""
        return CacheCounts(self.hits + other.hits, self.partial_hits + other.partial_hits,
                           self.misses + other.misses, self.errors + other.errors)

    @property
    def loads(self) -> int:
        """Every counted state load."""
        return self.hits + self.partial_hits + self.misses

    @property
    def hit_ratio(self) -> float:
        """Share of loads served without replaying from the first event."""
        return (self.hits + self.partial_hits) / self.loads if self.loads else float("nan")

    @property
    def exact_hit_ratio(self) -> float:
        """Share of loads that replayed nothing at all."""
        return self.hits / self.loads if self.loads else float("nan")


Snapshot = dict[str, CacheCounts]


def read_counts(folder: Path) -> Snapshot:
    """Every worker's last dumped counters (by pid)."""
    out: Snapshot = {}
    for path in folder.glob("*.json"):
        try:
            data = json.loads(path.read_text())
        except (OSError, ValueError):
            continue
        out[path.stem] = CacheCounts(int(data.get("hits", 0)), int(data.get("partial_hits", 0)),
                                     int(data.get("misses", 0)), int(data.get("errors", 0)))
    return out


def delta(before: Snapshot, after: Snapshot) -> CacheCounts:
    """What every worker counted between two snapshots."""
    total = CacheCounts()
    for pid, now in after.items():
        was = before.get(pid, CacheCounts())
        total = total.plus(CacheCounts(now.hits - was.hits, now.partial_hits - was.partial_hits,
                                       now.misses - was.misses, now.errors - was.errors))
    return total


def redis_keyspace(redis_url: str) -> tuple[int, int] | None:
    """Redis INFO ``(keyspace_hits, keyspace_misses)``, None if unreachable."""
    import redis

    try:
        client = redis.Redis.from_url(redis_url, socket_timeout=2)
        info = client.info("stats")
        client.close()
    except Exception:
        return None
    return int(info["keyspace_hits"]), int(info["keyspace_misses"])
