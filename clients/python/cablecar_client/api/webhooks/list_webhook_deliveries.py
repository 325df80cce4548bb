from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.deliveries_page import DeliveriesPage
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    webhook_id: str,
    *,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["cursor"] = cursor


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/webhooks/{webhook_id}/deliveries".format(webhook_id=quote(str(webhook_id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> DeliveriesPage | Problem | None:
    if response.status_code == 200:
        response_200 = DeliveriesPage.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[DeliveriesPage | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> Response[DeliveriesPage | Problem]:
    """ The webhook's delivery log

     Newest first: each delivery's `state` (`pending`, `delivered`, `failed`), its attempts with the
    receiver's
    status codes (or the network error), when the next retry is due, and the body it sends. A failed
    attempt
    (non-2xx, timeout, refused connection) is retried after a delay that doubles each time; after the
    configured number of attempts the delivery is `failed`.

    Args:
        webhook_id (str):
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
        Response[DeliveriesPage | Problem]
     """


    kwargs = _get_kwargs(
        webhook_id=webhook_id,
limit=limit,
cursor=cursor,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> DeliveriesPage | Problem | None:
    """ The webhook's delivery log

     Newest first: each delivery's `state` (`pending`, `delivered`, `failed`), its attempts with the
    receiver's
    status codes (or the network error), when the next retry is due, and the body it sends. A failed
    attempt
    (non-2xx, timeout, refused connection) is retried after a delay that doubles each time; after the
    configured number of attempts the delivery is `failed`.

    Args:
        webhook_id (str):
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
        DeliveriesPage | Problem
     """


    return sync_detailed(
        webhook_id=webhook_id,
client=client,
limit=limit,
cursor=cursor,

    ).parsed

async def asyncio_detailed(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> Response[DeliveriesPage | Problem]:
    """ The webhook's delivery log

     Newest first: each delivery's `state` (`pending`, `delivered`, `failed`), its attempts with the
    receiver's
    status codes (or the network error), when the next retry is due, and the body it sends. A failed
    attempt
    (non-2xx, timeout, refused connection) is retried after a delay that doubles each time; after the
    configured number of attempts the delivery is `failed`.

    Args:
        webhook_id (str):
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
        Response[DeliveriesPage | Problem]
     """


    kwargs = _get_kwargs(
        webhook_id=webhook_id,
limit=limit,
cursor=cursor,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    webhook_id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> DeliveriesPage | Problem | None:
    """ The webhook's delivery log

     Newest first: each delivery's `state` (`pending`, `delivered`, `failed`), its attempts with the
    receiver's
    status codes (or the network error), when the next retry is due, and the body it sends. A failed
    attempt
    (non-2xx, timeout, refused connection) is retried after a delay that doubles each time; after the
    configured number of attempts the delivery is `failed`.

    Args:
        webhook_id (str):
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
        DeliveriesPage | Problem
     """


    return (await asyncio_detailed(
        webhook_id=webhook_id,
client=client,
limit=limit,
cursor=cursor,

    )).parsed
