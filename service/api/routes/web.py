"""The browser client: the page at ``/`` and its static files under ``/web/``.

The page (``service/static/web``) is plain HTML, CSS and ES modules, with no
build step and nothing loaded from another origin.  It talks to the public
HTTP API only.  Seat tokens travel in the URL *fragment* (``/#game=ID&token=...``),
which browsers never send to a server, so they reach neither a query string
nor an access log.
"""

from __future__ import annotations

import re
from importlib import resources
from importlib.resources.abc import Traversable

from flask import Blueprint, Response

from service.errors import NotFound

bp = Blueprint("web", __name__)

#: Media type of each kind of static file the page is made of.
MEDIA_TYPES: dict[str, str] = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".svg": "image/svg+xml",
}

#: A static file name: flat (no folders), lower case, with a known suffix.
ASSET_NAME = re.compile(r"^[a-z0-9][a-z0-9_-]*\.(js|css|svg)$")

#: The page may load and connect to its own origin only: no inline script, no CDN.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'"
)


def web_root() -> Traversable:
    """The packaged folder of the page's files."""
    return resources.files("service").joinpath("static", "web")


def _headers(resp: Response) -> Response:
    resp.headers["Cache-Control"] = "no-cache"
    resp.headers["X-Content-Type-Options"] = "nosniff"
    resp.headers["Referrer-Policy"] = "no-referrer"
    return resp


@bp.get("/")
def index() -> Response:
    """The page: lobby, game table, spectator view and replay (chosen by the URL fragment)."""
    html = web_root().joinpath("index.html").read_text(encoding="utf-8")
    resp = _headers(Response(html, mimetype="text/html"))
    resp.headers["Content-Security-Policy"] = CONTENT_SECURITY_POLICY
    return resp


@bp.get("/web/<asset>")
def asset(asset: str) -> Response:
    """One static file of the page (a script module, the style sheet or an icon)."""
    match = ASSET_NAME.match(asset)
    source = web_root().joinpath(asset)
    if match is None or not source.is_file():
        raise NotFound(f"no file {asset!r} in the web client")
    media = MEDIA_TYPES["." + match.group(1)]
    return _headers(Response(source.read_bytes(), content_type=f"{media}; charset=utf-8"))
