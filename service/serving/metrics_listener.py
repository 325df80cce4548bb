"""The metrics listener: ``/metrics`` in the Prometheus text format on the
address the operator names (``CABLECAR_METRICS_ADDRESS``, e.g.
``127.0.0.1:9108``), never on the public port; unset: no listener.

gunicorn's workers are separate processes, so the counts are kept in
``prometheus_client``'s multiprocess mode: :func:`prepare` names a fresh
folder in ``PROMETHEUS_MULTIPROC_DIR`` before any process counts (the
gunicorn configuration calls it as it loads, ``cablecar serve`` and
``cablecar supervise`` before they start the bot runners, so that the runners
count into the same folder), the master serves the sum of every process's
files (:func:`serve`, from gunicorn's ``when_ready``), and a process that exits
is marked dead (:func:`process_gone`) so that its live gauges (open streams,
games in play) leave the sum.  A folder the operator set is used as it is:
empty it before each start (prometheus_client's rule).

A process that runs alone with an address set (``cablecar bots run`` outside
``cablecar serve``) serves its own counts there (:func:`serve_alone`).
"""

from __future__ import annotations

import shutil
import tempfile
from typing import Any

from service.config import metrics_folder, use_metrics_folder

#: the folder :func:`prepare` made in this process (removed by :func:`remove_folder`, and only it)
_made: list[str] = []


def parse_address(text: str) -> tuple[str, int]:
    """``(host, port)`` of ``host:port`` (``[v6]:port`` for IPv6); ValueError naming the setting."""
    host, sep, port = text.strip().rpartition(":")
    host = host.strip("[]")
    if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ValueError(f"CABLECAR_METRICS_ADDRESS must be host:port (e.g. 127.0.0.1:9108), got {text!r}")
    return host, int(port)


def prepare(address: str) -> str | None:
    """With an ``address``, the multiprocess folder, made afresh unless the
    environment names one; call it before anything imports prometheus_client
    (it decides once, on import, where counts go).  None without an address."""
    if not address.strip():
        return None
    parse_address(address)
    folder = metrics_folder()
    if folder is None:
        folder = tempfile.mkdtemp(prefix="cablecar-metrics-")
        use_metrics_folder(folder)
        _made.append(folder)
    return folder


def registry() -> Any:
    """The registry to expose: every process's files in multiprocess mode,
    else this process's own counts."""
    from prometheus_client import REGISTRY, CollectorRegistry, multiprocess

    if metrics_folder() is None:
        return REGISTRY
    collected = CollectorRegistry()
    multiprocess.MultiProcessCollector(collected)
    return collected


def serve(address: str) -> None:
    """Serve ``/metrics`` (any path answers it) on ``address`` from a daemon thread."""
    from prometheus_client import start_http_server

    host, port = parse_address(address)
    start_http_server(port, host, registry=registry())


def serve_alone(address: str) -> None:
    """In a process started on its own (no multiprocess folder inherited):
    serve its counts on ``address``, if one is set."""
    if address.strip() and metrics_folder() is None:
        serve(address)


def process_gone(pid: int) -> None:
    """Take an exited process's live gauges out of the sum."""
    if metrics_folder() is not None:
        from prometheus_client import multiprocess

        multiprocess.mark_process_dead(pid)


def remove_folder() -> None:
    """Remove the multiprocess folder if :func:`prepare` made it in this process (the server stops)."""
    while _made:
        shutil.rmtree(_made.pop(), ignore_errors=True)
