"""The leased loop (service/usecases/leased.py): the holder renews its lease
once half of it has passed, not every round, and measures the database's
clock only then; a lapsed or refused lease stops the work at once."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from service.usecases.leased import LeasedLoop

T0 = datetime(2026, 11, 28, 9, 0, tzinfo=UTC)


class Leases:
    """A lease table on a clock the test moves (the database's and the estimate agree)."""

    def __init__(self) -> None:
        self.now = T0
        self.holder: tuple[str, datetime] | None = None
        self.asked = 0
        self.measured = 0

    def hold_lease(self, name: str, owner: str, now: datetime, seconds: float) -> bool:
        self.asked += 1
        if self.holder is None or self.holder[0] == owner or self.holder[1] < now:
            self.holder = (owner, now + timedelta(seconds=seconds))
            return True
        return False

    def database_time(self) -> datetime:
        self.measured += 1
        return self.now

    def estimated_time(self) -> datetime:
        return self.now


class Loop(LeasedLoop[str]):
    lease_name = "test"
    thread_name = "test-loop"

    def work(self) -> str:
        return "worked"

    def idle(self) -> str:
        return "idle"


def test_the_holder_renews_once_half_the_lease_has_passed() -> None:
    leases = Leases()
    loop = Loop(leases, interval=0.2, lease_seconds=10)  # type: ignore[arg-type]
    rounds = []
    for _ in range(50):  # 10 s of rounds, 0.2 s apart
        rounds.append(loop.run_once())
        leases.now += timedelta(seconds=0.2)
    assert rounds == ["worked"] * 50
    assert leases.asked == leases.measured == 2  # taken at 0 s, renewed at 5 s: not 50 queries


def test_another_process_waits_for_the_lease_and_takes_it_when_it_lapses() -> None:
    leases = Leases()
    first, second = Loop(leases, 0.2, 10), Loop(leases, 0.2, 10)  # type: ignore[arg-type]
    assert (first.run_once(), second.run_once()) == ("worked", "idle")
    leases.now += timedelta(seconds=11)  # the first process died without renewing: its lease lapsed
    assert second.run_once() == "worked"
    assert first.run_once() == "idle"  # back, it finds the lease taken, and stops working at once
    assert not first.holding


def test_a_refusal_at_renewal_stops_the_work() -> None:
    leases = Leases()
    loop = Loop(leases, 0.2, 10)  # type: ignore[arg-type]
    assert loop.run_once() == "worked"
    leases.holder = ("someone else", T0 + timedelta(seconds=60))  # e.g. the lease was taken over meanwhile
    leases.now += timedelta(seconds=5)
    assert loop.run_once() == "idle" and not loop.holding
