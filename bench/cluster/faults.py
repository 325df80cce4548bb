"""The faults of the cluster run, kept with their windows: when each began
and ended, the actions acknowledged meanwhile, and the longest time without
one (the write outage a client saw)."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from bench.cluster.clients import Writer
from bench.cluster.netns import Host
from bench.cluster.report import Fault

#: a MAC address no host has: packets sent to it go nowhere, and nothing answers
NOWHERE = "02:00:00:00:00:99"


def cut_off(host: Host, addresses: list[str], cut: bool) -> None:
    """Cut ``host`` off from ``addresses`` (or reconnect it): its packets to them go to :data:`NOWHERE`,
    silently, as in a network partition; everything else (the balancer, Redis) still reaches it."""
    for address in addresses:
        if cut:
            host.run(["ip", "neigh", "replace", address, "lladdr", NOWHERE, "dev", "eth0", "nud", "permanent"])
        else:
            host.run(["ip", "neigh", "del", address, "dev", "eth0"])


@dataclass
class Faults:
    """The run's faults, in order, and the writers whose acknowledgements they are measured by."""

    writers: list[Writer]
    done: list[Fault] = field(default_factory=list)

    def begin(self, name: str, how: str) -> Fault:
        fault = Fault(name, how, time.monotonic())
        self.done.append(fault)
        return fault

    def end(self, fault: Fault) -> None:
        fault.end = time.monotonic()
        fault.acks = len(self.acks(fault.at, fault.end))

    def acks(self, start: float, end: float) -> list[float]:
        """When actions were acknowledged in ``[start, end]``, in order."""
        return sorted(a.at for w in self.writers for p in w.games for a in p.acked.values() if start <= a.at <= end)

    def outage(self, start: float, end: float) -> float:
        """The longest time in ``[start, end]`` without an acknowledged action (from ``start``)."""
        times = [start, *self.acks(start, end), end]
        return max(b - a for a, b in zip(times, times[1:], strict=False))
