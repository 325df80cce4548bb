from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.log_inclusion import LogInclusion
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    tree_size: int | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["tree_size"] = tree_size


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/games/{id}/inclusion".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> LogInclusion | Problem | None:
    if response.status_code == 200:
        response_200 = LogInclusion.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 404:
        response_404 = Problem.from_dict(response.json())



        return response_404

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())



        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[LogInclusion | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    tree_size: int | Unset = UNSET,

) -> Response[LogInclusion | Problem]:
    """ The inclusion proof of a finished game in the transparency log

     Once the game is over (finished, or cancelled by its host), the inclusion proof (RFC 9162 §2.1.3) of
    its
    last event (`seq`, leaf `leaf_index`) in the tree of the published checkpoint of `tree_size`
    (default the
    latest): the hashes in `proof`, standard base64, deepest first. The leaf is SHA-256(0x00 ‖ the
    event's
    `hash` ‖ the export's `leaf_salt`), as raw bytes; the game's hash chain commits to every earlier
    event.
    `409 game_not_finished` while the game is played; `404 not_found` when that tree does not hold the
    game's
    last event yet (a checkpoint that does is published within seconds) or the size was never published.

    Args:
        id (str):
        tree_size (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LogInclusion | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
tree_size=tree_size,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    tree_size: int | Unset = UNSET,

) -> LogInclusion | Problem | None:
    """ The inclusion proof of a finished game in the transparency log

     Once the game is over (finished, or cancelled by its host), the inclusion proof (RFC 9162 §2.1.3) of
    its
    last event (`seq`, leaf `leaf_index`) in the tree of the published checkpoint of `tree_size`
    (default the
    latest): the hashes in `proof`, standard base64, deepest first. The leaf is SHA-256(0x00 ‖ the
    event's
    `hash` ‖ the export's `leaf_salt`), as raw bytes; the game's hash chain commits to every earlier
    event.
    `409 game_not_finished` while the game is played; `404 not_found` when that tree does not hold the
    game's
    last event yet (a checkpoint that does is published within seconds) or the size was never published.

    Args:
        id (str):
        tree_size (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LogInclusion | Problem
     """


    return sync_detailed(
        id=id,
client=client,
tree_size=tree_size,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    tree_size: int | Unset = UNSET,

) -> Response[LogInclusion | Problem]:
    """ The inclusion proof of a finished game in the transparency log

     Once the game is over (finished, or cancelled by its host), the inclusion proof (RFC 9162 §2.1.3) of
    its
    last event (`seq`, leaf `leaf_index`) in the tree of the published checkpoint of `tree_size`
    (default the
    latest): the hashes in `proof`, standard base64, deepest first. The leaf is SHA-256(0x00 ‖ the
    event's
    `hash` ‖ the export's `leaf_salt`), as raw bytes; the game's hash chain commits to every earlier
    event.
    `409 game_not_finished` while the game is played; `404 not_found` when that tree does not hold the
    game's
    last event yet (a checkpoint that does is published within seconds) or the size was never published.

    Args:
        id (str):
        tree_size (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LogInclusion | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
tree_size=tree_size,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    tree_size: int | Unset = UNSET,

) -> LogInclusion | Problem | None:
    """ The inclusion proof of a finished game in the transparency log

     Once the game is over (finished, or cancelled by its host), the inclusion proof (RFC 9162 §2.1.3) of
    its
    last event (`seq`, leaf `leaf_index`) in the tree of the published checkpoint of `tree_size`
    (default the
    latest): the hashes in `proof`, standard base64, deepest first. The leaf is SHA-256(0x00 ‖ the
    event's
    `hash` ‖ the export's `leaf_salt`), as raw bytes; the game's hash chain commits to every earlier
    event.
    `409 game_not_finished` while the game is played; `404 not_found` when that tree does not hold the
    game's
    last event yet (a checkpoint that does is published within seconds) or the size was never published.

    Args:
        id (str):
        tree_size (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LogInclusion | Problem
     """


    return (await asyncio_detailed(
        id=id,
client=client,
tree_size=tree_size,

    )).parsed
