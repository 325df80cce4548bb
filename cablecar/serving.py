"""``cablecar serve``: gunicorn with production's configuration, on one address.

Before gunicorn starts, the address is tried, the embedded store's folder
looked at and PostgreSQL connected to once (within ``CABLECAR_DB_CONNECT_TIMEOUT``),
so that a taken port, a data folder that is a file or a database that does
not answer is one clear line and an immediate exit, with nothing written,
rather than a "serving on" line followed by gunicorn's five attempts to bind,
workers failing with tracebacks, or retries logged for ever.
"""

from __future__ import annotations

import argparse
import errno
import os
import socket
import subprocess
import sys
from typing import Any

from events.records import StoreUnavailable
from service.adapters.secret_key import MissingSecretKey, require_secret_key
from service.config import Settings
from service.location import describe, new_store_notes, redact, sqlite_file, with_data_dir
from service.serving.workers import THREADED


class CannotListen(OSError):
    """The address ``cablecar serve`` was told to listen on cannot be used
    (an OSError, so the CLI reports it as one line)."""


def check_address(host: str, port: int) -> None:
    """Raise :class:`CannotListen` unless ``host:port`` can be listened on now.

    Bound with ``SO_REUSEADDR`` as gunicorn binds, so that connections of a
    server that just stopped (TIME_WAIT) do not count as the port being taken."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)
    except socket.gaierror as e:
        raise CannotListen(f"cannot listen on {host!r}: {e.strerror}") from e
    family, kind, proto, _, address = infos[0]
    with socket.socket(family, kind, proto) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind(address)
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                raise CannotListen(
                    f"port {port} on {host} is already in use (another cablecar serve?): "
                    "stop that server, or choose another port with --port"
                ) from e
            if e.errno == errno.EACCES:
                raise CannotListen(f"not allowed to listen on port {port} (ports below 1024 need root)") from e
            raise CannotListen(f"cannot listen on {host}:{port}: {e.strerror}") from e


class CannotKeepData(OSError):
    """The folder the embedded store would be kept in cannot be (a file, not
    writable): one line from the CLI, before anything is written."""


def check_data_folder(settings: Settings, given_as: str) -> None:
    """Raise :class:`CannotKeepData` unless the embedded store's folder of
    ``settings`` (none on PostgreSQL) is a folder this user may write in, or can
    be made: it, or the nearest of its parents that exists, is a folder.
    ``given_as`` names where the folder came from (``--data-dir``, ...)."""
    path = sqlite_file(settings)
    if path is None:
        return
    folder = path.parent
    existing = folder
    try:
        while not existing.exists() and existing != existing.parent:
            existing = existing.parent
        is_folder = existing.is_dir()
    except OSError as e:  # a parent this user may not enter
        raise CannotKeepData(f"{given_as} {folder}: {e.strerror or e}: name a folder the server may write in") from e
    if not is_folder:
        where = "is a file" if existing == folder else f"is inside {existing}, which is a file"
        raise CannotKeepData(f"{given_as} {folder} {where}, not a folder: name the folder the server keeps "
                             "its data in (made if missing)")
    if not os.access(existing, os.W_OK | os.X_OK):
        what = folder if existing == folder else f"{folder} (in {existing})"
        raise CannotKeepData(f"{given_as} {what}: not writable by this user: name a folder the server may "
                             "write in")


def check_database(settings: Settings) -> None:
    """Raise StoreUnavailable, naming the server (its URL without password),
    unless the PostgreSQL of ``settings`` (if any) accepts a connection within
    the connect timeout (``CABLECAR_DB_CONNECT_TIMEOUT``, per host)."""
    url = settings.database_url or ""
    if not url.startswith(("postgresql://", "postgres://")):
        return
    import psycopg

    from events.postgres.failfast import PRIMARY, conninfo

    try:
        with psycopg.connect(url, **conninfo(url, settings.db_timeouts(), PRIMARY)) as conn:
            conn.execute("SELECT 1")
    except psycopg.Error as e:
        reason = (str(e).strip().splitlines() or [type(e).__name__])[0]
        raise StoreUnavailable(f"PostgreSQL at {redact(url)}: {reason} (see DATABASE_URL)") from e


def _data_dir_named(args: argparse.Namespace, settings: Settings) -> str:
    """Where the data folder of ``cablecar serve`` was given, for messages."""
    if args.data_dir is not None:
        return "--data-dir"
    if settings.database_url:
        return "the folder of DATABASE_URL's SQLite file,"
    return "CABLECAR_DATA_DIR" if settings.data_dir.strip() else "the data folder"


def raise_open_files(wanted: int) -> int:
    """Raise this process's soft limit of open files (inherited by the workers)
    towards ``wanted``, never past the hard limit; the soft limit then.  Many
    systems start programs with 1,024, fewer than a worker's
    ``CABLECAR_WORKER_CONNECTIONS`` (each stream is a socket): accept() would
    then fail long before ``CABLECAR_SSE_MAX_STREAMS`` is reached."""
    try:
        import resource
    except ImportError:  # not on this platform
        return wanted
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
    if soft != resource.RLIM_INFINITY and soft < target:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            soft = target
        except (ValueError, OSError):
            pass
    return int(soft)


def serve(args: argparse.Namespace) -> int:
    """Run gunicorn in this process until it is stopped (Ctrl-C)."""
    settings = with_data_dir(Settings.from_env(), args.data_dir)
    try:
        require_secret_key(settings)
    except MissingSecretKey as e:
        print(f"cablecar serve: {e}", file=sys.stderr)
        return 2
    check_address(args.host, args.port)
    check_data_folder(settings, _data_dir_named(args, settings))
    check_database(settings)

    from gunicorn.app.base import BaseApplication

    # (loads the signing key, making the embedded default's: after the checks, so a refused start writes nothing)
    import service.serving.gunicorn_conf as conf
    workers = args.workers if args.workers is not None else settings.workers
    threads = args.threads if args.threads is not None else settings.threads
    # every connection of a worker a descriptor, plus the store's and the log's
    open_files = raise_open_files(settings.worker_connections + 256)
    if open_files < settings.worker_connections + 64:
        print(f"cablecar: note: the open-file limit is {open_files}, under CABLECAR_WORKER_CONNECTIONS "
              f"({settings.worker_connections}): raise it (ulimit -n) for that many connections", file=sys.stderr)

    class _App(BaseApplication):
        def load_config(self) -> None:
            # Everything of production's configuration (its worker hooks start the
            # webhook dispatchers), then what this command's options say.
            for key, value in vars(conf).items():
                if key in self.cfg.settings:
                    self.cfg.set(key, value)
            self.cfg.set("bind", f"{args.host}:{args.port}")
            self.cfg.set("workers", workers)
            self.cfg.set("threads", threads)
            self.cfg.set("accesslog", "-" if args.access_log else None)

        def load(self) -> Any:
            # Imported in the worker, after a gevent worker has monkey-patched it.
            from service.api.app import create_app

            return create_app(settings)

    for note in new_store_notes(settings):
        print(f"cablecar: note: {note}", file=sys.stderr)
    print(f"cablecar: {describe(settings)}")
    per_worker = f"{threads} threads each" if conf.worker_class == THREADED else "gevent"
    host = f"[{args.host}]" if ":" in args.host else args.host
    print(f"cablecar: serving on http://{host}:{args.port} ({workers} workers, {per_worker}); Ctrl-C stops")
    sys.stdout.flush()
    runners = start_bot_runners(settings)
    try:
        _App().run()
    finally:
        for runner in runners:
            stop_bot_runner(runner)
    return 0


def runner_command(settings: Settings) -> list[str]:
    """``cablecar bots run`` on the server's store (the same data folder), with
    ``settings.bot_slots`` games at once, else as many as the machine suits."""
    from bots.runner import machine_slots

    slots = settings.bot_slots if settings.bot_slots > 0 else machine_slots()
    return [sys.executable, "-m", "cablecar.cli", "bots", "run", "--slots", str(slots),
            "--data-dir", str(settings.data_path())]


def start_bot_runners(settings: Settings) -> list[subprocess.Popen[bytes]]:
    """``settings.bot_runners`` processes of ``cablecar bots run`` on the
    server's store, on any backend: bots think in processes of their own,
    never in a request worker (each playing many games at once, see
    :func:`runner_command`).  More may run on any hosts."""
    if settings.bot_runners <= 0:
        return []
    from service.serving.metrics_listener import prepare

    prepare(settings.metrics_address)  # the runners count into the server's metrics folder
    command = runner_command(settings)
    runners = [start_runner(command) for _ in range(settings.bot_runners)]
    print(f"cablecar: {len(runners)} bot runner(s) play the server's bot seats ({command[6]} games at once each)")
    sys.stdout.flush()
    return runners


def start_runner(command: list[str]) -> subprocess.Popen[bytes]:
    """One runner process of ``command``."""
    return subprocess.Popen(command)


def stop_bot_runner(runner: subprocess.Popen[bytes], timeout: float = 10.0) -> None:
    """Stop a runner :func:`start_bot_runners` started (it finishes the move it is making)."""
    if runner.poll() is None:
        runner.terminate()
    try:
        runner.wait(timeout)
    except subprocess.TimeoutExpired:
        runner.kill()
        runner.wait()
    runner_gone(runner)


def runner_gone(runner: subprocess.Popen[bytes]) -> None:
    """An exited runner's live gauges (games in play, slots) leave the metrics."""
    from service.serving.metrics_listener import process_gone

    process_gone(runner.pid)
