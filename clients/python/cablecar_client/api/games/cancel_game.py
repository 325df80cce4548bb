from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.cable_car_view import CableCarView
from ...models.empty_body import EmptyBody
from ...models.problem import Problem
from ...models.ttr_sf_view import TtrSfView
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    body: EmptyBody | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/games/{id}/cancel".format(id=quote(str(id), safe=""),),
    }

    
    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> CableCarView | TtrSfView | Problem | None:
    if response.status_code == 200:
        def _parse_response_200(data: object) -> CableCarView | TtrSfView:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_game_view_type_0 = TtrSfView.from_dict(data)



                return componentsschemas_game_view_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_game_view_type_1 = CableCarView.from_dict(data)



            return componentsschemas_game_view_type_1

        response_200 = _parse_response_200(response.json())

        return response_200

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[CableCarView | TtrSfView | Problem]:
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
    body: EmptyBody | Unset = UNSET,

) -> Response[CableCarView | TtrSfView | Problem]:
    """ End the game with no result (host token only)

     The host ends the game before its end, during setup or play: the server appends `game_cancelled`
    (payload
    `{}`, envelope `seat` `null`). The game's `status` becomes `cancelled`, `result` is `null`, no seat
    wins or
    ranks, and no further action, timeout or cancel is accepted. Like a finished game, a cancelled one
    is over:
    its views and event log hide nothing, it can be exported and audited, and a batch counts it as done.
    The
    organiser's webhooks get `game.cancelled` (no `game.finished`).

    Only the game's **host token** may do this: no token (or a malformed or wrong one) is
    `401 unauthorized`; a seat token of the game, an organiser token, or a token of another game is
    `403 forbidden`. The body is optional: none, or `{}`. A game that is already over (finished, or
    cancelled
    before) is `409 game_finished` and nothing is written.

    The answer is the game as a spectator sees it after the cancel, with `ETag` its version.

    Args:
        id (str):
        body (EmptyBody | Unset): An empty request body, `{}`, for an operation that takes no
            fields (sending none is the same).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CableCarView | TtrSfView | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    body: EmptyBody | Unset = UNSET,

) -> CableCarView | TtrSfView | Problem | None:
    """ End the game with no result (host token only)

     The host ends the game before its end, during setup or play: the server appends `game_cancelled`
    (payload
    `{}`, envelope `seat` `null`). The game's `status` becomes `cancelled`, `result` is `null`, no seat
    wins or
    ranks, and no further action, timeout or cancel is accepted. Like a finished game, a cancelled one
    is over:
    its views and event log hide nothing, it can be exported and audited, and a batch counts it as done.
    The
    organiser's webhooks get `game.cancelled` (no `game.finished`).

    Only the game's **host token** may do this: no token (or a malformed or wrong one) is
    `401 unauthorized`; a seat token of the game, an organiser token, or a token of another game is
    `403 forbidden`. The body is optional: none, or `{}`. A game that is already over (finished, or
    cancelled
    before) is `409 game_finished` and nothing is written.

    The answer is the game as a spectator sees it after the cancel, with `ETag` its version.

    Args:
        id (str):
        body (EmptyBody | Unset): An empty request body, `{}`, for an operation that takes no
            fields (sending none is the same).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CableCarView | TtrSfView | Problem
     """


    return sync_detailed(
        id=id,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    body: EmptyBody | Unset = UNSET,

) -> Response[CableCarView | TtrSfView | Problem]:
    """ End the game with no result (host token only)

     The host ends the game before its end, during setup or play: the server appends `game_cancelled`
    (payload
    `{}`, envelope `seat` `null`). The game's `status` becomes `cancelled`, `result` is `null`, no seat
    wins or
    ranks, and no further action, timeout or cancel is accepted. Like a finished game, a cancelled one
    is over:
    its views and event log hide nothing, it can be exported and audited, and a batch counts it as done.
    The
    organiser's webhooks get `game.cancelled` (no `game.finished`).

    Only the game's **host token** may do this: no token (or a malformed or wrong one) is
    `401 unauthorized`; a seat token of the game, an organiser token, or a token of another game is
    `403 forbidden`. The body is optional: none, or `{}`. A game that is already over (finished, or
    cancelled
    before) is `409 game_finished` and nothing is written.

    The answer is the game as a spectator sees it after the cancel, with `ETag` its version.

    Args:
        id (str):
        body (EmptyBody | Unset): An empty request body, `{}`, for an operation that takes no
            fields (sending none is the same).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[CableCarView | TtrSfView | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    body: EmptyBody | Unset = UNSET,

) -> CableCarView | TtrSfView | Problem | None:
    """ End the game with no result (host token only)

     The host ends the game before its end, during setup or play: the server appends `game_cancelled`
    (payload
    `{}`, envelope `seat` `null`). The game's `status` becomes `cancelled`, `result` is `null`, no seat
    wins or
    ranks, and no further action, timeout or cancel is accepted. Like a finished game, a cancelled one
    is over:
    its views and event log hide nothing, it can be exported and audited, and a batch counts it as done.
    The
    organiser's webhooks get `game.cancelled` (no `game.finished`).

    Only the game's **host token** may do this: no token (or a malformed or wrong one) is
    `401 unauthorized`; a seat token of the game, an organiser token, or a token of another game is
    `403 forbidden`. The body is optional: none, or `{}`. A game that is already over (finished, or
    cancelled
    before) is `409 game_finished` and nothing is written.

    The answer is the game as a spectator sees it after the cancel, with `ETag` its version.

    Args:
        id (str):
        body (EmptyBody | Unset): An empty request body, `{}`, for an operation that takes no
            fields (sending none is the same).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        CableCarView | TtrSfView | Problem
     """


    return (await asyncio_detailed(
        id=id,
client=client,
body=body,

    )).parsed
