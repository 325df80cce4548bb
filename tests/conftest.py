"""Settings shared by every test folder.

Under pytest-xdist (``scripts/test.sh`` runs the suite on every core) each
worker gets a Redis database of its own: the servers of two workers must not
share cached states or rate-limit counts keyed by the same address.
PostgreSQL needs nothing: every fixture creates a database of a random name.
"""

from __future__ import annotations

import os
import re


def pytest_configure() -> None:
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    url = os.environ.get("CABLECAR_TEST_REDIS_URL", "")
    number = re.fullmatch(r"gw(\d+)", worker)
    if url and number:
        # database 0 stays the serial run's; Redis has 16 by default
        database = 1 + int(number.group(1)) % 15
        os.environ["CABLECAR_TEST_REDIS_URL"] = re.sub(r"(/\d+)?$", f"/{database}", url.rstrip("/"), count=1)
