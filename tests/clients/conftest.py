"""A live server on loopback for the generated clients (they speak real HTTP)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from service.api.app import create_app
from service.config import Settings
from tests.wsgi_server import served

#: the generated Python client's package, importable without installing it
CLIENT_ROOT = Path(__file__).resolve().parents[2] / "clients" / "python"
if str(CLIENT_ROOT) not in sys.path:
    sys.path.insert(0, str(CLIENT_ROOT))


@pytest.fixture(scope="module")
def live_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The app (embedded SQLite, short streams) served by a threaded werkzeug
    server on a free port; yields its base URL."""
    settings = Settings(
        data_dir=str(tmp_path_factory.mktemp("client-data")), sse_max_seconds=2, sse_heartbeat_seconds=1,
        webhooks=False,
    )
    with served(create_app(settings)) as url:
        yield url
