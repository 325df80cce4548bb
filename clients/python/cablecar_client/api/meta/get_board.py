from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.cable_car_board import CableCarBoard
from ...models.game_type_id import GameTypeId
from ...models.problem import Problem
from ...models.ttr_sf_board import TtrSfBoard
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    type_: GameTypeId,
    *,
    if_none_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match



    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/boards/{type_}".format(type_=quote(str(type_), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | CableCarBoard | TtrSfBoard | Problem | None:
    if response.status_code == 200:
        def _parse_response_200(data: object) -> CableCarBoard | TtrSfBoard:
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_board_type_0 = TtrSfBoard.from_dict(data)



                return componentsschemas_board_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            if not isinstance(data, dict):
                raise TypeError()
            componentsschemas_board_type_1 = CableCarBoard.from_dict(data)



            return componentsschemas_board_type_1

        response_200 = _parse_response_200(response.json())

        return response_200

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | CableCarBoard | TtrSfBoard | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    type_: GameTypeId,
    *,
    client: AuthenticatedClient | Client,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | CableCarBoard | TtrSfBoard | Problem]:
    """ Static board data of a game type

     Everything static a client needs to draw the game: for `ttr-sf` the locations (with drawing
    coordinates),
    routes, tickets and score tables; for `cable-car` the grid, stops, lines with their terminals, tile
    types
    with their track segments, die faces and route cards.

    Args:
        type_ (GameTypeId): `ttr-sf`: Ticket to Ride San Francisco (2–4 players); `cable-car`: the
            cable-car tile game (2–6 players).
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | CableCarBoard | TtrSfBoard | Problem]
     """


    kwargs = _get_kwargs(
        type_=type_,
if_none_match=if_none_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    type_: GameTypeId,
    *,
    client: AuthenticatedClient | Client,
    if_none_match: str | Unset = UNSET,

) -> Any | CableCarBoard | TtrSfBoard | Problem | None:
    """ Static board data of a game type

     Everything static a client needs to draw the game: for `ttr-sf` the locations (with drawing
    coordinates),
    routes, tickets and score tables; for `cable-car` the grid, stops, lines with their terminals, tile
    types
    with their track segments, die faces and route cards.

    Args:
        type_ (GameTypeId): `ttr-sf`: Ticket to Ride San Francisco (2–4 players); `cable-car`: the
            cable-car tile game (2–6 players).
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | CableCarBoard | TtrSfBoard | Problem
     """


    return sync_detailed(
        type_=type_,
client=client,
if_none_match=if_none_match,

    ).parsed

async def asyncio_detailed(
    type_: GameTypeId,
    *,
    client: AuthenticatedClient | Client,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | CableCarBoard | TtrSfBoard | Problem]:
    """ Static board data of a game type

     Everything static a client needs to draw the game: for `ttr-sf` the locations (with drawing
    coordinates),
    routes, tickets and score tables; for `cable-car` the grid, stops, lines with their terminals, tile
    types
    with their track segments, die faces and route cards.

    Args:
        type_ (GameTypeId): `ttr-sf`: Ticket to Ride San Francisco (2–4 players); `cable-car`: the
            cable-car tile game (2–6 players).
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | CableCarBoard | TtrSfBoard | Problem]
     """


    kwargs = _get_kwargs(
        type_=type_,
if_none_match=if_none_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    type_: GameTypeId,
    *,
    client: AuthenticatedClient | Client,
    if_none_match: str | Unset = UNSET,

) -> Any | CableCarBoard | TtrSfBoard | Problem | None:
    """ Static board data of a game type

     Everything static a client needs to draw the game: for `ttr-sf` the locations (with drawing
    coordinates),
    routes, tickets and score tables; for `cable-car` the grid, stops, lines with their terminals, tile
    types
    with their track segments, die faces and route cards.

    Args:
        type_ (GameTypeId): `ttr-sf`: Ticket to Ride San Francisco (2–4 players); `cable-car`: the
            cable-car tile game (2–6 players).
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | CableCarBoard | TtrSfBoard | Problem
     """


    return (await asyncio_detailed(
        type_=type_,
client=client,
if_none_match=if_none_match,

    )).parsed
