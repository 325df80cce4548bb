"""Token scopes on every organiser and host endpoint, and organiser tokens on
the game endpoints.

Credentials: none, a malformed header, a forged organiser token (right
shape and id, wrong secret), a genuine seat token, a genuine host token,
another organiser's token and the owner's organiser token.  Not genuine is
401; genuine but outside its scope is 403 (see ``service/usecases/auth.py``); every
answer is checked against openapi.yaml.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from service.config import Settings
from tests.api.conftest import auth
from tests.api.test_openapi import check_response

CREDENTIALS = ("none", "malformed", "forged", "seat", "host", "other_organiser", "organiser")


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=str(tmp_path), webhooks=False)


@dataclass(frozen=True)
class World:
    """An organiser with a batch and a webhook, and another organiser."""

    headers: dict[str, dict[str, str]]
    batch_id: str
    game: dict[str, Any]
    webhook_id: str
    other_game: dict[str, Any]


def organiser_token(client: FlaskClient, name: str) -> tuple[str, str]:
    body = client.post("/v1/organisers", json={"name": name}).get_json()
    return body["id"], body["token"]


@pytest.fixture
def world(client: FlaskClient) -> World:
    owner_id, owner = organiser_token(client, "owner")
    _, other = organiser_token(client, "other")
    tables = [{"players": [{"name": "Ada"}, {"name": "Bo"}]}]
    created = client.post(
        "/v1/batches", json={"type": "ttr-sf", "tables": tables}, headers=auth(owner)
    ).get_json()
    game = created["games"][0]
    hook = client.post(
        "/v1/webhooks", json={"url": "https://hooks.example.org/h", "batch": created["id"]}, headers=auth(owner)
    ).get_json()
    other_game = client.post("/v1/games", json={"type": "ttr-sf", "players": tables[0]["players"]}).get_json()
    headers = {
        "none": {},
        "malformed": {"Authorization": "Bearer not-a-token"},
        "forged": auth(f"ot_{owner_id}_{'A' * 43}"),
        "seat": auth(game["seats"][0]["token"]),
        "host": auth(game["host_token"]),
        "other_organiser": auth(other),
        "organiser": auth(owner),
    }
    return World(headers, created["id"], game, hook["id"], other_game)


def expect(*, organiser: int, other: int = 403, seat: int = 403, host: int = 403) -> dict[str, int]:
    """The status per credential of an organiser endpoint (not genuine: 401)."""
    return {
        "none": 401,
        "malformed": 401,
        "forged": 401,
        "seat": seat,
        "host": host,
        "other_organiser": other,
        "organiser": organiser,
    }


def call(client: FlaskClient, world: World, credential: str, method: str, path: str, body: Any = None) -> Any:
    headers = world.headers[credential]
    url = path.format(batch=world.batch_id, game=world.game["id"], webhook=world.webhook_id, seat=1)
    resp = client.open(url, method=method.upper(), json=body, headers=headers)
    check_response(
        resp, path.format(batch="{batch_id}", game="{id}", webhook="{webhook_id}", seat="{seat}"), method
    )
    return resp


ORGANISER_ENDPOINTS: list[tuple[str, str, Any, dict[str, int]]] = [
    ("get", "/v1/organisers/me", None, expect(organiser=200, other=200)),
    (
        "post",
        "/v1/batches",
        {"type": "ttr-sf", "tables": [{"players": [{"name": "a"}, {"name": "b"}]}]},
        expect(organiser=201, other=201),
    ),
    ("get", "/v1/batches", None, expect(organiser=200, other=200)),
    ("get", "/v1/batches/{batch}", None, expect(organiser=200)),
    ("get", "/v1/batches/{batch}/results", None, expect(organiser=200)),
    ("post", "/v1/webhooks", {"url": "https://hooks.example.org/x"}, expect(organiser=201, other=201)),
    ("post", "/v1/webhooks", {"url": "https://hooks.example.org/x", "batch": "{batch}"}, expect(organiser=201)),
    ("get", "/v1/webhooks", None, expect(organiser=200, other=200)),
    ("get", "/v1/webhooks/{webhook}", None, expect(organiser=200)),
    ("get", "/v1/webhooks/{webhook}/deliveries", None, expect(organiser=200)),
    ("delete", "/v1/webhooks/{webhook}", None, expect(organiser=204)),
]


@pytest.mark.parametrize(
    ("method", "path", "body", "statuses"),
    ORGANISER_ENDPOINTS,
    ids=[
        f"{m.upper()} {p}" + (" for a batch" if b and "batch" in b else "")
        for m, p, b, _ in ORGANISER_ENDPOINTS
    ],
)
def test_organiser_endpoints(
    client: FlaskClient, world: World, method: str, path: str, body: Any, statuses: dict[str, int]
) -> None:
    if isinstance(body, dict) and body.get("batch") == "{batch}":
        body = {**body, "batch": world.batch_id}
    # the owner goes last: DELETE succeeds only once
    for credential in CREDENTIALS:
        resp = call(client, world, credential, method, path, body)
        assert resp.status_code == statuses[credential], (credential, resp.get_json())
        if resp.status_code == 401:
            assert resp.get_json()["code"] == "unauthorized"
        elif resp.status_code == 403:
            assert resp.get_json()["code"] == "forbidden"


def test_other_organisers_see_only_their_own_webhooks(client: FlaskClient, world: World) -> None:
    theirs = client.get("/v1/webhooks", headers=world.headers["other_organiser"]).get_json()["webhooks"]
    mine = client.get("/v1/webhooks", headers=world.headers["organiser"]).get_json()["webhooks"]
    assert theirs == [] and [h["id"] for h in mine] == [world.webhook_id]
    assert all("secret" not in h for h in mine)


def test_seat_token_rotation_is_for_the_host_only(client: FlaskClient, world: World) -> None:
    statuses = {
        "none": 401,
        "malformed": 401,
        "forged": 401,
        "seat": 403,
        "other_organiser": 403,
        "organiser": 403,  # the game's own organiser: the host manages the game
        "host": 200,
    }
    for credential, status in statuses.items():
        resp = call(client, world, credential, "post", "/v1/games/{game}/seats/{seat}/token")
        assert resp.status_code == status, (credential, resp.get_json())
    another_host = auth(world.other_game["host_token"])
    resp = client.post(f"/v1/games/{world.game['id']}/seats/1/token", headers=another_host)
    assert check_response(resp, "/v1/games/{id}/seats/{seat}/token", "post")["code"] == "forbidden"


def test_organiser_tokens_on_the_game_endpoints(client: FlaskClient, world: World) -> None:
    gid = world.game["id"]
    own = client.get(f"/v1/games/{gid}", headers=world.headers["organiser"])
    assert check_response(own, "/v1/games/{id}")["id"] == gid and "me" not in own.get_json()
    events = client.get(f"/v1/games/{gid}/events", headers=world.headers["organiser"])
    assert events.status_code == 200
    assert all(
        e["payload"] == s["payload"]
        for e, s in zip(
            events.get_json()["events"],
            client.get(f"/v1/games/{gid}/events").get_json()["events"],
            strict=True,
        )
    ), "an organiser sees what a spectator sees"
    foreign = client.get(f"/v1/games/{world.other_game['id']}", headers=world.headers["organiser"])
    assert check_response(foreign, "/v1/games/{id}")["code"] == "forbidden"
    forged = client.get(f"/v1/games/{gid}", headers=world.headers["forged"])
    assert check_response(forged, "/v1/games/{id}")["code"] == "unauthorized"
    acting = client.post(
        f"/v1/games/{gid}/actions", json={"type": "draw_tickets"}, headers=world.headers["organiser"]
    )
    assert check_response(acting, "/v1/games/{id}/actions", "post")["code"] == "forbidden"
    legal = client.get(f"/v1/games/{gid}/legal-actions", headers=world.headers["other_organiser"])
    assert check_response(legal, "/v1/games/{id}/legal-actions")["code"] == "forbidden"


def test_a_batch_of_another_organiser_cannot_be_watched(client: FlaskClient, world: World) -> None:
    resp = client.post(
        "/v1/webhooks",
        json={"url": "https://hooks.example.org/x", "batch": world.batch_id},
        headers=world.headers["other_organiser"],
    )
    assert resp.status_code == 403
    unknown = client.post(
        "/v1/webhooks",
        json={"url": "https://hooks.example.org/x", "batch": "nope"},
        headers=world.headers["organiser"],
    )
    problem = check_response(unknown, "/v1/webhooks", "post")
    assert unknown.status_code == 400 and problem["errors"][0]["field"] == "batch"
