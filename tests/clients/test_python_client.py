"""The generated Python client (clients/python, openapi-python-client) plays
whole games of both types against a live server: no hand-written HTTP here,
every request and every parsed answer goes through the generated package.

It creates games (and a batch), reads every seat's view and legal actions,
sends actions with Idempotency-Keys (a retry gets the first answer), reads a
few Server-Sent Events, exports the finished games as JSON and NDJSON,
audits them, and reads a batch's results as JSON and CSV.
"""

from __future__ import annotations

import csv
import io
import json
import uuid
from typing import Any

import pytest
from cablecar_client import AuthenticatedClient, Client
from cablecar_client.api.actions import get_legal_actions, post_action
from cablecar_client.api.audit import audit_game, export_game, export_game_ndjson
from cablecar_client.api.events import list_events, stream_events
from cablecar_client.api.games import create_game, get_game
from cablecar_client.api.meta import list_game_types
from cablecar_client.api.tournaments import (
    create_batch,
    create_organiser,
    get_batch_results,
    get_batch_results_csv,
)
from cablecar_client.models import (
    ActionResult,
    Audit,
    BatchCreated,
    BatchResults,
    CableCarResult,
    CableCarView,
    ClaimRoute,
    CreateCableCarGame,
    CreateOrganiser,
    CreateTtrSfBatch,
    CreateTtrSfGame,
    EventsPage,
    Export,
    GameCreated,
    GameTypes,
    LegalActions,
    OrganiserCreated,
    PlayerIn,
    Problem,
    TtrSfResult,
    TtrSfTable,
    TtrSfView,
)
from cablecar_client.types import UNSET, File

#: actions after which a game that has not ended counts as stuck
MAX_ACTIONS = 1500
#: every seat's view and legal actions are read on the first action and then every this many
ALL_SEATS_EVERY = 25


def _spectator(base: str) -> Client:
    return Client(base_url=base, raise_on_unexpected_status=True)


def _as(base: str, token: str) -> AuthenticatedClient:
    return AuthenticatedClient(base_url=base, token=token, raise_on_unexpected_status=True)


def play_to_the_end(base: str, game_id: str, tokens: dict[int, str]) -> TtrSfView | CableCarView:
    """Play the game with every seat's first legal action (routes claimed
    first, so a ttr-sf game ends soon); returns the final spectator view."""
    seats = {seat: _as(base, token) for seat, token in tokens.items()}
    spectator = _spectator(base)
    for step in range(MAX_ACTIONS):
        # A spectator may read a game without a token: the operation takes one optionally.
        view = get_game.sync(game_id, client=spectator)  # type: ignore[arg-type]
        assert isinstance(view, TtrSfView | CableCarView), view
        assert view.me is UNSET  # a spectator sees no seat's secrets
        if view.status == "finished":
            return view
        if step % ALL_SEATS_EVERY == 0:
            for seat, client in seats.items():
                own = get_game.sync(game_id, client=client)
                assert isinstance(own, type(view)) and own.me is not UNSET, own
                page = get_legal_actions.sync(game_id, client=client, limit=5)
                assert isinstance(page, LegalActions)
                # ``resign`` is listed (last) for every seat still in: a seat that may move has more
                assert page.total >= 1
                assert (page.total > 1) == (seat in view.active_seats)
        seat = view.active_seats[0]
        page = get_legal_actions.sync(game_id, client=seats[seat], limit=300)
        assert isinstance(page, LegalActions) and page.actions, page
        claims = [a for a in page.actions if isinstance(a, ClaimRoute)]
        action = (claims or page.actions)[0]
        key = f"{game_id}-{view.version}-{seat}"
        done = post_action.sync(game_id, client=seats[seat], body=action, idempotency_key=key)
        assert isinstance(done, ActionResult) and not done.replayed, done
        if step % ALL_SEATS_EVERY == 0:
            # A retry after a lost answer: the same key and body get the first answer again.
            again = post_action.sync(game_id, client=seats[seat], body=action, idempotency_key=key)
            assert isinstance(again, ActionResult) and again.replayed and again.version == done.version
    raise AssertionError(f"game {game_id} did not finish in {MAX_ACTIONS} actions")


def check_the_record(base: str, game_id: str, final: TtrSfView | CableCarView) -> None:
    """Events (a page and a few streamed), the export as JSON and NDJSON, the audit."""
    spectator = _spectator(base)
    page = list_events.sync(game_id, client=spectator, limit=3)  # type: ignore[arg-type]
    assert isinstance(page, EventsPage) and [e.seq for e in page.events] == [1, 2, 3]
    following = list_events.sync(game_id, client=spectator, cursor=page.next_cursor, limit=2)  # type: ignore[arg-type]
    assert isinstance(following, EventsPage) and [e.seq for e in following.events] == [4, 5]

    # The stream of a finished game ends by itself: its body is text, one SSE message after another.
    stream = stream_events.sync(game_id, client=spectator, after=final.version - 3)  # type: ignore[arg-type]
    assert isinstance(stream, str)
    messages = [m for m in stream.split("\n\n") if "data:" in m]
    seqs = [json.loads(m.split("data: ", 1)[1])["seq"] for m in messages if "event: end" not in m]
    assert seqs == [final.version - 2, final.version - 1, final.version]
    assert "event: end" in messages[-1]

    record = export_game.sync(game_id, client=spectator)
    assert isinstance(record, Export) and len(record.events) == final.version
    assert isinstance(record.result, TtrSfResult if isinstance(final, TtrSfView) else CableCarResult)
    assert record.result.winners == final.result.winners  # type: ignore[union-attr]
    ndjson = export_game_ndjson.sync(game_id, client=spectator)  # a File: NDJSON is bytes to a client
    assert isinstance(ndjson, File)
    kinds = [json.loads(line)["kind"] for line in ndjson.payload.read().decode().splitlines()]
    assert kinds == ["header"] + ["event"] * final.version

    audit = audit_game.sync(game_id, client=spectator)
    assert isinstance(audit, Audit) and audit.ok, audit


def test_the_game_types_come_typed(live_server: str) -> None:
    types = list_game_types.sync(client=_spectator(live_server))
    assert isinstance(types, GameTypes)
    assert {t.type_: (t.min_players, t.max_players) for t in types.types} == {"ttr-sf": (2, 4), "cable-car": (2, 6)}


@pytest.mark.parametrize("game_type", ["ttr-sf", "cable-car"])
def test_a_whole_game_through_the_generated_client(live_server: str, game_type: str) -> None:
    players = [PlayerIn(name="Ada"), PlayerIn(name="Bo")]
    body = (CreateTtrSfGame(type_="ttr-sf", players=players, seed="client-ttr") if game_type == "ttr-sf"
            else CreateCableCarGame(type_="cable-car", players=players, seed="client-cable"))
    # Creating needs no token; the operation also takes an organiser's, hence its client type.
    key = f"create-{uuid.uuid4()}"
    created = create_game.sync(client=_spectator(live_server), body=body, idempotency_key=key)  # type: ignore[arg-type]
    assert isinstance(created, GameCreated) and created.type_ == game_type
    # a retry of the creation (its answer lost) gets the same game and tokens
    again = create_game.sync(client=_spectator(live_server), body=body, idempotency_key=key)  # type: ignore[arg-type]
    assert isinstance(again, GameCreated) and again.to_dict() == created.to_dict()
    final = play_to_the_end(live_server, created.id, {s.seat: s.token for s in created.seats})
    assert isinstance(final, TtrSfView if game_type == "ttr-sf" else CableCarView)
    assert final.result is not None and final.result is not UNSET
    check_the_record(live_server, created.id, final)


def test_a_batch_and_its_results_as_json_and_csv(live_server: str) -> None:
    organiser = create_organiser.sync(client=_spectator(live_server), body=CreateOrganiser(name="Client Cup"))
    assert isinstance(organiser, OrganiserCreated)
    org = _as(live_server, organiser.token)
    tables = [TtrSfTable(players=[PlayerIn(name="Cy"), PlayerIn(name="Di")], seed="client-batch")]
    body = CreateTtrSfBatch(type_="ttr-sf", tables=tables, name="Round 1")
    batch = create_batch.sync(client=org, body=body, idempotency_key="round-1")
    assert isinstance(batch, BatchCreated) and len(batch.games) == 1
    retried = create_batch.sync(client=org, body=body, idempotency_key="round-1")
    assert isinstance(retried, BatchCreated) and retried.to_dict() == batch.to_dict()
    other = create_batch.sync(client=org, body=CreateTtrSfBatch(type_="ttr-sf", tables=tables, name="Round 2"),
                              idempotency_key="round-1")
    assert isinstance(other, Problem) and other.code == "idempotency_key_reused"
    game = batch.games[0]
    final = play_to_the_end(live_server, game.id, {s.seat: s.token for s in game.seats})

    results = get_batch_results.sync(batch.id, client=org)
    assert isinstance(results, BatchResults) and results.finished
    table = results.tables[0]
    assert table.game_id == game.id and table.winners == final.result.winners  # type: ignore[union-attr]
    ranked = {p.seat: (p.score, p.rank, p.winner) for p in table.players}

    text = get_batch_results_csv.sync(batch.id, client=org)
    assert isinstance(text, str)
    rows = list(csv.DictReader(io.StringIO(text)))
    assert {int(r["seat"]): (int(r["score"]), int(r["rank"]), r["winner"] == "true") for r in rows} == ranked

    # A refusal is a typed problem too (and its code an open string: a new code cannot break parsing).
    stranger = get_batch_results.sync(batch.id, client=_as(live_server, game.seats[0].token))
    assert isinstance(stranger, Problem) and stranger.status == 403 and stranger.code == "forbidden"


def test_problems_parse_whatever_their_code(live_server: str) -> None:
    """``code`` is an open string: an answer with a code this client never
    heard of still parses (a closed enum would raise)."""
    known: dict[str, Any] = {"type": "https://cablecar.dev/errors/x", "title": "t", "status": 418,
                             "code": "a_code_from_the_future", "detail": "d"}
    assert Problem.from_dict(known).code == "a_code_from_the_future"
