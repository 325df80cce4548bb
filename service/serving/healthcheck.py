"""``python -m service.serving.healthcheck``: exit 0 when the server in this container
answers ``GET /v1/health`` with 200, else 1 with the reason on one line.

The Dockerfile's ``HEALTHCHECK`` runs it.  It asks the address the server
listens on (``CABLECAR_BIND``, as gunicorn reads it), so moving the server to
another port moves its health check too.
"""

from __future__ import annotations

import sys
import urllib.error
import urllib.request

from service.config import Settings

#: the route probed (the app's ``/v1/health``)
PATH = "/v1/health"

#: listening on every address: the probe asks the loopback one of the same family
_ANY = {"": "127.0.0.1", "0.0.0.0": "127.0.0.1", "::": "::1"}


def probe_url(bind: str) -> str:
    """The health URL of a server bound to ``bind`` (``host:port``, ``[v6]:port``)."""
    if bind.startswith(("unix:", "fd://")):
        raise ValueError(f"CABLECAR_BIND={bind!r} is no TCP address to probe")
    host, sep, port = bind.rpartition(":")
    if not sep or not port.isdigit():
        raise ValueError(f"CABLECAR_BIND={bind!r} is not host:port")
    host = host.strip("[]")
    host = _ANY.get(host, host)
    return f"http://{f'[{host}]' if ':' in host else host}:{port}{PATH}"


def main() -> int:
    """Probe once; the exit code is the verdict."""
    try:
        url = probe_url(Settings.from_env().bind)
        with urllib.request.urlopen(url, timeout=2) as resp:
            status = resp.status
    except urllib.error.HTTPError as e:
        status = e.code
    except (OSError, ValueError) as e:
        print(f"unhealthy: {e}", file=sys.stderr)
        return 1
    if status != 200:
        print(f"unhealthy: {url} answered {status}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
