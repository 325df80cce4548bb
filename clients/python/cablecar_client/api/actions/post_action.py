from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.action_result import ActionResult
from ...models.claim_route import ClaimRoute
from ...models.draw_card import DrawCard
from ...models.draw_tickets import DrawTickets
from ...models.draw_tile import DrawTile
from ...models.keep_tickets import KeepTickets
from ...models.lay_tiles import LayTiles
from ...models.place_souvenir_stack import PlaceSouvenirStack
from ...models.problem import Problem
from ...models.resign import Resign
from ...models.roll import Roll
from ...models.start_ride import StartRide
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    body: ClaimRoute | DrawCard | DrawTickets | DrawTile | KeepTickets | LayTiles | PlaceSouvenirStack | Resign | Roll | StartRide,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/games/{id}/actions".format(id=quote(str(id), safe=""),),
    }

    
    if isinstance(body, Resign):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, PlaceSouvenirStack):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, KeepTickets):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, DrawCard):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, ClaimRoute):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, DrawTickets):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, LayTiles):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, StartRide):
        _kwargs["json"] = body.to_dict()
    elif isinstance(body, Roll):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()


    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> ActionResult | Problem | None:
    if response.status_code == 201:
        response_201 = ActionResult.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 403:
        response_403 = Problem.from_dict(response.json())



        return response_403

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())



        return response_409

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())



        return response_422

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())



        return response_429

    if response.status_code == 503:
        response_503 = Problem.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[ActionResult | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: ClaimRoute | DrawCard | DrawTickets | DrawTile | KeepTickets | LayTiles | PlaceSouvenirStack | Resign | Roll | StartRide,
    idempotency_key: str | Unset = UNSET,

) -> Response[ActionResult | Problem]:
    """ Send one action for the caller's seat

     With a seat token: one action. The body is one of the action bodies of the game's type (the `type`
    field
    tells which), optionally with `expected_version`. An accepted action answers `201` with the new
    version and
    the events it wrote (redacted for the caller). A refused action writes nothing.

    `{"type": "resign"}` (both game types) gives up for the token's seat at any time before the end,
    also out
    of turn; it writes `seat_resigned` and what the forfeit rules make follow (ttr-sf: the default setup
    choices it owed, the turn passed on; when one seat is left in, `game_ended` with reason `forfeit`).
    See
    *Time controls, resignations and forfeits*. A seat that is already out gets `422 illegal_action`
    (`already_out`).

    A seat outside `active_seats` gets `409 not_your_turn`; a seat in it whose action the rules forbid
    now
    gets `422 illegal_action`. So during ttr-sf's setup a turn action (`draw_card`, `claim_route`,
    `draw_tickets`) is `422 illegal_action` (`setup_not_finished`) from a seat that still has a setup
    choice
    to make, and `409 not_your_turn` from a seat that has none left.

    In a timed game the timeouts already due are appended first; an action racing a timeout with
    `expected_version` gets `409 stale_version` if the timeout was first.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (ClaimRoute | DrawCard | DrawTickets | DrawTile | KeepTickets | LayTiles |
            PlaceSouvenirStack | Resign | Roll | StartRide): One action: a body of the game's own type
            (the `ttr-sf` actions on a `ttr-sf` game, the `cable-car` actions on a
            `cable-car` game; the game's `type` is in its view, `GameCreated` and listings). A body of
            the other
            game type's actions is `400 invalid_request` (the path does not name the game type, so the
            schema
            cannot refuse it). `type` names the action (one flat `oneOf` with one discriminator, which
            every client
            generator reads; `resign` is an action of both game types); every body may carry
            `expected_version`.
            `x-game-unions` names each game type's own union.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ActionResult | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    body: ClaimRoute | DrawCard | DrawTickets | DrawTile | KeepTickets | LayTiles | PlaceSouvenirStack | Resign | Roll | StartRide,
    idempotency_key: str | Unset = UNSET,

) -> ActionResult | Problem | None:
    """ Send one action for the caller's seat

     With a seat token: one action. The body is one of the action bodies of the game's type (the `type`
    field
    tells which), optionally with `expected_version`. An accepted action answers `201` with the new
    version and
    the events it wrote (redacted for the caller). A refused action writes nothing.

    `{"type": "resign"}` (both game types) gives up for the token's seat at any time before the end,
    also out
    of turn; it writes `seat_resigned` and what the forfeit rules make follow (ttr-sf: the default setup
    choices it owed, the turn passed on; when one seat is left in, `game_ended` with reason `forfeit`).
    See
    *Time controls, resignations and forfeits*. A seat that is already out gets `422 illegal_action`
    (`already_out`).

    A seat outside `active_seats` gets `409 not_your_turn`; a seat in it whose action the rules forbid
    now
    gets `422 illegal_action`. So during ttr-sf's setup a turn action (`draw_card`, `claim_route`,
    `draw_tickets`) is `422 illegal_action` (`setup_not_finished`) from a seat that still has a setup
    choice
    to make, and `409 not_your_turn` from a seat that has none left.

    In a timed game the timeouts already due are appended first; an action racing a timeout with
    `expected_version` gets `409 stale_version` if the timeout was first.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (ClaimRoute | DrawCard | DrawTickets | DrawTile | KeepTickets | LayTiles |
            PlaceSouvenirStack | Resign | Roll | StartRide): One action: a body of the game's own type
            (the `ttr-sf` actions on a `ttr-sf` game, the `cable-car` actions on a
            `cable-car` game; the game's `type` is in its view, `GameCreated` and listings). A body of
            the other
            game type's actions is `400 invalid_request` (the path does not name the game type, so the
            schema
            cannot refuse it). `type` names the action (one flat `oneOf` with one discriminator, which
            every client
            generator reads; `resign` is an action of both game types); every body may carry
            `expected_version`.
            `x-game-unions` names each game type's own union.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ActionResult | Problem
     """


    return sync_detailed(
        id=id,
client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: ClaimRoute | DrawCard | DrawTickets | DrawTile | KeepTickets | LayTiles | PlaceSouvenirStack | Resign | Roll | StartRide,
    idempotency_key: str | Unset = UNSET,

) -> Response[ActionResult | Problem]:
    """ Send one action for the caller's seat

     With a seat token: one action. The body is one of the action bodies of the game's type (the `type`
    field
    tells which), optionally with `expected_version`. An accepted action answers `201` with the new
    version and
    the events it wrote (redacted for the caller). A refused action writes nothing.

    `{"type": "resign"}` (both game types) gives up for the token's seat at any time before the end,
    also out
    of turn; it writes `seat_resigned` and what the forfeit rules make follow (ttr-sf: the default setup
    choices it owed, the turn passed on; when one seat is left in, `game_ended` with reason `forfeit`).
    See
    *Time controls, resignations and forfeits*. A seat that is already out gets `422 illegal_action`
    (`already_out`).

    A seat outside `active_seats` gets `409 not_your_turn`; a seat in it whose action the rules forbid
    now
    gets `422 illegal_action`. So during ttr-sf's setup a turn action (`draw_card`, `claim_route`,
    `draw_tickets`) is `422 illegal_action` (`setup_not_finished`) from a seat that still has a setup
    choice
    to make, and `409 not_your_turn` from a seat that has none left.

    In a timed game the timeouts already due are appended first; an action racing a timeout with
    `expected_version` gets `409 stale_version` if the timeout was first.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (ClaimRoute | DrawCard | DrawTickets | DrawTile | KeepTickets | LayTiles |
            PlaceSouvenirStack | Resign | Roll | StartRide): One action: a body of the game's own type
            (the `ttr-sf` actions on a `ttr-sf` game, the `cable-car` actions on a
            `cable-car` game; the game's `type` is in its view, `GameCreated` and listings). A body of
            the other
            game type's actions is `400 invalid_request` (the path does not name the game type, so the
            schema
            cannot refuse it). `type` names the action (one flat `oneOf` with one discriminator, which
            every client
            generator reads; `resign` is an action of both game types); every body may carry
            `expected_version`.
            `x-game-unions` names each game type's own union.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[ActionResult | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: ClaimRoute | DrawCard | DrawTickets | DrawTile | KeepTickets | LayTiles | PlaceSouvenirStack | Resign | Roll | StartRide,
    idempotency_key: str | Unset = UNSET,

) -> ActionResult | Problem | None:
    """ Send one action for the caller's seat

     With a seat token: one action. The body is one of the action bodies of the game's type (the `type`
    field
    tells which), optionally with `expected_version`. An accepted action answers `201` with the new
    version and
    the events it wrote (redacted for the caller). A refused action writes nothing.

    `{"type": "resign"}` (both game types) gives up for the token's seat at any time before the end,
    also out
    of turn; it writes `seat_resigned` and what the forfeit rules make follow (ttr-sf: the default setup
    choices it owed, the turn passed on; when one seat is left in, `game_ended` with reason `forfeit`).
    See
    *Time controls, resignations and forfeits*. A seat that is already out gets `422 illegal_action`
    (`already_out`).

    A seat outside `active_seats` gets `409 not_your_turn`; a seat in it whose action the rules forbid
    now
    gets `422 illegal_action`. So during ttr-sf's setup a turn action (`draw_card`, `claim_route`,
    `draw_tickets`) is `422 illegal_action` (`setup_not_finished`) from a seat that still has a setup
    choice
    to make, and `409 not_your_turn` from a seat that has none left.

    In a timed game the timeouts already due are appended first; an action racing a timeout with
    `expected_version` gets `409 stale_version` if the timeout was first.

    Args:
        id (str):
        idempotency_key (str | Unset):
        body (ClaimRoute | DrawCard | DrawTickets | DrawTile | KeepTickets | LayTiles |
            PlaceSouvenirStack | Resign | Roll | StartRide): One action: a body of the game's own type
            (the `ttr-sf` actions on a `ttr-sf` game, the `cable-car` actions on a
            `cable-car` game; the game's `type` is in its view, `GameCreated` and listings). A body of
            the other
            game type's actions is `400 invalid_request` (the path does not name the game type, so the
            schema
            cannot refuse it). `type` names the action (one flat `oneOf` with one discriminator, which
            every client
            generator reads; `resign` is an action of both game types); every body may carry
            `expected_version`.
            `x-game-unions` names each game type's own union.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        ActionResult | Problem
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
