"""Browser tests: real headless Chromium (Debian's package) driven by Playwright
against ``cablecar serve`` on a free port with a temporary data folder.

scripts/test.sh installs Chromium when it is missing.  Without Chromium or
Playwright the tests are skipped locally and fail under CI (CI=true).
Screenshots of every page land in tests/browser/artifacts/ (git-ignored).
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = Path(__file__).resolve().parent / "artifacts"
CHROMIUM = os.environ.get("CABLECAR_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
#: How long a test waits for something to appear on a page (milliseconds).
WAIT_MS = 20_000


def _unavailable(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"browser tests cannot run: {reason} (scripts/test.sh installs it)")
    pytest.skip(f"{reason} (run scripts/test.sh)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


# ------------------------------------------------------------------ the service
@dataclass
class Api:
    """A small JSON client for setting games up quickly (the pages are tested by clicking)."""

    base: str

    def call(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Accept", "application/json")
        if data is not None:
            req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        try:
            with urllib.request.urlopen(req, timeout=30) as resp:
                text = resp.read()
        except urllib.error.HTTPError as e:
            raise AssertionError(f"{method} {path}: {e.code} {e.read()[:300]!r}") from e
        return json.loads(text) if text else None

    def create(self, game_type: str, names: list[str], seed: str) -> dict[str, Any]:
        """A game dealt from ``seed`` alone (an open deal), so the test knows the deal."""
        body = {"type": game_type, "players": [{"name": n} for n in names], "seed": seed, "open_deal": True}
        created: dict[str, Any] = self.call("POST", "/v1/games", body)
        return created

    def view(self, game_id: str, token: str | None = None) -> dict[str, Any]:
        view: dict[str, Any] = self.call("GET", f"/v1/games/{game_id}", token=token)
        return view

    def legal(self, game_id: str, token: str, limit: int = 1000) -> list[dict[str, Any]]:
        page = self.call("GET", f"/v1/games/{game_id}/legal-actions?limit={limit}", token=token)
        actions: list[dict[str, Any]] = page["actions"]
        return actions

    def act(self, game_id: str, token: str, action: dict[str, Any]) -> Any:
        return self.call("POST", f"/v1/games/{game_id}/actions", action, token=token)


@dataclass
class Server:
    base: str
    process: subprocess.Popen[bytes]
    log: Path
    api: Api = field(init=False)

    def __post_init__(self) -> None:
        self.api = Api(self.base.rstrip("/"))


def _wait_healthy(url: str, process: subprocess.Popen[bytes], log: Path, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"cablecar serve exited early:\n{log.read_text()[-3000:]}")
        try:
            with urllib.request.urlopen(url, timeout=1) as resp:
                if resp.status == 200:
                    return
        except Exception:
            time.sleep(0.2)
    raise TimeoutError(f"{url} did not answer within {timeout} s:\n{log.read_text()[-3000:]}")


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """``cablecar serve`` (embedded SQLite store, in-process cache) on a free port."""
    with serving(tmp_path_factory.mktemp("browser-data")) as started:
        yield started


@contextmanager
def serving(data: Path, port: int | None = None, **settings: str) -> Iterator[Server]:
    """``cablecar serve`` on ``port`` (a free one by default) with its data in ``data`` and more
    ``settings`` (environment variables); stopped on leaving (so that another may start there)."""
    log = data / "serve.log"
    port = port or free_port()
    env = {
        **os.environ,
        "CABLECAR_DATA_DIR": str(data),
        "CABLECAR_SSE_MAX_SECONDS": "120",
        "CABLECAR_SSE_HEARTBEAT_SECONDS": "2",  # a stream notices a closed page within 2 s
        "CABLECAR_RATE_LIMIT": "0",
        "CABLECAR_CREATE_RATE_LIMIT": "off",  # every page of the suite comes from one address
        "CABLECAR_STREAM_RATE_LIMIT": "off",
        **settings,
    }
    env.pop("DATABASE_URL", None)
    env.pop("REDIS_URL", None)
    with log.open("ab") as out:
        process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "cablecar.cli",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--workers",
                "1",
                "--threads",
                "32",
                "--access-log",
            ],
            cwd=ROOT,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    base = f"http://127.0.0.1:{port}/"
    try:
        _wait_healthy(base + "v1/health", process, log)
        yield Server(base, process, log)
    finally:
        process.send_signal(signal.SIGINT)  # gunicorn's quick shutdown
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)  # the server and its workers, started above
            process.wait(timeout=10)


# ------------------------------------------------------------------ the browser
@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """Headless Chromium from the system package, driven by Playwright."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("playwright is not installed")
    if not Path(CHROMIUM).exists():
        _unavailable(f"no Chromium at {CHROMIUM}")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        try:
            yield chromium
        finally:
            chromium.close()


def expect(target: Any) -> Any:
    """Playwright's ``expect`` (imported on first use, so collection needs no Playwright)."""
    from playwright.sync_api import expect as playwright_expect

    return playwright_expect(target)


def _refusal(text: str) -> bool:
    """Chromium logs every 4xx answer and every refused stream (503 streams_busy); a
    refusal the page shows or works around is not a script error."""
    return text.startswith(("Failed to load resource: the server responded with a status of 4",
                            "Failed to load resource: the server responded with a status of 503",
                            "EventSource's response has a MIME type"))


@dataclass
class Pages:
    """Opens pages, each in a window of its own (a tab behind another would have its
    animation frames throttled), and remembers what went wrong in them."""

    browser: Any
    base: str
    viewport: dict[str, int] = field(default_factory=lambda: {"width": 1360, "height": 940})
    contexts: list[Any] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    requests: list[tuple[str, str, dict[str, str]]] = field(default_factory=list)

    def open(self, fragment_or_url: str = "") -> Any:
        context = self.browser.new_context(viewport=self.viewport)
        self.contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(WAIT_MS)
        page.on("pageerror", lambda e: self.errors.append(f"{page.url}: {e}"))
        page.on("console", self._console)
        page.on("request", lambda r: self.requests.append((r.method, r.url, r.headers)))
        url = fragment_or_url if fragment_or_url.startswith("http") else self.base + fragment_or_url
        page.goto(url)
        return page

    def _console(self, message: Any) -> None:
        if message.type == "error" and not _refusal(message.text):
            self.errors.append(f"console: {message.text}")

    def close(self) -> None:
        for context in self.contexts:
            context.close()


@pytest.fixture
def pages(browser: Any, server: Server) -> Iterator[Pages]:
    """Pages at desktop size; the test fails on any script error in one of them."""
    opened = Pages(browser, server.base)
    try:
        yield opened
    finally:
        opened.close()
    assert opened.errors == [], "script errors in the page:\n" + "\n".join(opened.errors)


@pytest.fixture
def shot() -> Callable[[Any, str], Path]:
    """Save a full-page screenshot as tests/browser/artifacts/<name>.png."""
    ARTIFACTS.mkdir(exist_ok=True)

    def take(page: Any, name: str) -> Path:
        path = ARTIFACTS / f"{name}.png"
        page.evaluate("window.scrollTo(0, 0)")  # the board is sticky: show it where it starts
        page.screenshot(path=str(path), full_page=True)
        return path

    return take
