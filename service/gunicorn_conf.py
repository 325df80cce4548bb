"""gunicorn configuration for production (``gunicorn -c python:service.gunicorn_conf service.wsgi:app``).

Threaded workers (``gthread``) so Server-Sent Events streams, which wait on the
event store, do not hold a whole worker each.  Every value can be overridden
by the usual ``GUNICORN_CMD_ARGS`` or the environment variables below.
"""

import multiprocessing
import os

bind = os.environ.get("CABLECAR_BIND", "0.0.0.0:8000")
workers = int(os.environ.get("CABLECAR_WORKERS", str(max(2, multiprocessing.cpu_count()))))
worker_class = "gthread"
threads = int(os.environ.get("CABLECAR_THREADS", "8"))
timeout = int(os.environ.get("CABLECAR_WORKER_TIMEOUT", "60"))
graceful_timeout = 20
keepalive = 5
max_requests = int(os.environ.get("CABLECAR_MAX_REQUESTS", "0"))
max_requests_jitter = 100
accesslog = os.environ.get("CABLECAR_ACCESS_LOG", "-")
errorlog = "-"
loglevel = os.environ.get("CABLECAR_LOG_LEVEL", "info")
# Access logs never include the query string's secrets: tokens travel in headers only.
access_log_format = '%(h)s "%(m)s %(U)s" %(s)s %(b)s %(L)ss'
