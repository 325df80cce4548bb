"""What every attack of the security table is made of: one row (:class:`Attack`)
and one plain HTTP request."""

from __future__ import annotations

import http.client
import json
from dataclasses import dataclass


@dataclass(frozen=True)
class Attack:
    """One attack: tried, refused as it should be, answered 5xx."""

    name: str
    expected: str
    tried: int
    refused: int
    server_errors: int


def http_request(base: str, method: str, path: str, body: bytes | None = None,
             headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    host, port = base.split("//", 1)[1].rsplit(":", 1)
    conn = http.client.HTTPConnection(host, int(port), timeout=15)
    try:
        conn.request(method, path, body=body, headers=headers or {})
        resp = conn.getresponse()
        return resp.status, resp.read()
    finally:
        conn.close()


def json_request(obj: object) -> tuple[bytes, dict[str, str]]:
    return json.dumps(obj).encode(), {"Content-Type": "application/json"}
