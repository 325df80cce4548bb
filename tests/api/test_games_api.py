"""API tests with the Flask client: every endpoint and every error code."""

from __future__ import annotations

import json

from flask.testing import FlaskClient

from tests.api.conftest import act, auth, create, finish_setup, legal, play_to_end, view


def test_game_types_lists_both_games(client: FlaskClient) -> None:
    resp = client.get("/v1/games-types")
    assert resp.status_code == 200
    types = {t["type"]: t for t in resp.get_json()["types"]}
    assert types["ttr-sf"]["min_players"] == 2 and types["ttr-sf"]["max_players"] == 4
    assert "claim_route" in types["ttr-sf"]["actions"]


def test_board_and_unknown_board(client: FlaskClient) -> None:
    resp = client.get("/v1/boards/ttr-sf")
    assert resp.status_code == 200
    assert resp.get_json()
    missing = client.get("/v1/boards/chess")
    assert missing.status_code == 404
    assert missing.content_type == "application/problem+json"
    assert missing.get_json()["code"] == "not_found"


def test_create_game_returns_tokens_and_location(client: FlaskClient) -> None:
    resp = client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "Ada"}, {"name": "Bo"}]})
    assert resp.status_code == 201
    body = resp.get_json()
    assert resp.headers["Location"].endswith(f"/v1/games/{body['id']}")
    assert body["status"] == "setup" and body["version"] >= 1
    assert [s["seat"] for s in body["seats"]] == [0, 1]
    assert [s["name"] for s in body["seats"]] == ["Ada", "Bo"]
    assert len({s["token"] for s in body["seats"]} | {body["host_token"]}) == 3
    assert len(body["seed_commitment"]) == 64 and body["seed_source"] == "server"


def test_create_game_rejects_bad_bodies(client: FlaskClient) -> None:
    bad_json = client.post("/v1/games", data="{not json", content_type="application/json")
    assert bad_json.status_code == 400 and bad_json.get_json()["code"] == "invalid_request"
    no_players = client.post("/v1/games", json={"type": "ttr-sf"})
    assert no_players.status_code == 400
    assert any(e["field"] == "players" for e in no_players.get_json()["errors"])
    unknown = client.post("/v1/games", json={"type": "chess", "players": [{"name": "a"}, {"name": "b"}]})
    assert unknown.status_code == 400
    too_many = client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": str(i)} for i in range(5)]})
    assert too_many.status_code == 422 and too_many.get_json()["code"] == "invalid_config"
    bad_seat = client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": "a"}, {"name": "b"}],
                                              "start_seat": 2})
    assert bad_seat.status_code == 422
    wrong_type = client.post("/v1/games", json={"type": "ttr-sf", "players": [{"name": 3}, {"name": "b"}]})
    assert wrong_type.status_code == 400
    assert client.get("/v1/games").get_json()["games"] == []


def test_caller_seed_is_marked(client: FlaskClient) -> None:
    game = create(client, seed="my-seed")
    assert game["seed_source"] == "caller"


def test_list_games_newest_first_with_filters_and_cursor(client: FlaskClient) -> None:
    ids = [create(client, seed=f"s{i}")["id"] for i in range(5)]
    page = client.get("/v1/games?limit=2").get_json()
    assert [g["id"] for g in page["games"]] == ids[::-1][:2]
    seen = [g["id"] for g in page["games"]]
    while page["next_cursor"]:
        page = client.get(f"/v1/games?limit=2&cursor={page['next_cursor']}").get_json()
        seen += [g["id"] for g in page["games"]]
    assert seen == ids[::-1]
    assert all(g["status"] == "setup" for g in client.get("/v1/games?status=setup").get_json()["games"])
    assert client.get("/v1/games?status=finished").get_json()["games"] == []
    assert len(client.get("/v1/games?type=ttr-sf").get_json()["games"]) == 5
    assert client.get("/v1/games?status=bogus").status_code == 400
    assert client.get("/v1/games?limit=0").status_code == 400
    for g in client.get("/v1/games").get_json()["games"]:
        assert "seed" not in g and "token" not in json.dumps(g)


def test_views_spectator_seat_and_secrets(client: FlaskClient) -> None:
    game = create(client)
    spectator = view(client, game)
    assert "me" not in spectator
    assert spectator["id"] == game["id"] and spectator["type"] == "ttr-sf"
    seat0 = view(client, game, 0)
    assert "hand" in seat0["me"] and "pending_tickets" in seat0["me"]
    seat1 = view(client, game, 1)
    # seat 0's pending tickets never appear in seat 1's view
    for t in seat0["me"]["pending_tickets"]:
        assert all(t["id"] != u["id"] for u in seat1["me"]["pending_tickets"])
    assert "pending_tickets" not in json.dumps(spectator)


def test_etag_and_if_none_match(client: FlaskClient) -> None:
    game = create(client)
    resp = client.get(f"/v1/games/{game['id']}")
    etag = resp.headers["ETag"]
    assert etag == f'"{resp.get_json()["version"]}"'
    again = client.get(f"/v1/games/{game['id']}", headers={"If-None-Match": etag})
    assert again.status_code == 304
    finish_setup(client, game)
    changed = client.get(f"/v1/games/{game['id']}", headers={"If-None-Match": etag})
    assert changed.status_code == 200


def test_replay_view_at_version(client: FlaskClient) -> None:
    game = create(client)
    first = client.get(f"/v1/games/{game['id']}").get_json()
    finish_setup(client, game)
    at = client.get(f"/v1/games/{game['id']}?at={first['version']}")
    assert at.status_code == 200
    assert at.get_json()["version"] == first["version"]
    assert at.get_json()["status"] == "setup"
    assert client.get(f"/v1/games/{game['id']}?at=0").status_code == 400
    assert client.get(f"/v1/games/{game['id']}?at=99999").status_code == 400
    assert client.get(f"/v1/games/{game['id']}?at=x").status_code == 400


def test_unknown_game_and_tokens(client: FlaskClient) -> None:
    game = create(client)
    other = create(client, seed="other")
    assert client.get("/v1/games/nope").status_code == 404
    bad = client.get(f"/v1/games/{game['id']}", headers=auth("st_" + game["id"] + "_" + "x" * 43))
    assert bad.status_code == 401 and bad.get_json()["code"] == "unauthorized"
    garbage = client.get(f"/v1/games/{game['id']}", headers={"Authorization": "Basic abc"})
    assert garbage.status_code == 401
    foreign = client.get(f"/v1/games/{game['id']}", headers=auth(other["seats"][0]["token"]))
    assert foreign.status_code == 403 and foreign.get_json()["code"] == "forbidden"
    foreign_act = client.post(f"/v1/games/{game['id']}/actions", json={"type": "draw_tickets"},
                              headers=auth(other["seats"][0]["token"]))
    assert foreign_act.status_code == 403


def test_legal_actions_needs_a_seat(client: FlaskClient) -> None:
    game = create(client)
    assert client.get(f"/v1/games/{game['id']}/legal-actions").status_code == 401
    host = client.get(f"/v1/games/{game['id']}/legal-actions", headers=auth(game["host_token"]))
    assert host.status_code == 403
    actions = legal(client, game, 0)
    assert actions and all("type" in a for a in actions)


def test_actions_accepted_and_refused(client: FlaskClient) -> None:
    game = create(client)
    v = finish_setup(client, game)
    turn = v["active_seats"][0]
    other = 1 - turn
    before = v["version"]
    # not your turn
    resp = act(client, game, other, {"type": "draw_card", "source": "deck"})
    assert resp.status_code == 409 and resp.get_json()["code"] == "not_your_turn"
    # illegal: a route with no cards
    resp = act(client, game, turn, {"type": "claim_route", "route": "marina--fort-mason", "cards": {}})
    assert resp.status_code == 422
    problem = resp.get_json()
    assert problem["code"] == "illegal_action" and problem["reason"] and problem["detail"]
    # malformed
    resp = act(client, game, turn, {"type": "draw_card", "source": "sky"})
    assert resp.status_code == 400 and resp.get_json()["code"] == "invalid_request"
    resp = act(client, game, turn, {"type": "fly"})
    assert resp.status_code == 400
    resp = client.post(f"/v1/games/{game['id']}/actions", data="[", content_type="application/json",
                       headers=auth(game["seats"][turn]["token"]))
    assert resp.status_code == 400
    # no token / host token
    assert client.post(f"/v1/games/{game['id']}/actions", json={"type": "draw_tickets"}).status_code == 401
    assert client.post(f"/v1/games/{game['id']}/actions", json={"type": "draw_tickets"},
                       headers=auth(game["host_token"])).status_code == 403
    # nothing was written by any refusal
    assert view(client, game)["version"] == before
    # stale version
    resp = act(client, game, turn, {"type": "draw_card", "source": "deck", "expected_version": before - 1})
    assert resp.status_code == 409
    assert resp.get_json()["code"] == "stale_version" and resp.get_json()["current_version"] == before
    # accepted
    resp = act(client, game, turn, {"type": "draw_card", "source": "deck", "expected_version": before})
    assert resp.status_code == 201
    body = resp.get_json()
    assert body["version"] > before and body["events"]
    assert [e["seq"] for e in body["events"]] == list(range(before + 1, body["version"] + 1))


def test_idempotency_key(client: FlaskClient) -> None:
    game = create(client)
    v = finish_setup(client, game)
    turn = v["active_seats"][0]
    headers = {"Idempotency-Key": "k-1"}
    first = act(client, game, turn, {"type": "draw_card", "source": "deck"}, headers=headers)
    assert first.status_code == 201
    again = act(client, game, turn, {"type": "draw_card", "source": "deck"}, headers=headers)
    assert again.status_code == 201
    assert again.get_json()["events"] == first.get_json()["events"]
    assert again.get_json()["version"] == first.get_json()["version"]
    assert view(client, game)["version"] == first.get_json()["version"]
    reused = act(client, game, turn, {"type": "draw_tickets"}, headers=headers)
    assert reused.status_code == 422 and reused.get_json()["code"] == "idempotency_key_reused"
    too_long = act(client, game, turn, {"type": "draw_tickets"}, headers={"Idempotency-Key": "x" * 300})
    assert too_long.status_code == 400


def test_action_keys_are_scoped_per_seat(client: FlaskClient) -> None:
    """Issue 25: a seat sending another seat's key was told 422 (so it learnt
    the key was used); now the key is that seat's own and the action applies."""
    game = create(client)
    v = finish_setup(client, game)
    turn = v["active_seats"][0]
    first = act(client, game, turn, {"type": "draw_card", "source": "deck"}, headers={"Idempotency-Key": "k-1"})
    first = act(client, game, turn, {"type": "draw_card", "source": "deck"}, headers={"Idempotency-Key": "k-2"})
    assert first.status_code == 201
    other = view(client, game)["active_seats"][0]
    assert other != turn
    mine = act(client, game, other, {"type": "draw_card", "source": "deck"}, headers={"Idempotency-Key": "k-1"})
    assert mine.status_code == 201 and mine.get_json()["version"] > first.get_json()["version"]
    assert not mine.get_json().get("replayed")


def test_events_paging_and_redaction(client: FlaskClient) -> None:
    game = create(client)
    finish_setup(client, game)
    spectator = client.get(f"/v1/games/{game['id']}/events?limit=2").get_json()
    assert [e["seq"] for e in spectator["events"]] == [1, 2]
    assert spectator["next_after"] == 2
    rest = client.get(f"/v1/games/{game['id']}/events?after=2&limit=1000").get_json()
    assert rest["events"][0]["seq"] == 3 and rest["next_after"] is None
    assert all("hash" not in e for e in rest["events"])  # hashes only once finished
    seat0 = view(client, game, 0)
    seat1_log = json.dumps(client.get(f"/v1/games/{game['id']}/events?limit=1000",
                                      headers=auth(game["seats"][1]["token"])).get_json())
    for ticket in seat0["me"]["tickets"]:
        assert f'"{ticket["id"]}"' not in seat1_log
    assert client.get(f"/v1/games/{game['id']}/events?limit=5000").status_code == 400
    assert client.get(f"/v1/games/{game['id']}/events?after=-1").status_code == 400


def test_sse_stream_and_resume(client: FlaskClient) -> None:
    game = create(client)
    resp = client.get(f"/v1/games/{game['id']}/events/stream")
    assert resp.status_code == 200 and resp.mimetype == "text/event-stream"
    text = resp.get_data(as_text=True)
    ids = [int(line[4:]) for line in text.splitlines() if line.startswith("id: ")]
    assert ids == list(range(1, game["version"] + 1))
    resumed = client.get(f"/v1/games/{game['id']}/events/stream", headers={"Last-Event-ID": "1"})
    ids = [int(line[4:]) for line in resumed.get_data(as_text=True).splitlines() if line.startswith("id: ")]
    assert ids == list(range(2, game["version"] + 1))
    bad = client.get(f"/v1/games/{game['id']}/events/stream", headers={"Last-Event-ID": "x"})
    assert bad.status_code == 400


def test_full_game_export_and_audit(client: FlaskClient) -> None:
    game = create(client, open_deal=True)
    assert client.get(f"/v1/games/{game['id']}/export").status_code == 409
    assert client.get(f"/v1/games/{game['id']}/export").get_json()["code"] == "game_not_finished"
    finish_setup(client, game)
    final = play_to_end(client, game)
    result = final["result"]
    assert set(result["winners"]) <= {0, 1}
    for p in result["players"]:
        assert p["total"] == p["route_points"] + p["ticket_points"] + p["souvenir_points"]
    late = act(client, game, 0, {"type": "draw_card", "source": "deck"})
    assert late.status_code == 409 and late.get_json()["code"] == "game_finished"
    export = client.get(f"/v1/games/{game['id']}/export")
    assert export.status_code == 200
    record = export.get_json()
    assert record["seed"]["value"] == "api-test" and len(record["events"]) == final["version"]
    audit = client.get(f"/v1/games/{game['id']}/audit").get_json()
    assert audit["ok"] is True


def test_health(client: FlaskClient) -> None:
    resp = client.get("/v1/health")
    assert resp.status_code == 200
    body = resp.get_json()
    assert body["status"] == "ok" and body["store"]["ok"] and body["cache"]["backend"] == "in-process"


def test_unknown_route_and_method_are_problems(client: FlaskClient) -> None:
    resp = client.get("/v1/nothing")
    assert resp.status_code == 404 and resp.content_type == "application/problem+json"
    resp = client.delete("/v1/games")
    assert resp.status_code == 405 and resp.get_json()["code"] == "method_not_allowed"
