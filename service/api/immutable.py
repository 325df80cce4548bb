"""Answers that can never change (a board, an event catalogue, a finished
game's export): a strong ``ETag`` (a hash of the body), ``Cache-Control:
public, max-age=31536000, immutable``, and ``304`` to a matching
``If-None-Match``."""

from __future__ import annotations

import hashlib

from flask import Response, request

#: what any cache may do with an answer that never changes: keep it a year, never revalidate
IMMUTABLE = "public, max-age=31536000, immutable"


def immutable(resp: Response) -> Response:
    """``resp`` marked immutable, or a 304 when the client's ``If-None-Match``
    names its body already (compared weakly, RFC 9110 section 13.1.2)."""
    tag = hashlib.sha256(resp.get_data()).hexdigest()[:32]
    if request.if_none_match and request.if_none_match.contains_weak(tag):
        not_modified = Response(status=304)
        not_modified.headers["ETag"] = f'"{tag}"'
        not_modified.headers["Cache-Control"] = IMMUTABLE
        if resp.vary:
            not_modified.vary.update(resp.vary)
        return not_modified
    resp.headers["ETag"] = f'"{tag}"'
    resp.headers["Cache-Control"] = IMMUTABLE
    return resp
