"""gunicorn's gevent worker, stopping without waiting on idle connections.

A stopping gevent worker waits until no connection is open, and gunicorn gives
an idle keep-alive connection its whole ``keepalive`` (5 s) to send another
request.  The event streams a stop ends, and the requests it lets finish, would
each hold the worker that long after their answer.  Here a connection that
waits for its next request while the worker stops waits :data:`STOP_LINGER`
at most, as gunicorn's threaded worker does (``STOP_KEEPALIVE_LINGER``); a
request arriving meanwhile is still answered (with ``Connection: close``).

Only imported by gunicorn, in a worker about to serve (``worker_class`` of
``service/serving/gunicorn_conf.py``).
"""

from __future__ import annotations

from typing import Any

import gevent
from gunicorn.workers.ggevent import GeventWorker as _GunicornGeventWorker

#: seconds an idle keep-alive connection is kept once the worker is stopping
STOP_LINGER = 1.0


class GeventWorker(_GunicornGeventWorker):
    """gunicorn's gevent worker; see the module docs."""

    def timeout_ctx(self) -> Any:
        return gevent.Timeout(self.cfg.keepalive if self.alive else STOP_LINGER, False)
