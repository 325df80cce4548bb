from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.empty_body import EmptyBody
from ...models.problem import Problem
from ...models.seat_token_rotated import SeatTokenRotated
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    seat: int,
    *,
    body: EmptyBody | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}


    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/games/{id}/seats/{seat}/token".format(id=quote(str(id), safe=""),seat=quote(str(seat), safe=""),),
    }

    
    if not isinstance(body, Unset):
        _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | SeatTokenRotated | None:
    if response.status_code == 200:
        response_200 = SeatTokenRotated.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | SeatTokenRotated]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    seat: int,
    *,
    client: AuthenticatedClient,
    body: EmptyBody | Unset = UNSET,

) -> Response[Problem | SeatTokenRotated]:
    """ Give a seat a new token (host token only)

     Replaces a lost or leaked seat token: the answer holds the seat's new token (shown only here) and
    the old one
    stops working at once. Only the game's **host token** may do this (a seat token or an organiser
    token is
    `403 forbidden`, no token `401 unauthorized`). The body is optional: none, or `{}`. A finished
    game's tokens are not rotated
    (`409 game_finished`), nor a bot seat's (`422 invalid_config`, reason `bot_seat`). The rotation is
    an event
    of the game, `seat_token_rotated` (`{"seat"}`, signed like every event, no secret in it): the game's
    `version` goes up by one and its record shows who may act since when.

    Args:
        id (str):
        seat (int): A seat number, 0-based, in turn order.
        body (EmptyBody | Unset): An empty request body, `{}`, for an operation that takes no
            fields (sending none is the same).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SeatTokenRotated]
     """


    kwargs = _get_kwargs(
        id=id,
seat=seat,
body=body,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    seat: int,
    *,
    client: AuthenticatedClient,
    body: EmptyBody | Unset = UNSET,

) -> Problem | SeatTokenRotated | None:
    """ Give a seat a new token (host token only)

     Replaces a lost or leaked seat token: the answer holds the seat's new token (shown only here) and
    the old one
    stops working at once. Only the game's **host token** may do this (a seat token or an organiser
    token is
    `403 forbidden`, no token `401 unauthorized`). The body is optional: none, or `{}`. A finished
    game's tokens are not rotated
    (`409 game_finished`), nor a bot seat's (`422 invalid_config`, reason `bot_seat`). The rotation is
    an event
    of the game, `seat_token_rotated` (`{"seat"}`, signed like every event, no secret in it): the game's
    `version` goes up by one and its record shows who may act since when.

    Args:
        id (str):
        seat (int): A seat number, 0-based, in turn order.
        body (EmptyBody | Unset): An empty request body, `{}`, for an operation that takes no
            fields (sending none is the same).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SeatTokenRotated
     """


    return sync_detailed(
        id=id,
seat=seat,
client=client,
body=body,

    ).parsed

async def asyncio_detailed(
    id: str,
    seat: int,
    *,
    client: AuthenticatedClient,
    body: EmptyBody | Unset = UNSET,

) -> Response[Problem | SeatTokenRotated]:
    """ Give a seat a new token (host token only)

     Replaces a lost or leaked seat token: the answer holds the seat's new token (shown only here) and
    the old one
    stops working at once. Only the game's **host token** may do this (a seat token or an organiser
    token is
    `403 forbidden`, no token `401 unauthorized`). The body is optional: none, or `{}`. A finished
    game's tokens are not rotated
    (`409 game_finished`), nor a bot seat's (`422 invalid_config`, reason `bot_seat`). The rotation is
    an event
    of the game, `seat_token_rotated` (`{"seat"}`, signed like every event, no secret in it): the game's
    `version` goes up by one and its record shows who may act since when.

    Args:
        id (str):
        seat (int): A seat number, 0-based, in turn order.
        body (EmptyBody | Unset): An empty request body, `{}`, for an operation that takes no
            fields (sending none is the same).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SeatTokenRotated]
     """


    kwargs = _get_kwargs(
        id=id,
seat=seat,
body=body,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    seat: int,
    *,
    client: AuthenticatedClient,
    body: EmptyBody | Unset = UNSET,

) -> Problem | SeatTokenRotated | None:
    """ Give a seat a new token (host token only)

     Replaces a lost or leaked seat token: the answer holds the seat's new token (shown only here) and
    the old one
    stops working at once. Only the game's **host token** may do this (a seat token or an organiser
    token is
    `403 forbidden`, no token `401 unauthorized`). The body is optional: none, or `{}`. A finished
    game's tokens are not rotated
    (`409 game_finished`), nor a bot seat's (`422 invalid_config`, reason `bot_seat`). The rotation is
    an event
    of the game, `seat_token_rotated` (`{"seat"}`, signed like every event, no secret in it): the game's
    `version` goes up by one and its record shows who may act since when.

    Args:
        id (str):
        seat (int): A seat number, 0-based, in turn order.
        body (EmptyBody | Unset): An empty request body, `{}`, for an operation that takes no
            fields (sending none is the same).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SeatTokenRotated
     """


    return (await asyncio_detailed(
        id=id,
seat=seat,
client=client,
body=body,

    )).parsed
