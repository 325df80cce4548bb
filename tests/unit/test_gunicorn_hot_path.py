"""What gunicorn does for every request, made cheaper without changing it
(service/serving/gunicorn_conf.py): the access line is built from the atoms
its format names only (for any format, the same line as gunicorn's atoms of
every header and environ entry, escaped and redacted the same way, in text
and JSON), and a started worker reads its settings as plain attributes."""

from __future__ import annotations

import json
import logging
from types import SimpleNamespace
from typing import Any

import pytest
from gunicorn.config import Config

from service.serving import gunicorn_conf
from service.serving.jsonlog import json_logger

TICKET = "T1ck3t-s3cr3t_value-0123456789abcdefghijklmnop"
ENVIRON = {
    "REQUEST_METHOD": "POST", "RAW_URI": f"/v1/games/g/actions?ticket={TICKET}&x=1", "SERVER_PROTOCOL": "HTTP/1.1",
    "PATH_INFO": "/v1/games/g/actions\n1.2.3.4 forged", "QUERY_STRING": f"ticket={TICKET}&x=1",
    "REMOTE_ADDR": "10.0.0.7", "HTTP_USER_AGENT": "bot/1", "HTTP_REFERER": "http://x/", "SERVER_NAME": "x",
    "HTTP_AUTHORIZATION": "Bearer secret", "wsgi.input": object(), "gunicorn.socket": object(),
}
REQUEST = SimpleNamespace(headers=[("HOST", "x"), ("USER-AGENT", "bot/1"), ("X-EVIL", "a\nb"), ("X-TWICE", "1"),
                                   ("X-TWICE", "2")])
RESPONSE = SimpleNamespace(status="201 CREATED", sent=123, headers=[
    ("Content-Type", "application/json"), ("X-Request-Id", "req-42"), ("Cache-Control", "private, no-cache")])
ELAPSED = SimpleNamespace(seconds=0, microseconds=1234)

FORMATS = [
    gunicorn_conf.access_log_format,
    '%(h)s %(l)s %(u)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s" %(q)s %(H)s %(B)s %(D)s %(M)s %(T)s',
    "%({X-Evil}i)s %({x-twice}i)s %({content-type}o)s %({REMOTE_ADDR}e)s %({missing}i)s %(nothing)s",
    "%(U)s %({x-request-id}o)s %({query_string}e)s",
]


def _logger(fmt: str, cls: type = gunicorn_conf.EscapingLogger) -> tuple[Any, list[logging.LogRecord]]:
    cfg = Config()
    cfg.set("accesslog", "-")
    cfg.set("access_log_format", fmt)
    logger = cls(cfg)
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    logger.access_log.handlers = [handler]
    return logger, records


@pytest.mark.parametrize("fmt", FORMATS)
def test_the_line_is_the_one_every_atom_would_make(fmt: str) -> None:
    logger, records = _logger(fmt)
    logger.access(RESPONSE, REQUEST, ENVIRON, ELAPSED)
    full = logger.atoms_wrapper_class(logger.atoms(RESPONSE, REQUEST, ENVIRON, ELAPSED))
    [record] = records
    line = record.getMessage()
    assert line == fmt % full
    assert TICKET not in line and "\n" not in line


def test_a_forged_path_and_a_ticket_stay_out_of_the_line() -> None:
    logger, records = _logger(gunicorn_conf.access_log_format)
    logger.access(RESPONSE, REQUEST, ENVIRON, ELAPSED)
    line = records[0].getMessage()
    assert line == '10.0.0.7 "POST /v1/games/g/actions\\x0a1.2.3.4 forged" 201 123 0.001234s req-42'


def test_json_lines_read_the_same_atoms() -> None:
    logger, records = _logger(gunicorn_conf.access_log_format, json_logger(gunicorn_conf.EscapingLogger))
    logger.access(RESPONSE, REQUEST, ENVIRON, ELAPSED)
    fields = records[0].fields  # type: ignore[attr-defined]
    assert fields == {"remote": "10.0.0.7", "method": "POST", "path": "/v1/games/g/actions\\x0a1.2.3.4 forged",
                      "status": 201, "bytes": 123, "seconds": "0.001234", "request_id": "req-42"}
    assert json.dumps(fields)


def test_a_started_worker_reads_its_settings_as_plain_attributes() -> None:
    cfg = Config()
    cfg.set("access_log_format", "%(h)s")
    cfg.set("workers", 3)
    before = {name: getattr(cfg, name) for name in cfg.settings}
    gunicorn_conf.settle_settings(cfg)
    assert {name: getattr(cfg, name) for name in cfg.settings} == before  # the same values
    assert "access_log_format" in vars(cfg) and "workers" in vars(cfg)  # no longer through __getattr__
    assert "worker_class" not in vars(cfg)  # computed by gunicorn: left to its property
