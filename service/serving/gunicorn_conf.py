"""gunicorn configuration for production (``gunicorn -c python:service.serving.gunicorn_conf service.serving.wsgi:app``).

Worker class: **gevent**, on PostgreSQL and on the embedded SQLite store alike, so that event streams (Server-Sent
Events, ``service/api/sse.py``) hold a greenlet each, not a request thread: a
thousand watchers cost a thousand small stacks, and ``/v1/health`` and actions
keep answering.  We chose it over a streaming pool of our own because gunicorn
already runs it (monkey-patching happens when the worker starts, before the app
is imported), psycopg 3 detects the patching and waits cooperatively (its pool
and the LISTEN thread of ``events/postgres/listener.py`` are then greenlets) and
redis-py is plain sockets.  The price: a request computing for long (a large
replay) delays the other requests of its worker, where threads would be
time-sliced; rules are fast enough for that to stay small.  (The class is
gunicorn's, keeping idle connections briefly once stopping:
``service/serving/gevent_worker.py``.)

On the embedded SQLite store, SQLite's connections are per thread and its
calls cannot yield (a write waiting on another process's lock would stop the
whole worker): there a call of the store that may wait for SQLite's lock runs
in gevent's native thread pool (``service/adapters/pooled_store.py``), a
handful of real threads with a connection each; the plain reads (which WAL
mode never makes wait) and the hot writes that find the lock free run in the
worker's own thread, while requests and streams stay greenlets.  (Before issue
36 these workers were threaded, a stream holding a thread: 4 to 8 streams per
server.)  A threaded worker chosen by hand (``GUNICORN_CMD_ARGS="-k
service.serving.workers.BoundedThreadWorker"``) still admits at most half its
threads of streams (``post_worker_init``).

The values come from the
settings declared in ``service/config.py`` (``CABLECAR_BIND``,
``CABLECAR_WORKERS``, ...); the usual ``GUNICORN_CMD_ARGS`` and command-line
options still override them.  ``cablecar serve`` uses this file too.

Each worker imports the app (``service.serving.wsgi``, and with it every game type:
``domain.registry`` is built at import) in its ``init_process``, before it
accepts a connection; the app is not preloaded in the master because its
store connections must not be shared across a fork.

On PostgreSQL it refuses to start without ``CABLECAR_SECRET_KEY`` (see
``service/adapters/secret_key.py``).

Each worker runs its webhook dispatcher (unless ``CABLECAR_WEBHOOKS=off``):
started once the worker has loaded the app, stopped when the worker exits.
A worker that stops serving (SIGTERM, ``max_requests``) ends its event streams at
once, so that it exits within seconds instead of after ``CABLECAR_SSE_MAX_SECONDS``
(or being killed at the graceful timeout), with exit code 0.
"""

import functools
import os
import re
import shutil
import tempfile
import threading
import time
import traceback
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote_plus

from flask import Flask
from gunicorn import config as gunicorn_config
from gunicorn.glogging import Logger

from service.adapters.secret_key import MissingSecretKey, require_secret_key
from service.adapters.signing_keys import SigningKeyError, load_server_keys
from service.api.text import escape_controls
from service.config import Settings
from service.serving import metrics_listener
from service.serving.jsonlog import json_logger
from service.serving.workers import GEVENT, THREADED

#: a query parameter, in a query string or a request line
_PARAMETER = re.compile(r"(^|[?&;\s])([^=&;?\s]+)=([^&;\s\"]*)")
#: what :func:`redact` (a ``=``) or :func:`escape_controls` (service/api/text.py) may change
_NEEDS_ESCAPING = re.compile("[=\x00-\x1f\x7f-\x9f\ud800-\udfff]")
#: the query parameters whose values are secrets (a stream ticket): never written to a log
SECRET_PARAMETERS = frozenset({"ticket"})


def redact(text: str) -> str:
    """``text`` with the value of every secret query parameter replaced (its
    name compared as the server reads it: ``tick%65t`` is ``ticket``)."""

    def one(m: re.Match[str]) -> str:
        secret = unquote_plus(m.group(2)).strip().lower() in SECRET_PARAMETERS
        return f"{m.group(1)}{m.group(2)}=[redacted]" if secret else m.group(0)

    return _PARAMETER.sub(one, text) if "=" in text else text


class EscapingLogger(Logger):
    """gunicorn's logger, with control characters in request atoms escaped
    (``%(U)s`` is the decoded path, so ``/a%0A...`` would otherwise forge a log
    line) and stream tickets redacted from every atom (``%(q)s``, ``%(r)s``...)."""

    def atoms(self, resp: Any, req: Any, environ: Any, request_time: Any) -> dict[str, Any]:
        atoms: dict[str, Any] = super().atoms(resp, req, environ, request_time)
        # Nearly every request has nothing to escape or redact: one scan of all its text says so
        # (a per-atom pass costs ~25 us a request, on every action).
        if _NEEDS_ESCAPING.search("".join([v for v in atoms.values() if isinstance(v, str)])) is None:
            atoms.setdefault(REQUEST_ID_ATOM, "-")
            return atoms
        escaped = {k: escape_controls(redact(v)) if isinstance(v, str) else v for k, v in atoms.items()}
        escaped.setdefault(REQUEST_ID_ATOM, "-")  # (gunicorn's own wrapper says "-" too; a bare dict would not)
        return escaped

    def access_atoms(self, resp: Any, req: Any, environ: Any, request_time: Any,
                     wanted: frozenset[str]) -> dict[str, Any]:
        """The atoms named in ``wanted`` (lower case for ``{...}`` ones), as
        :meth:`atoms` makes them: gunicorn's atoms of every header and every
        environ entry (~60, built, escaped and copied for each line) took
        ~38 us of a worker's CPU a line, measured under load, and a line uses
        seven (~22 us now)."""
        sent_names, answer_names, environ_names = _header_atoms(wanted)
        answer = _Answer(resp.status, getattr(resp, "sent", None),
                         [(k, v) for k, v in resp.headers if k.lower() in answer_names] if answer_names else [])
        sent = [(k, v) for k, v in getattr(req, "headers", ()) if k.lower() in sent_names] if sent_names else []
        env = {k: environ[k] for k in _BASE_ENVIRON if k in environ}
        if environ_names:
            env.update((k, v) for k, v in environ.items() if k.lower() in environ_names)
        full = self.atoms(answer, _Sent(sent), env, request_time)
        return {k: v for k, v in full.items() if k in wanted}

    def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
        """gunicorn's access line, from the atoms its format names only."""
        if not self.access_log_enabled:
            return
        fmt = self.cfg.access_log_format
        atoms = self.access_atoms(resp, req, environ, request_time, format_atoms(fmt))
        try:
            self.access_log.info(fmt, self.atoms_wrapper_class(atoms))
        except Exception:
            self.error(traceback.format_exc())


#: the environ entries gunicorn's own atoms read (``h``, ``u``, ``r``, ``m``, ``U``, ``q``, ``H``, ``f``, ``a``)
_BASE_ENVIRON = frozenset({"REMOTE_ADDR", "HTTP_AUTHORIZATION", "REQUEST_METHOD", "RAW_URI", "SERVER_PROTOCOL",
                           "PATH_INFO", "QUERY_STRING", "HTTP_REFERER", "HTTP_USER_AGENT"})
_ATOM_NAME = re.compile(r"%\(([^)]*)\)")


@functools.lru_cache(maxsize=16)
def format_atoms(fmt: str) -> frozenset[str]:
    """The atoms an access log format names (``{...}`` ones in lower case, as
    gunicorn looks them up), with the request id's (the JSON lines read it)."""
    names = {n.lower() if n.startswith("{") else n for n in _ATOM_NAME.findall(fmt)}
    return frozenset(names | {REQUEST_ID_ATOM})


@functools.lru_cache(maxsize=16)
def _header_atoms(wanted: frozenset[str]) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The request headers, response headers and environ entries (lower case)
    ``wanted`` names as ``{name}i``, ``{name}o`` and ``{name}e``."""
    def named(kind: str) -> frozenset[str]:
        return frozenset(w[1:-2] for w in wanted if w.startswith("{") and w.endswith("}" + kind))

    return named("i"), named("o"), named("e")


@dataclass(frozen=True)
class _Answer:
    """What gunicorn's atoms read of a response."""

    status: Any
    sent: Any
    headers: list[tuple[str, str]]


@dataclass(frozen=True)
class _Sent:
    """What gunicorn's atoms read of a request."""

    headers: list[tuple[str, str]]


_settings = Settings.from_env()
try:
    require_secret_key(_settings)
    load_server_keys(_settings)  # the signing key (made here on the embedded default, before the workers race)
    # before anything imports prometheus_client: where every process's counts go (service/serving/metrics_listener.py)
    metrics_listener.prepare(_settings.metrics_address)
    if _settings.log_format not in ("text", "json"):
        raise ValueError(f"CABLECAR_LOG_FORMAT must be text or json, got {_settings.log_format!r}")
except (MissingSecretKey, SigningKeyError, ValueError) as e:
    # Before any worker starts, as one line (a worker failing to boot would print a traceback each).
    raise SystemExit(f"cablecar: {e}") from None

bind = _settings.bind
workers = _settings.workers
# gevent and gthread, each reading a request within CABLECAR_REQUEST_READ_SECONDS (service/serving/workers.py);
# the gevent one stops without waiting on idle keep-alive connections (service/serving/gevent_worker.py)
worker_class = GEVENT
threads = _settings.threads
worker_connections = _settings.worker_connections
timeout = _settings.worker_timeout
graceful_timeout = 20
keepalive = 5
max_requests = _settings.max_requests
max_requests_jitter = 100
accesslog = _settings.access_log
errorlog = "-"
loglevel = _settings.log_level
# Access logs never include the query string's secrets: tokens travel in headers only, and a stream
# ticket (the one secret a query may carry) is redacted from every atom.
logger_class = json_logger(EscapingLogger) if _settings.log_format == "json" else EscapingLogger
#: the atom of the answer's X-Request-Id (service/api/routes/edge.py), as named in problem bodies
REQUEST_ID_ATOM = "{x-request-id}o"
access_log_format = '%(h)s "%(m)s %(U)s" %(s)s %(b)s %(L)ss %(' + REQUEST_ID_ATOM + ')s'


def post_worker_init(worker: Any) -> None:
    """Start this worker's webhook dispatcher, timeout sweeper and transparency
    log publisher on the app it serves."""
    from service.api.app import start_dispatcher, start_log_publisher, start_sweeper

    settle_settings(worker.cfg)

    if not isinstance(worker.wsgi, Flask) or "cablecar" not in worker.wsgi.extensions:
        # Another WSGI app under this configuration (e.g. the benchmark's baseline):
        # say so loudly, since a wrapped cablecar app would deliver no webhooks.
        worker.log.warning(
            "no webhook dispatcher in this worker: it serves %s, not the cablecar Flask app "
            "(wrap WSGI middleware around app.wsgi_app instead)",
            type(worker.wsgi).__name__,
        )
        return
    start_dispatcher(worker.wsgi)
    start_sweeper(worker.wsgi)
    start_log_publisher(worker.wsgi)
    streams = worker.wsgi.extensions["cablecar"].streams
    if worker.cfg.worker_class_str == THREADED:
        streams.limit(max(1, worker.cfg.threads // 2))
    _end_streams_when_stopping(worker, streams)


def settle_settings(cfg: Any) -> None:
    """Keep each of gunicorn's settings on ``cfg`` as a plain attribute.  gunicorn
    reads them through ``Config.__getattr__`` (a lookup and a call, ~27 times a
    request: the parser's limits, the proxy headers, the log format); in a
    started worker they no longer change (a reload starts new workers).  The
    settings gunicorn computes (properties of ``Config``) stay as they are."""
    computed = {name for name, value in vars(type(cfg)).items() if isinstance(value, property)}
    for name, setting in cfg.settings.items():
        if name not in computed:
            object.__setattr__(cfg, name, setting.get())


def _end_streams_when_stopping(worker: Any, streams: Any) -> None:
    """End the worker's event streams as soon as it stops serving, whatever
    stops it: SIGTERM (a deploy), ``max_requests`` (recycling), a lost parent.

    A watcher (a greenlet under gevent, a thread under gthread) sees gunicorn's
    ``worker.alive`` drop and ends the streams; their clients resume with
    Last-Event-ID.  No signal handler of ours: under gevent a handler runs
    inside the event loop's callback, where anything that waits (starting a
    thread, a contended lock) raises ``BlockingSwitchOutError`` and kills the
    worker (exit 255, requests in flight cut).  gunicorn's own handler only
    clears ``alive``; the worker then stops accepting, finishes what is in
    flight within the graceful timeout and exits 0."""

    def watch() -> None:
        while worker.alive:
            time.sleep(_STOP_POLL)
        streams.close_all()

    threading.Thread(target=watch, name="cablecar-stop-watch", daemon=True).start()


#: how often the stop watcher looks (seconds): how late, at most, streams learn of a stop
_STOP_POLL = 0.2


def worker_exit(server: Any, worker: Any) -> None:
    """Let the dispatcher finish the attempt it is making (within the graceful timeout),
    then close the store: a connection pool left to the interpreter's exit is torn
    down by its finaliser among half-destroyed greenlets, with a traceback."""
    from service.api.app import stop_dispatcher, stop_log_publisher, stop_sweeper

    app = getattr(worker, "wsgi", None)  # absent when the worker failed to load the app
    if isinstance(app, Flask) and "cablecar" in app.extensions:
        stop_sweeper(app)
        stop_log_publisher(app)
        stop_dispatcher(app, timeout=graceful_timeout / 2)
        app.extensions["cablecar"].stores.close()


def on_starting(server: Any) -> None:
    """Give this server a control socket of its own (before gunicorn opens it)."""
    own_control_socket(server)


#: gunicorn's default control socket path (25.1+), one for every server of a user
_SHARED_CONTROL_SOCKET = getattr(getattr(gunicorn_config, "ControlSocket", None), "default", None)
#: the name of the private folder's socket, and the arbiter's attribute remembering the folder
CONTROL_SOCKET_NAME, _CONTROL_FOLDER = "gunicorn.ctl", "cablecar_control_folder"


def own_control_socket(server: Any) -> str | None:
    """Put the control socket (``gunicornc``'s) of the server ``server`` runs in a
    new folder of its own, readable by this user only, and return its path.

    gunicorn's default is one path for every server of a user
    (``$HOME/.gunicorn/gunicorn.ctl``): each server started (or restarting a
    worker) took it over, and the first one stopped deleted it under the others.
    The folder (``mkdtemp``: mode 0700, a new name) is in the temporary folder
    (``$TMPDIR``, else ``/tmp``); :func:`on_exit` removes it.  A socket chosen by hand (``--control-socket``,
    ``--no-control-socket``) is left as it is (None)."""
    cfg = server.cfg
    if "control_socket" not in cfg.settings or cfg.control_socket_disable:
        return None
    if cfg.control_socket != _SHARED_CONTROL_SOCKET:
        return None
    folder = tempfile.mkdtemp(prefix="cablecar-gunicorn-")
    setattr(server, _CONTROL_FOLDER, folder)
    path = os.path.join(folder, CONTROL_SOCKET_NAME)
    cfg.set("control_socket", path)
    return path


def when_ready(server: Any) -> None:
    """Serve every worker's metrics on ``CABLECAR_METRICS_ADDRESS``, if set (from the master)."""
    if _settings.metrics_address:
        metrics_listener.serve(_settings.metrics_address)


def child_exit(server: Any, worker: Any) -> None:
    """A worker's live gauges (open streams) leave the metrics with it."""
    metrics_listener.process_gone(worker.pid)


def on_exit(server: Any) -> None:
    """Remove the metrics folder and the control socket's folder this server made."""
    metrics_listener.remove_folder()
    folder = getattr(server, _CONTROL_FOLDER, None)
    if folder:
        shutil.rmtree(folder, ignore_errors=True)
