"""The rate limiter's parts: rates as written in settings, fixed windows on
an injected clock, and which address a request counts against."""

from __future__ import annotations

import pytest

from service.api.ratelimit import Limiter, Rate, client_address


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.mark.parametrize(("text", "rate"), [
    ("30/minute", Rate(30, 60)), ("5/second", Rate(5, 1)), (" 100 / hours ", Rate(100, 3600)),
    ("2/DAY", Rate(2, 86400)), ("off", None), ("OFF", None),
])
def test_rates_are_read_as_written(text: str, rate: Rate | None) -> None:
    assert Rate.parse(text, "X") == rate


@pytest.mark.parametrize("text", ["", "30", "0/minute", "-1/minute", "30/fortnight", "thirty/minute"])
def test_a_malformed_rate_names_its_variable(text: str) -> None:
    with pytest.raises(ValueError, match="CABLECAR_CREATE_RATE_LIMIT"):
        Rate.parse(text, "CABLECAR_CREATE_RATE_LIMIT")


def test_a_window_refuses_past_its_limit_and_opens_again_when_it_ends() -> None:
    clock = Clock(1_000_040.0)  # 20 s into a minute window (1_000_020 is a minute's start)
    limiter = Limiter(clock=clock)
    rate = Rate(2, 60)
    verdicts = [limiter.charge("create", "a", rate) for _ in range(3)]
    assert [v.allowed for v in verdicts] == [True, True, False]
    assert [v.remaining for v in verdicts] == [1, 0, 0]
    assert verdicts[2].reset == 40
    assert limiter.charge("create", "b", rate).allowed  # another bucket
    assert limiter.charge("stream", "a", rate).allowed  # another policy
    clock.now += 40
    assert limiter.charge("create", "a", rate).remaining == 1


def test_a_cost_counts_as_that_many_units() -> None:
    limiter = Limiter(clock=Clock(0.0))
    assert limiter.charge("organiser", "o", Rate(5, 60), 3).remaining == 2
    assert not limiter.charge("organiser", "o", Rate(5, 60), 3).allowed


@pytest.mark.parametrize(("remote", "forwarded", "proxies", "client"), [
    ("192.0.2.1", None, 0, "192.0.2.1"),
    ("192.0.2.1", "203.0.113.5", 0, "192.0.2.1"),  # no trusted proxy: the header is ignored
    ("10.0.0.1", "203.0.113.5", 1, "203.0.113.5"),
    ("10.0.0.1", "6.6.6.6, 203.0.113.5", 1, "203.0.113.5"),  # the client wrote the left entry
    ("10.0.0.1", "6.6.6.6, 203.0.113.5, 10.0.0.2", 2, "203.0.113.5"),
    ("10.0.0.1", "203.0.113.5", 2, "10.0.0.1"),  # fewer entries than proxies: the connecting address
    ("10.0.0.1", "not-an-address", 1, "10.0.0.1"),
    ("2001:db8:1:2:aaaa::1", None, 0, "2001:db8:1:2::/64"),  # a subscriber's /64 is one client
    ("::ffff:192.0.2.7", None, 0, "192.0.2.7"),
    (None, None, 0, "unknown"),
])
def test_the_client_address(remote: str | None, forwarded: str | None, proxies: int, client: str) -> None:
    assert client_address(remote, forwarded, proxies) == client
