"""pyplay: the Python client openapi-generator's `python` target writes from service/openapi.yaml with its
DEFAULT options, used (issue 38): every generated module imports, then one whole game of each type is played
against a live server through it, and each game's event page, export (JSON and NDJSON) and audit are read.

scripts/check-generators.sh runs it with a private venv (pydantic, urllib3, python-dateutil):

    python play.py GENERATED_DIR BASE_URL [max-moves]

Policy: claim_route, lay_tiles or roll when legal, else the first legal action (never resign), as axiosplay.
Exit status 0 only when both games reached `finished` and every read agreed with them.
"""

import importlib
import pkgutil
import sys

sys.path.insert(0, sys.argv[1])
base = sys.argv[2]
max_moves = int(sys.argv[3]) if len(sys.argv) > 3 else 3000

import openapi_client as oc  # noqa: E402  (from the generated directory)
from openapi_client.models import ActionRequest, CreateGame  # noqa: E402

n = 0
for sub in ("openapi_client.models", "openapi_client.api"):
    for mod in pkgutil.iter_modules(importlib.import_module(sub).__path__):
        importlib.import_module(f"{sub}.{mod.name}")
        n += 1
for body in ({"type": "resign"}, {"type": "roll"}, {"type": "draw_tickets"}, {"type": "start_ride"},
             {"type": "lay_tiles", "placements": [{"tile": "curve", "row": 1, "col": 2, "rotation": 0}]}):
    parsed = ActionRequest.from_dict(body)  # one discriminated type each, not "matches several"
    assert parsed.actual_instance.type == body["type"], body
print(f"python: imported {n} modules; action bodies parse by their discriminator")


def client(token=None):
    return oc.ApiClient(oc.Configuration(host=base, access_token=token))


def choose(actions):
    kinds = [a.actual_instance.type for a in actions]
    for i, kind in enumerate(kinds):
        if kind in ("claim_route", "lay_tiles", "roll"):
            return actions[i]
    for i, kind in enumerate(kinds):
        if kind != "resign":
            return actions[i]
    raise AssertionError(f"no legal action but resign for an active seat: {kinds}")


def play(game_type):
    games = oc.GamesApi(client())
    created = games.create_game(CreateGame.from_dict(
        {"type": game_type, "players": [{"name": "Ada"}, {"name": "Bo"}], "seed": "pyplay"}))
    moves = 0
    while True:
        view = games.get_game(created.id).actual_instance
        if view.status == "finished":
            break
        assert moves < max_moves, f"not finished after {max_moves} moves"
        assert view.active_seats, f"status {view.status} with no active seat"
        actions = oc.ActionsApi(client(created.seats[view.active_seats[0]].token))
        legal = actions.get_legal_actions(created.id)
        actions.post_action(created.id, choose(legal.actions))
        moves += 1
    assert view.result is not None, "finished with no result"
    # the event page: the game's version, and the first three events
    page = oc.EventsApi(client()).list_events(created.id, limit=3)
    assert [e.seq for e in page.events] == [1, 2, 3] and page.version == view.version, page
    audit = oc.AuditApi(client())
    record = audit.export_game(created.id)
    assert len(record.events) == view.version and record.result is not None, "export: not every event"
    lines = bytes(audit.export_game_ndjson(created.id)).decode().splitlines()
    assert len(lines) == view.version + 1 and '"header"' in lines[0], lines[:1]
    report = audit.audit_game(created.id)
    assert report.ok, f"audit: {report.problems}"
    return moves


for game_type in ("cable-car", "ttr-sf"):
    moves = play(game_type)
    print(f"python (default options): played a whole {game_type} game, {moves} moves, and read its event page, "
          "export (JSON and NDJSON) and audit through the generated client")
# the board: nested arrays of edges, typed by the client
board = oc.MetaApi(client()).get_board("cable-car").actual_instance
assert board.tiles and all(len(segment) == 2 for tile in board.tiles for segment in tile.segments), board
print(f"python: read the cable-car board ({len(board.tiles)} tile types)")
# a cancelled game: the host's token, and its export
created = oc.GamesApi(client()).create_game(CreateGame.from_dict(
    {"type": "cable-car", "players": [{"name": "Ada"}, {"name": "Bo"}], "seed": "pyplay"}))
assert oc.GamesApi(client(created.host_token)).cancel_game(created.id).actual_instance.status == "cancelled"
assert oc.AuditApi(client()).export_game(created.id).game.status == "cancelled"
print("python: cancelled a game with its host token and read its export")
