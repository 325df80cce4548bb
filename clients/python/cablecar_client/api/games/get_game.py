from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.cable_car_view import CableCarView
from ...models.problem import Problem
from ...models.ttr_sf_view import TtrSfView
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    at: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match



    

    params: dict[str, Any] = {}

    params["at"] = at


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/games/{id}".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | CableCarView | TtrSfView | Problem | None:
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

    if response.status_code == 304:
        response_304 = cast(Any, None)
        return response_304

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | CableCarView | TtrSfView | Problem]:
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
    at: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | CableCarView | TtrSfView | Problem]:
    """ The game as the caller may see it

     The view of the game at its current version, or right after event `at`. A spectator (no token) and
    the host
    see only public information; a seat token adds `me`, that seat's secrets. `ETag` is the version of
    the view:
    with a matching `If-None-Match` the answer is `304` without a body.

    The fields every view has are fixed (`GameViewCommon`); each game type adds its own (`TtrSfView`,
    `CableCarView`), told apart by `type`. Every view has `time_control`, `clocks` and `deadline` (see
    *Time
    controls, resignations and forfeits*) and each player's `standing`.

    Reading a timed game at its current version first appends the timeouts already due (the answer, and
    its
    `ETag`, is then the version after them); `?at=N` only replays.

    Args:
        id (str):
        at (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | CableCarView | TtrSfView | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
at=at,
if_none_match=if_none_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    at: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | CableCarView | TtrSfView | Problem | None:
    """ The game as the caller may see it

     The view of the game at its current version, or right after event `at`. A spectator (no token) and
    the host
    see only public information; a seat token adds `me`, that seat's secrets. `ETag` is the version of
    the view:
    with a matching `If-None-Match` the answer is `304` without a body.

    The fields every view has are fixed (`GameViewCommon`); each game type adds its own (`TtrSfView`,
    `CableCarView`), told apart by `type`. Every view has `time_control`, `clocks` and `deadline` (see
    *Time
    controls, resignations and forfeits*) and each player's `standing`.

    Reading a timed game at its current version first appends the timeouts already due (the answer, and
    its
    `ETag`, is then the version after them); `?at=N` only replays.

    Args:
        id (str):
        at (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | CableCarView | TtrSfView | Problem
     """


    return sync_detailed(
        id=id,
client=client,
at=at,
if_none_match=if_none_match,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    at: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | CableCarView | TtrSfView | Problem]:
    """ The game as the caller may see it

     The view of the game at its current version, or right after event `at`. A spectator (no token) and
    the host
    see only public information; a seat token adds `me`, that seat's secrets. `ETag` is the version of
    the view:
    with a matching `If-None-Match` the answer is `304` without a body.

    The fields every view has are fixed (`GameViewCommon`); each game type adds its own (`TtrSfView`,
    `CableCarView`), told apart by `type`. Every view has `time_control`, `clocks` and `deadline` (see
    *Time
    controls, resignations and forfeits*) and each player's `standing`.

    Reading a timed game at its current version first appends the timeouts already due (the answer, and
    its
    `ETag`, is then the version after them); `?at=N` only replays.

    Args:
        id (str):
        at (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | CableCarView | TtrSfView | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
at=at,
if_none_match=if_none_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    at: int | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | CableCarView | TtrSfView | Problem | None:
    """ The game as the caller may see it

     The view of the game at its current version, or right after event `at`. A spectator (no token) and
    the host
    see only public information; a seat token adds `me`, that seat's secrets. `ETag` is the version of
    the view:
    with a matching `If-None-Match` the answer is `304` without a body.

    The fields every view has are fixed (`GameViewCommon`); each game type adds its own (`TtrSfView`,
    `CableCarView`), told apart by `type`. Every view has `time_control`, `clocks` and `deadline` (see
    *Time
    controls, resignations and forfeits*) and each player's `standing`.

    Reading a timed game at its current version first appends the timeouts already due (the answer, and
    its
    `ETag`, is then the version after them); `?at=N` only replays.

    Args:
        id (str):
        at (int | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | CableCarView | TtrSfView | Problem
     """


    return (await asyncio_detailed(
        id=id,
client=client,
at=at,
if_none_match=if_none_match,

    )).parsed
