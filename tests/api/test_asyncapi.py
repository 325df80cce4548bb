"""The AsyncAPI 3 document of the event stream and the webhooks (issue 27):
served beside openapi.yaml, every reference into it resolving, and its
messages describing what the server really sends.  (``scripts/check-contract.sh``
validates it with the AsyncAPI parser.)"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema
import yaml
from flask.testing import FlaskClient
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT202012

from tests.api.conftest import auth, create

ROOT = Path(__file__).resolve().parents[2]


def _refs(node: Any) -> list[str]:
    if isinstance(node, dict):
        return ([node["$ref"]] if isinstance(node.get("$ref"), str) else []) + [
            r for v in node.values() for r in _refs(v)]
    if isinstance(node, list):
        return [r for v in node for r in _refs(v)]
    return []


def _at(doc: Any, pointer: str) -> Any:
    for part in pointer.lstrip("/").split("/"):
        doc = doc[part]
    return doc


def test_served_beside_openapi_and_every_reference_resolves(client: FlaskClient) -> None:
    served = client.get("/asyncapi.yaml")
    assert served.status_code == 200 and served.mimetype == "application/yaml"
    doc = yaml.safe_load(served.get_data(as_text=True))
    assert doc["asyncapi"].startswith("3.") and doc == yaml.safe_load((ROOT / "asyncapi.yaml").read_text())
    openapi = yaml.safe_load(client.get("/openapi.yaml").get_data(as_text=True))
    for ref in _refs(doc):
        where, _, pointer = ref.partition("#")
        assert where in ("", "openapi.yaml"), ref
        assert _at(openapi if where else doc, pointer) is not None, ref


def _validator(name: str) -> jsonschema.Draft202012Validator:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    registry = Registry().with_resource("urn:openapi", Resource(contents=spec, specification=DRAFT202012))
    doc = yaml.safe_load((ROOT / "asyncapi.yaml").read_text())
    ref = doc["components"]["messages"][name]["payload"]["$ref"].replace("openapi.yaml", "urn:openapi")
    return jsonschema.Draft202012Validator({"$ref": ref}, registry=registry)


def test_the_stream_messages_are_what_the_server_sends(tmp_path: Path) -> None:
    from service.api.app import create_app
    from service.config import Settings

    app = create_app(Settings(data_dir=str(tmp_path), sse_max_seconds=0, sse_heartbeat_seconds=1, webhooks=False))
    client = app.test_client()
    try:
        game = create(client, "cable-car", 2, seed="asyncapi")
        client.post(f"/v1/games/{game['id']}/cancel", headers=auth(game["host_token"]))
        text = client.get(f"/v1/games/{game['id']}/events/stream").get_data(as_text=True)
        blocks = [b for b in text.split("\n\n") if b.strip() and not b.startswith(("retry:", ":"))]
        events, ends, views = [], [], []
        for block in blocks:
            fields = dict(line.split(": ", 1) for line in block.splitlines())
            kind = fields.get("event")
            (ends if kind == "end" else views if kind == "view" else events).append(json.loads(fields["data"]))
        assert events and len(ends) == 1 and len(views) == 1 and blocks[0].startswith("event: view\n")
        for event in events:
            assert not list(_validator("gameEvent").iter_errors(event))
        assert not list(_validator("streamView").iter_errors(views[0]))
        assert not list(_validator("streamEnd").iter_errors(ends[0]))
        assert list(_validator("streamEnd").iter_errors({"version": 1, "status": "over"}))
    finally:
        app.extensions["cablecar"].stores.close()
