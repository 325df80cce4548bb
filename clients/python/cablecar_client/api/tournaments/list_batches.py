from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.batches_page import BatchesPage
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    ref_prefix: str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["ref_prefix"] = ref_prefix

    params["limit"] = limit

    params["cursor"] = cursor


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/batches",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> BatchesPage | Problem | None:
    if response.status_code == 200:
        response_200 = BatchesPage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[BatchesPage | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    ref_prefix: str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> Response[BatchesPage | Problem]:
    """ The organiser's batches, newest first

     Pass `next_cursor` back as `cursor` for the next page; it is `null` on the last page. `ref_prefix`
    keeps the
    batches whose `ref` starts with it: with refs like `event-77/round-1`, `?ref_prefix=event-77/` lists
    that
    event's rounds.

    Args:
        ref_prefix (str | Unset):
        limit (int | Unset):  Default: 50.
        cursor (str | Unset): An opaque page cursor: pass back the `next_cursor` of the previous
            page unchanged. The same rule on every
            list: a cursor this listing did not hand out is `400 invalid_request`; a legal-actions
            cursor handed out
            at an older version of the game is `409 stale_cursor` (the event log only grows, so its
            cursors stay
            good).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchesPage | Problem]
     """


    kwargs = _get_kwargs(
        ref_prefix=ref_prefix,
limit=limit,
cursor=cursor,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    ref_prefix: str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> BatchesPage | Problem | None:
    """ The organiser's batches, newest first

     Pass `next_cursor` back as `cursor` for the next page; it is `null` on the last page. `ref_prefix`
    keeps the
    batches whose `ref` starts with it: with refs like `event-77/round-1`, `?ref_prefix=event-77/` lists
    that
    event's rounds.

    Args:
        ref_prefix (str | Unset):
        limit (int | Unset):  Default: 50.
        cursor (str | Unset): An opaque page cursor: pass back the `next_cursor` of the previous
            page unchanged. The same rule on every
            list: a cursor this listing did not hand out is `400 invalid_request`; a legal-actions
            cursor handed out
            at an older version of the game is `409 stale_cursor` (the event log only grows, so its
            cursors stay
            good).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchesPage | Problem
     """


    return sync_detailed(
        client=client,
ref_prefix=ref_prefix,
limit=limit,
cursor=cursor,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    ref_prefix: str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> Response[BatchesPage | Problem]:
    """ The organiser's batches, newest first

     Pass `next_cursor` back as `cursor` for the next page; it is `null` on the last page. `ref_prefix`
    keeps the
    batches whose `ref` starts with it: with refs like `event-77/round-1`, `?ref_prefix=event-77/` lists
    that
    event's rounds.

    Args:
        ref_prefix (str | Unset):
        limit (int | Unset):  Default: 50.
        cursor (str | Unset): An opaque page cursor: pass back the `next_cursor` of the previous
            page unchanged. The same rule on every
            list: a cursor this listing did not hand out is `400 invalid_request`; a legal-actions
            cursor handed out
            at an older version of the game is `409 stale_cursor` (the event log only grows, so its
            cursors stay
            good).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchesPage | Problem]
     """


    kwargs = _get_kwargs(
        ref_prefix=ref_prefix,
limit=limit,
cursor=cursor,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    ref_prefix: str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> BatchesPage | Problem | None:
    """ The organiser's batches, newest first

     Pass `next_cursor` back as `cursor` for the next page; it is `null` on the last page. `ref_prefix`
    keeps the
    batches whose `ref` starts with it: with refs like `event-77/round-1`, `?ref_prefix=event-77/` lists
    that
    event's rounds.

    Args:
        ref_prefix (str | Unset):
        limit (int | Unset):  Default: 50.
        cursor (str | Unset): An opaque page cursor: pass back the `next_cursor` of the previous
            page unchanged. The same rule on every
            list: a cursor this listing did not hand out is `400 invalid_request`; a legal-actions
            cursor handed out
            at an older version of the game is `409 stale_cursor` (the event log only grows, so its
            cursors stay
            good).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchesPage | Problem
     """


    return (await asyncio_detailed(
        client=client,
ref_prefix=ref_prefix,
limit=limit,
cursor=cursor,

    )).parsed
