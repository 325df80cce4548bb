"""Hosts as Linux network namespaces on one private switch.

Every host is a namespace with a loopback and an ``eth0`` whose other end is
a port of a bridge living in a namespace of its own (the switch): nothing is
added to the machine's own network namespace, and the switch has no route
anywhere, so every packet stays between these hosts.  The addresses are in
198.18.0.0/24, the range RFC 2544 sets aside for benchmark networks.

Processes are started in a host with ``ip netns exec``, each in a session of
its own so that a host's processes can be killed as a group.  :meth:`close`
kills whatever still runs in the namespaces (``ip netns pids``: only these
namespaces' processes, which this harness started) and deletes them.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import subprocess
import time
from dataclasses import dataclass, field
from pathlib import Path

SUBNET = "198.18.0"
_CLONE_NEWNET = 0x40000000


def ip(*args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    """Run one ``ip`` command (raises with its error text when ``check``)."""
    done = subprocess.run(["ip", *args], capture_output=True, text=True, timeout=30)
    if check and done.returncode:
        raise RuntimeError(f"ip {' '.join(args)}: {done.stderr.strip()}")
    return done


def netns_works() -> str | None:
    """None if network namespaces can be made here, else why not."""
    if os.geteuid() != 0:
        return "network namespaces need root"
    probe = f"ccl-probe-{os.getpid()}"
    try:
        ip("netns", "add", probe)
    except (RuntimeError, FileNotFoundError, subprocess.SubprocessError) as e:
        return f"ip netns add failed: {e}"
    ip("netns", "del", probe, check=False)
    return None


@dataclass
class Host:
    """One namespace: its name, address and the processes started in it."""

    name: str
    netns: str
    address: str
    processes: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def start(self, argv: list[str], log: Path, env: dict[str, str] | None = None,
              cwd: Path | None = None) -> subprocess.Popen[bytes]:
        """Start ``argv`` in this host (its own session), output to ``log``."""
        with log.open("ab") as out:
            proc = subprocess.Popen(
                ["ip", "netns", "exec", self.netns, *argv], stdin=subprocess.DEVNULL, stdout=out,
                stderr=subprocess.STDOUT, env=env, cwd=cwd, start_new_session=True,
            )
        self.processes.append(proc)
        return proc

    def run(self, argv: list[str], timeout: float = 120, env: dict[str, str] | None = None) -> str:
        """Run ``argv`` in this host to completion; its output (raises on failure)."""
        done = subprocess.run(["ip", "netns", "exec", self.netns, *argv], capture_output=True, text=True,
                              timeout=timeout, env=env)
        if done.returncode:
            raise RuntimeError(f"{argv[0]} on {self.name} failed: {(done.stderr or done.stdout).strip()[-2000:]}")
        return done.stdout

    def send(self, proc: subprocess.Popen[bytes], sig: signal.Signals) -> None:
        """Send ``sig`` to the session (process group) ``proc`` leads."""
        if proc.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, sig)

    def stop(self, proc: subprocess.Popen[bytes], sig: signal.Signals = signal.SIGTERM, wait: float = 20) -> None:
        """Signal ``proc``'s group and wait for it; SIGKILL after ``wait`` seconds."""
        self.send(proc, sig)
        try:
            proc.wait(wait)
        except subprocess.TimeoutExpired:
            self.send(proc, signal.SIGKILL)
            proc.wait(10)
        # what it left in its session (e.g. PostgreSQL backends) goes too
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, signal.SIGKILL)

    def link(self, up: bool) -> None:
        """Plug (or unplug) the host's cable: unplugged, its packets go nowhere."""
        ip("-n", self.netns, "link", "set", "eth0", "up" if up else "down")


class Network:
    """A switch and the hosts on it (see the module docs)."""

    def __init__(self, tag: str) -> None:
        self.tag = tag
        self.switch = f"ccl{tag}-sw"
        self.hosts: dict[str, Host] = {}
        ip("netns", "add", self.switch)
        ip("-n", self.switch, "link", "set", "lo", "up")
        ip("-n", self.switch, "link", "add", "br0", "type", "bridge")
        ip("-n", self.switch, "link", "set", "br0", "up")

    def add(self, name: str, last_octet: int) -> Host:
        """A new host ``name`` at ``198.18.0.<last_octet>``."""
        netns = f"ccl{self.tag}-{name}"
        port = f"p{last_octet}"
        ip("netns", "add", netns)
        host = Host(name, netns, f"{SUBNET}.{last_octet}")
        self.hosts[name] = host
        ip("-n", netns, "link", "set", "lo", "up")
        ip("-n", self.switch, "link", "add", port, "type", "veth", "peer", "name", "eth0", "netns", netns)
        ip("-n", self.switch, "link", "set", port, "master", "br0", "up")
        ip("-n", netns, "addr", "add", f"{host.address}/24", "dev", "eth0")
        ip("-n", netns, "link", "set", "eth0", "up")
        return host

    def enter(self, host: Host) -> None:
        """Move this process (its threads started from now on) into ``host``'s network."""
        libc = ctypes.CDLL(None, use_errno=True)
        fd = os.open(f"/var/run/netns/{host.netns}", os.O_RDONLY)
        try:
            if libc.setns(fd, _CLONE_NEWNET) != 0:
                raise OSError(ctypes.get_errno(), "setns failed")
        finally:
            os.close(fd)

    def close(self) -> None:
        """Stop every process in the hosts and delete the namespaces."""
        for host in self.hosts.values():
            for proc in host.processes:
                host.send(proc, signal.SIGKILL)
        for host in self.hosts.values():
            pids = ip("netns", "pids", host.netns, check=False).stdout.split()
            for pid in pids:
                if pid != str(os.getpid()):  # this process may have entered a host
                    with contextlib.suppress(ProcessLookupError, ValueError):
                        os.kill(int(pid), signal.SIGKILL)
        time.sleep(0.2)
        for netns in [*(h.netns for h in self.hosts.values()), self.switch]:
            ip("netns", "del", netns, check=False)
