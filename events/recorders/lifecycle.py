"""The life of one database under its capabilities: reachable, and closed once."""

from __future__ import annotations

from abc import ABC, abstractmethod


class Database(ABC):
    """What every backend's database object answers beside its recorders."""

    @abstractmethod
    def ping(self) -> None:
        """Raise StoreUnavailable if the database cannot be reached."""

    @abstractmethod
    def close(self) -> None:
        """Release every connection."""

    @property
    @abstractmethod
    def closed(self) -> bool:
        """Whether :meth:`close` was called (background workers stop then)."""
