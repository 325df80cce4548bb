from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.export import Export
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    accept: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(accept, Unset):
        headers["Accept"] = accept

    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match



    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/games/{id}/export".format(id=quote(str(id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | Export | Problem | None:
    if response.status_code == 200:
        response_200 = Export.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | Export | Problem]:
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
    accept: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | Export | Problem]:
    """ The complete record of a finished (or cancelled) game

     Once the game is over (finished, or cancelled by its host): every event unredacted with its full
    envelope
    and hash-chain links, the seed and salt behind `seed_commitment`, the result (`null` for a cancelled
    game),
    and the chain's head. Anybody can recompute the hash chain, check each event's `signature` against
    the keys of
    `GET /v1/keys` (a chain rebuilt without the server's private key fails there), check
    `sha256(salt + ":" + seed)` against the commitment, and replay the game with the published rules.

    The same record as newline-delimited JSON is `GET /v1/games/{id}/export.ndjson` (`ExportLine`s: a
    first
    line `{"kind": "header", …}`, everything but the events, then one `{"kind": "event", …}` line per
    event).
    This path declares one media type, JSON, so that generated clients type its answer as `Export`; for
    compatibility it still answers NDJSON to `Accept: application/x-ndjson`.

    Args:
        id (str):
        accept (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Export | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
accept=accept,
if_none_match=if_none_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    accept: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | Export | Problem | None:
    """ The complete record of a finished (or cancelled) game

     Once the game is over (finished, or cancelled by its host): every event unredacted with its full
    envelope
    and hash-chain links, the seed and salt behind `seed_commitment`, the result (`null` for a cancelled
    game),
    and the chain's head. Anybody can recompute the hash chain, check each event's `signature` against
    the keys of
    `GET /v1/keys` (a chain rebuilt without the server's private key fails there), check
    `sha256(salt + ":" + seed)` against the commitment, and replay the game with the published rules.

    The same record as newline-delimited JSON is `GET /v1/games/{id}/export.ndjson` (`ExportLine`s: a
    first
    line `{"kind": "header", …}`, everything but the events, then one `{"kind": "event", …}` line per
    event).
    This path declares one media type, JSON, so that generated clients type its answer as `Export`; for
    compatibility it still answers NDJSON to `Accept: application/x-ndjson`.

    Args:
        id (str):
        accept (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Export | Problem
     """


    return sync_detailed(
        id=id,
client=client,
accept=accept,
if_none_match=if_none_match,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    accept: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | Export | Problem]:
    """ The complete record of a finished (or cancelled) game

     Once the game is over (finished, or cancelled by its host): every event unredacted with its full
    envelope
    and hash-chain links, the seed and salt behind `seed_commitment`, the result (`null` for a cancelled
    game),
    and the chain's head. Anybody can recompute the hash chain, check each event's `signature` against
    the keys of
    `GET /v1/keys` (a chain rebuilt without the server's private key fails there), check
    `sha256(salt + ":" + seed)` against the commitment, and replay the game with the published rules.

    The same record as newline-delimited JSON is `GET /v1/games/{id}/export.ndjson` (`ExportLine`s: a
    first
    line `{"kind": "header", …}`, everything but the events, then one `{"kind": "event", …}` line per
    event).
    This path declares one media type, JSON, so that generated clients type its answer as `Export`; for
    compatibility it still answers NDJSON to `Accept: application/x-ndjson`.

    Args:
        id (str):
        accept (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | Export | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
accept=accept,
if_none_match=if_none_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,
    accept: str | Unset = UNSET,
    if_none_match: str | Unset = UNSET,

) -> Any | Export | Problem | None:
    """ The complete record of a finished (or cancelled) game

     Once the game is over (finished, or cancelled by its host): every event unredacted with its full
    envelope
    and hash-chain links, the seed and salt behind `seed_commitment`, the result (`null` for a cancelled
    game),
    and the chain's head. Anybody can recompute the hash chain, check each event's `signature` against
    the keys of
    `GET /v1/keys` (a chain rebuilt without the server's private key fails there), check
    `sha256(salt + ":" + seed)` against the commitment, and replay the game with the published rules.

    The same record as newline-delimited JSON is `GET /v1/games/{id}/export.ndjson` (`ExportLine`s: a
    first
    line `{"kind": "header", …}`, everything but the events, then one `{"kind": "event", …}` line per
    event).
    This path declares one media type, JSON, so that generated clients type its answer as `Export`; for
    compatibility it still answers NDJSON to `Accept: application/x-ndjson`.

    Args:
        id (str):
        accept (str | Unset):
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | Export | Problem
     """


    return (await asyncio_detailed(
        id=id,
client=client,
accept=accept,
if_none_match=if_none_match,

    )).parsed
