"""How the service serves the page and its files (Flask test client, no browser)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from service.api.app import create_app
from service.api.routes.web import ASSET_NAME, MEDIA_TYPES, web_root
from service.config import Settings

WEB = Path(__file__).resolve().parents[2] / "service" / "static" / "web"


@pytest.fixture
def client(tmp_path: Path) -> Iterator[FlaskClient]:
    app = create_app(Settings(data_dir=str(tmp_path)))
    yield app.test_client()
    app.extensions["cablecar"].stores.close()


def test_the_page_is_served_at_the_root_with_a_strict_content_security_policy(client: FlaskClient) -> None:
    resp = client.get("/")
    assert resp.status_code == 200
    assert resp.mimetype == "text/html"
    policy = resp.headers["Content-Security-Policy"]
    assert "default-src 'self'" in policy and "script-src 'self'" in policy
    assert "unsafe-inline" not in policy and "unsafe-eval" not in policy
    assert resp.headers["Referrer-Policy"] == "no-referrer"
    html = resp.get_data(as_text=True)
    assert '<script type="module" src="web/main.js">' in html
    assert "<script>" not in html and " style=" not in html, (
        "no inline script or style (the policy forbids them)"
    )


def test_every_file_the_page_names_is_served_with_its_media_type(client: FlaskClient) -> None:
    files = sorted(p.name for p in WEB.iterdir() if p.name != "index.html")
    assert "main.js" in files and "app.css" in files
    for name in files:
        assert ASSET_NAME.match(name), f"{name} does not follow the asset naming rule"
        resp = client.get(f"/web/{name}")
        assert resp.status_code == 200, name
        assert resp.mimetype == MEDIA_TYPES[Path(name).suffix], name
        assert resp.get_data() == (WEB / name).read_bytes()
        assert resp.headers["X-Content-Type-Options"] == "nosniff"


def test_every_module_import_resolves_to_a_served_file(client: FlaskClient) -> None:
    for path in WEB.glob("*.js"):
        for target in re.findall(r'from "\./([^"]+)"', path.read_text()):
            assert client.get(f"/web/{target}").status_code == 200, f"{path.name} imports {target}"


@pytest.mark.parametrize(
    "name", ["nope.js", "index.html", "APP.CSS", "app.py", ".hidden.js", "..%2Fapp.py", "%2e%2e"]
)
def test_anything_else_is_a_not_found_problem(client: FlaskClient, name: str) -> None:
    resp = client.get(f"/web/{name}")
    assert resp.status_code == 404
    assert resp.mimetype == "application/problem+json"
    assert resp.get_json()["code"] == "not_found"


def test_the_packaged_folder_is_the_one_in_the_repository() -> None:
    assert web_root().joinpath("index.html").is_file()
