"""Settings shared by every test folder.

Under pytest-xdist (``scripts/test.sh`` runs the suite on every core) each
worker needs servers of its own: the global log's readers wait for every
transaction open on the PostgreSQL server (so one worker's open transaction
would hold another's reads back), and Redis keeps rate-limit counts and cached
states that two workers' servers must not share.  ``scripts/test.sh`` starts a
PostgreSQL and a Redis per worker and names them
``CABLECAR_TEST_DATABASE_URL_GW<n>`` / ``CABLECAR_TEST_REDIS_URL_GW<n>``
(worker ``gw0`` uses the plain ones); without those (``pytest -n 2`` by hand)
each worker at least gets a Redis database of its own.
"""

from __future__ import annotations

import os
import re


def pytest_configure() -> None:
    number = re.fullmatch(r"gw(\d+)", os.environ.get("PYTEST_XDIST_WORKER", ""))
    if number is None:
        return
    n = int(number.group(1))
    own = {name: os.environ.get(f"{name}_GW{n}") for name in ("CABLECAR_TEST_DATABASE_URL", "CABLECAR_TEST_REDIS_URL")}
    if n > 0 and all(own.values()):
        os.environ.update({name: str(url) for name, url in own.items()})
        return
    url = os.environ.get("CABLECAR_TEST_REDIS_URL", "")
    if url:
        # database 0 stays the serial run's; Redis has 16 by default
        os.environ["CABLECAR_TEST_REDIS_URL"] = re.sub(r"(/\d+)?$", f"/{1 + n % 15}", url.rstrip("/"), count=1)
