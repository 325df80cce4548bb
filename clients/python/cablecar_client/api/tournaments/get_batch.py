from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.batch import Batch
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    batch_id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/batches/{batch_id}".format(batch_id=quote(str(batch_id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Batch | Problem | None:
    if response.status_code == 200:
        response_200 = Batch.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Batch | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    batch_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[Batch | Problem]:
    """ A batch's games and how far each is

     With the organiser token that created the batch. Games are in table order, each with its stored
    status (a
    timeout that is due shows once the sweeper, or a read of that game, has appended it). `finished` is
    true
    once every game is over (finished or cancelled). A damaged game (see `409 game_damaged`) has the
    status its
    view gives (the game before its first bad event) and `damaged_from`; it never blocks the batch:
    starting or
    cancelling the batch leaves it as it is and acts on the others.

    Args:
        batch_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Batch | Problem]
     """


    kwargs = _get_kwargs(
        batch_id=batch_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    batch_id: str,
    *,
    client: AuthenticatedClient,

) -> Batch | Problem | None:
    """ A batch's games and how far each is

     With the organiser token that created the batch. Games are in table order, each with its stored
    status (a
    timeout that is due shows once the sweeper, or a read of that game, has appended it). `finished` is
    true
    once every game is over (finished or cancelled). A damaged game (see `409 game_damaged`) has the
    status its
    view gives (the game before its first bad event) and `damaged_from`; it never blocks the batch:
    starting or
    cancelling the batch leaves it as it is and acts on the others.

    Args:
        batch_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Batch | Problem
     """


    return sync_detailed(
        batch_id=batch_id,
client=client,

    ).parsed

async def asyncio_detailed(
    batch_id: str,
    *,
    client: AuthenticatedClient,

) -> Response[Batch | Problem]:
    """ A batch's games and how far each is

     With the organiser token that created the batch. Games are in table order, each with its stored
    status (a
    timeout that is due shows once the sweeper, or a read of that game, has appended it). `finished` is
    true
    once every game is over (finished or cancelled). A damaged game (see `409 game_damaged`) has the
    status its
    view gives (the game before its first bad event) and `damaged_from`; it never blocks the batch:
    starting or
    cancelling the batch leaves it as it is and acts on the others.

    Args:
        batch_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Batch | Problem]
     """


    kwargs = _get_kwargs(
        batch_id=batch_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    batch_id: str,
    *,
    client: AuthenticatedClient,

) -> Batch | Problem | None:
    """ A batch's games and how far each is

     With the organiser token that created the batch. Games are in table order, each with its stored
    status (a
    timeout that is due shows once the sweeper, or a read of that game, has appended it). `finished` is
    true
    once every game is over (finished or cancelled). A damaged game (see `409 game_damaged`) has the
    status its
    view gives (the game before its first bad event) and `damaged_from`; it never blocks the batch:
    starting or
    cancelling the batch leaves it as it is and acts on the others.

    Args:
        batch_id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Batch | Problem
     """


    return (await asyncio_detailed(
        batch_id=batch_id,
client=client,

    )).parsed
