"""The orjson provider writes and reads what Flask's own provider does."""

from __future__ import annotations

import json
from datetime import UTC, datetime

from flask import Flask
from flask.json.provider import DefaultJSONProvider

from service.api.jsonprovider import OrjsonProvider

APP = Flask(__name__)


def _providers() -> tuple[OrjsonProvider, DefaultJSONProvider]:
    app = APP
    stock = DefaultJSONProvider(app)
    stock.sort_keys = False  # type: ignore[misc]
    return OrjsonProvider(app), stock


def test_answers_match_flask_byte_for_byte_on_plain_data() -> None:
    fast, stock = _providers()
    body = {"z": 1, "a": [True, None, "é \u2028 \"q\" \\ \n"], "n": {"x": -3, "y": []}}
    assert json.loads(fast.dumps(body)) == body
    assert fast.dumps(body) == json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    with APP.app_context():
        assert fast.response(body).get_data() == fast.dumps(body).encode() + b"\n"


def test_what_orjson_cannot_handle_goes_to_flask() -> None:
    fast, stock = _providers()
    huge = {"n": 2**70}
    assert json.loads(fast.dumps(huge)) == huge
    moment = {"at": datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)}
    assert json.loads(fast.dumps(moment)) == json.loads(stock.dumps(moment))  # Flask's HTTP date, not RFC 3339
    assert fast.loads('{"a": NaN}')["a"] != fast.loads('{"a": NaN}')["a"]  # the stdlib reads NaN
    assert fast.loads(b'{"a": [1, 2]}') == {"a": [1, 2]}
