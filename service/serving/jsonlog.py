"""JSON logs (``CABLECAR_LOG_FORMAT=json``): every line one JSON object, so
that a log pipeline reads fields instead of parsing text.

Each line has ``time`` (UTC, ISO 8601), ``level``, ``logger`` and
``message``; a line written while a request is served has its
``request_id`` (the ``X-Request-Id`` of its answer, which problem bodies
carry too), and gunicorn's access lines have the request's fields
(``remote``, ``method``, ``path``, ``status``, ``bytes``, ``seconds``).
Paths come from gunicorn's escaping logger (controls escaped, stream tickets
redacted), and JSON escapes what is left."""

from __future__ import annotations

import json
import logging
import sys
from datetime import UTC, datetime
from typing import Any

#: gunicorn access atoms -> the field names of an access line
ACCESS_FIELDS = {"h": "remote", "m": "method", "U": "path", "s": "status", "B": "bytes", "L": "seconds"}
#: the atoms an access line reads (the request id as the answer's header)
_ACCESS_ATOMS = frozenset({*ACCESS_FIELDS, "{x-request-id}o"})


def _request_id() -> str | None:
    from flask import has_request_context

    from service.api.action_route import SERVING
    from service.api.routes.edge import request_id

    environ = SERVING.get()  # an action being answered without Flask's request cycle: that is the request
    if environ is not None:
        return request_id(environ)
    return request_id() if has_request_context() else None


class JsonFormatter(logging.Formatter):
    """One JSON object per record (see the module docs)."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": record.getMessage(),
        }
        fields = getattr(record, "fields", None)
        if isinstance(fields, dict):
            line.update(fields)
        if "request_id" not in line and (rid := _request_id()) is not None:
            line["request_id"] = rid
        if record.exc_info:
            line["exception"] = self.formatException(record.exc_info)
        return json.dumps(line, ensure_ascii=True, default=str)


def json_logger(base: type) -> type:
    """gunicorn's logger class ``base`` (one with ``access_atoms``, as
    ``service.serving.gunicorn_conf.EscapingLogger``), writing JSON lines (its error log,
    its access log and every other logger, through the root logger)."""

    class JsonLogger(base):
        def setup(self, cfg: Any) -> None:
            super().setup(cfg)
            formatter = JsonFormatter()
            for log in (self.error_log, self.access_log):
                for handler in log.handlers:
                    handler.setFormatter(formatter)
            root = logging.getLogger()
            if not any(isinstance(h.formatter, JsonFormatter) for h in root.handlers):
                handler = logging.StreamHandler(sys.stderr)
                handler.setFormatter(formatter)
                root.addHandler(handler)
            # the app's loggers write through the root: gunicorn's error log would print them twice
            self.error_log.propagate = False

        def access(self, resp: Any, req: Any, environ: Any, request_time: Any) -> None:
            if not self.access_log_enabled:
                return
            atoms = self.access_atoms(resp, req, environ, request_time, _ACCESS_ATOMS)
            fields: dict[str, Any] = {name: atoms.get(atom, "-") for atom, name in ACCESS_FIELDS.items()}
            for name in ("status", "bytes"):
                if str(fields[name]).isdigit():
                    fields[name] = int(fields[name])
            rid = atoms.get("{x-request-id}o")
            if rid and rid != "-":
                fields["request_id"] = rid
            self.access_log.info("request", extra={"fields": fields})

    return JsonLogger
