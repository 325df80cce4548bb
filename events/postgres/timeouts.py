"""How long a store may wait on its database server (PostgreSQL), in one
value the configuration builds and :mod:`events.postgres.failfast` applies
(see there for what each bound does)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Timeouts:
    """How long each wait on the database may last, in seconds
    (:mod:`events.postgres.failfast`)."""

    #: one connection attempt (per host); a request waits up to twice this for a pooled connection
    connect: float = 3.0
    statement: float = 10.0
    idle_in_transaction: float = 10.0
    keepalive: float = 10.0

    @property
    def held(self) -> float:
        """Longest a connection may stay checked out before the watchdog cuts it."""
        return self.statement + self.connect

    def options(self) -> dict[str, Any]:
        """libpq connection parameters that carry these bounds."""
        keepalive = max(2, round(self.keepalive))
        server = (f"-c statement_timeout={round(self.statement * 1000)}"
                  f" -c idle_in_transaction_session_timeout={round(self.idle_in_transaction * 1000)}")
        return {
            # libpq counts whole seconds, and takes 1 as 2
            "connect_timeout": max(2, round(self.connect)),
            "options": server,
            "keepalives": 1,
            "keepalives_idle": max(1, keepalive // 2),
            "keepalives_interval": max(1, keepalive // 10),
            "keepalives_count": 5,
            "tcp_user_timeout": keepalive * 1000,
        }
