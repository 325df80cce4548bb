"""Leak test: for every event and view a seat can fetch, nothing secret of
another seat appears (and a seat's own secrets are not over-redacted).

The truth comes from the export once the game is finished; during play we
record everything each seat and a spectator could fetch.
"""

from __future__ import annotations

import json
from typing import Any

from flask.testing import FlaskClient

from tests.api.conftest import act, auth, create, legal, view

# (event type, field) -> how to find the owner seat of that secret in the payload
PER_SEAT_LISTS = {("cards_dealt", "hands"), ("tickets_dealt", "tickets")}
OWNED_FIELDS = {
    ("card_drawn", "card"),  # secret only when source == deck
    ("tickets_kept", "kept"),
    ("tickets_kept", "returned"),
    ("tickets_drawn", "tickets"),
}
NOBODY_FIELDS = {("game_set_up", "rng_key"), ("game_set_up", "deck"), ("game_set_up", "ticket_deck"),
                 ("deck_rebuilt", "deck")}


def _fetch_all(client: FlaskClient, game: dict[str, Any], seats: int) -> dict[int | None, dict[str, Any]]:
    out: dict[int | None, dict[str, Any]] = {}
    for seat in [None, *range(seats)]:
        headers = auth(game["seats"][seat]["token"]) if seat is not None else {}
        v = client.get(f"/v1/games/{game['id']}", headers=headers).get_json()
        log = client.get(f"/v1/games/{game['id']}/events?limit=1000", headers=headers).get_json()["events"]
        out[seat] = {"view": v, "events": {e["seq"]: e for e in log}}
    return out


def _check(snapshot: dict[int | None, dict[str, Any]], truth: dict[int, dict[str, Any]], seats: int) -> None:
    for viewer, seen in snapshot.items():
        v = seen["view"]
        if viewer is None:
            assert "me" not in v
        for p in v["players"]:
            assert "hand" not in p and "tickets" not in p, "hands and tickets are secret until the end"
        for seq, event in seen["events"].items():
            full = truth[seq]["payload"]
            payload = event["payload"]
            etype = event["type"]
            for (t, field) in NOBODY_FIELDS:
                if etype == t:
                    assert payload.get(field) is None, f"{t}.{field} leaked to {viewer}"
            for (t, field) in PER_SEAT_LISTS:
                if etype == t:
                    for owner, value in enumerate(payload[field]):
                        if owner == viewer:
                            assert value == full[field][owner], "own secret over-redacted"
                        else:
                            assert value is None, f"{t}.{field}[{owner}] leaked to {viewer}"
            for (t, field) in OWNED_FIELDS:
                if etype == t and (t != "card_drawn" or full["source"] == "deck"):
                    if full["seat"] == viewer:
                        assert payload[field] == full[field]
                    else:
                        assert payload.get(field) is None, f"{t}.{field} of seat {full['seat']} leaked to {viewer}"
        if viewer is not None:
            text = json.dumps(v)
            for seq, event in seen["events"].items():
                full = truth[seq]["payload"]
                if event["type"] in ("tickets_kept",) and full["seat"] != viewer:
                    for ticket in full["kept"] or []:
                        mine = {t["id"] for t in v["me"]["tickets"]} | {t["id"] for t in v["me"]["pending_tickets"]}
                        if ticket not in mine:
                            assert f'"{ticket}"' not in text


def test_no_seat_sees_another_seats_secrets(client: FlaskClient) -> None:
    seats = 3
    game = create(client, players=seats, seed="leaks")
    snapshots = []
    for step in range(400):
        v = view(client, game)
        if v["status"] == "finished":
            break
        if step % 7 == 0:
            snapshots.append(_fetch_all(client, game, seats))
        seat = v["active_seats"][0]
        actions = legal(client, game, seat)
        claims = [a for a in actions if a["type"] == "claim_route"]
        pick = (claims or actions)[step % len(claims or actions)]
        resp = act(client, game, seat, pick)
        assert resp.status_code == 201, resp.get_json()
    final = view(client, game)
    assert final["status"] == "finished"
    export = client.get(f"/v1/games/{game['id']}/export").get_json()
    truth = {e["seq"]: e for e in export["events"]}
    assert snapshots
    for snap in snapshots:
        _check(snap, truth, seats)
