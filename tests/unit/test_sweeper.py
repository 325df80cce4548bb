"""The timeout sweeper's pace: the lease holder sweeps every interval; a
process without the lease only asks for it a few times per lease period."""

from __future__ import annotations

import threading
import time
from datetime import UTC, datetime
from typing import Any

from service.usecases.timekeeper import LEASE_SECONDS, Sweeper


class _Index:
    """A lease that one owner holds; counts who asked."""

    def __init__(self) -> None:
        self.holder: str | None = None
        self.asked: dict[str, int] = {}
        self.lock = threading.Lock()

    def database_time(self) -> datetime:
        return datetime.now(UTC)

    def estimated_time(self) -> datetime:
        return datetime.now(UTC)

    def hold_lease(self, name: str, owner: str, now: datetime, seconds: float) -> bool:
        with self.lock:
            self.asked[owner] = self.asked.get(owner, 0) + 1
            if self.holder is None:
                self.holder = owner
            return self.holder == owner


class _Timekeeper:
    def __init__(self, index: _Index) -> None:
        self.index = index
        self.sweeps = 0

    def sweep(self) -> int:
        self.sweeps += 1
        return 0


def test_only_the_lease_holder_keeps_the_fast_pace() -> None:
    index = _Index()
    holder_keeper, other_keeper = _Timekeeper(index), _Timekeeper(index)
    holder: Any = Sweeper(holder_keeper, interval=0.01)  # type: ignore[arg-type]
    holder.start()
    while index.holder is None:
        time.sleep(0.001)
    other: Any = Sweeper(other_keeper, interval=0.01)  # type: ignore[arg-type]
    other.start()
    time.sleep(0.5)
    holder.stop()
    other.stop()
    assert holder.holding and not other.holding
    assert holder_keeper.sweeps >= 10  # every 0.01 s, give or take a loaded machine
    assert other_keeper.sweeps == 0
    # the other asked once at start, then waits LEASE_SECONDS / 5 (1 s) between asks
    assert LEASE_SECONDS / 5 > 0.5
    assert index.asked[other.owner] == 1
    # and the holder took it once: it renews once half the lease (2.5 s) has passed, not every round
    assert index.asked[holder.owner] == 1
