from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.events_page import EventsPage
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    cursor: str | Unset = UNSET,
    after: int | Unset = 0,
    limit: int | Unset = 100,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["cursor"] = cursor

    params["after"] = after

    params["limit"] = limit


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/games/{id}/events".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EventsPage | Problem | None:
    if response.status_code == 200:
        response_200 = EventsPage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[EventsPage | Problem]:
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
    cursor: str | Unset = UNSET,
    after: int | Unset = 0,
    limit: int | Unset = 100,

) -> Response[EventsPage | Problem]:
    """ The event log as the caller may see it

     The events after the `cursor` (from the first without one), ascending, at most `limit`. Other seats'
    secrets
    are redacted (set to `null`) until the game is over (finished or cancelled); then every payload is
    complete
    and carries its hash-chain links. Page on with `cursor=next_cursor` until `next_cursor` is `null`.
    (`after`
    and `next_after`, the event `seq` to continue after, still answer for older clients.) Reading a
    timed game
    first appends the timeouts already due.

    Args:
        id (str):
        cursor (str | Unset): An opaque page cursor: pass back the `next_cursor` of the previous
            page unchanged. The same rule on every
            list: a cursor this listing did not hand out is `400 invalid_request`; a legal-actions
            cursor handed out
            at an older version of the game is `409 stale_cursor` (the event log only grows, so its
            cursors stay
            good).
        after (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventsPage | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
cursor=cursor,
after=after,
limit=limit,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    after: int | Unset = 0,
    limit: int | Unset = 100,

) -> EventsPage | Problem | None:
    """ The event log as the caller may see it

     The events after the `cursor` (from the first without one), ascending, at most `limit`. Other seats'
    secrets
    are redacted (set to `null`) until the game is over (finished or cancelled); then every payload is
    complete
    and carries its hash-chain links. Page on with `cursor=next_cursor` until `next_cursor` is `null`.
    (`after`
    and `next_after`, the event `seq` to continue after, still answer for older clients.) Reading a
    timed game
    first appends the timeouts already due.

    Args:
        id (str):
        cursor (str | Unset): An opaque page cursor: pass back the `next_cursor` of the previous
            page unchanged. The same rule on every
            list: a cursor this listing did not hand out is `400 invalid_request`; a legal-actions
            cursor handed out
            at an older version of the game is `409 stale_cursor` (the event log only grows, so its
            cursors stay
            good).
        after (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventsPage | Problem
     """


    return sync_detailed(
        id=id,
client=client,
cursor=cursor,
after=after,
limit=limit,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    after: int | Unset = 0,
    limit: int | Unset = 100,

) -> Response[EventsPage | Problem]:
    """ The event log as the caller may see it

     The events after the `cursor` (from the first without one), ascending, at most `limit`. Other seats'
    secrets
    are redacted (set to `null`) until the game is over (finished or cancelled); then every payload is
    complete
    and carries its hash-chain links. Page on with `cursor=next_cursor` until `next_cursor` is `null`.
    (`after`
    and `next_after`, the event `seq` to continue after, still answer for older clients.) Reading a
    timed game
    first appends the timeouts already due.

    Args:
        id (str):
        cursor (str | Unset): An opaque page cursor: pass back the `next_cursor` of the previous
            page unchanged. The same rule on every
            list: a cursor this listing did not hand out is `400 invalid_request`; a legal-actions
            cursor handed out
            at an older version of the game is `409 stale_cursor` (the event log only grows, so its
            cursors stay
            good).
        after (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventsPage | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
cursor=cursor,
after=after,
limit=limit,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    cursor: str | Unset = UNSET,
    after: int | Unset = 0,
    limit: int | Unset = 100,

) -> EventsPage | Problem | None:
    """ The event log as the caller may see it

     The events after the `cursor` (from the first without one), ascending, at most `limit`. Other seats'
    secrets
    are redacted (set to `null`) until the game is over (finished or cancelled); then every payload is
    complete
    and carries its hash-chain links. Page on with `cursor=next_cursor` until `next_cursor` is `null`.
    (`after`
    and `next_after`, the event `seq` to continue after, still answer for older clients.) Reading a
    timed game
    first appends the timeouts already due.

    Args:
        id (str):
        cursor (str | Unset): An opaque page cursor: pass back the `next_cursor` of the previous
            page unchanged. The same rule on every
            list: a cursor this listing did not hand out is `400 invalid_request`; a legal-actions
            cursor handed out
            at an older version of the game is `409 stale_cursor` (the event log only grows, so its
            cursors stay
            good).
        after (int | Unset):  Default: 0.
        limit (int | Unset):  Default: 100.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventsPage | Problem
     """


    return (await asyncio_detailed(
        id=id,
client=client,
cursor=cursor,
after=after,
limit=limit,

    )).parsed
