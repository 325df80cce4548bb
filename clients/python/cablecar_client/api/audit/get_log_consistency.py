from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.log_consistency import LogConsistency
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    *,
    first: int,
    second: int,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["first"] = first

    params["second"] = second


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/log/consistency",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> LogConsistency | Problem | None:
    if response.status_code == 200:
        response_200 = LogConsistency.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[LogConsistency | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    first: int,
    second: int,

) -> Response[LogConsistency | Problem]:
    """ A consistency proof between two published checkpoints

     The consistency proof (RFC 9162 §2.1.4) that the tree of `first` leaves is a prefix of the tree of
    `second`
    leaves, both published checkpoints: the hashes in `proof`, standard base64, in the RFC's order
    (empty when
    the sizes are equal). `400 invalid_request` for a size that is not a positive integer or `first`
    larger
    than `second`; `404 not_found` for a size never published.

    Args:
        first (int):
        second (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LogConsistency | Problem]
     """


    kwargs = _get_kwargs(
        first=first,
second=second,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    first: int,
    second: int,

) -> LogConsistency | Problem | None:
    """ A consistency proof between two published checkpoints

     The consistency proof (RFC 9162 §2.1.4) that the tree of `first` leaves is a prefix of the tree of
    `second`
    leaves, both published checkpoints: the hashes in `proof`, standard base64, in the RFC's order
    (empty when
    the sizes are equal). `400 invalid_request` for a size that is not a positive integer or `first`
    larger
    than `second`; `404 not_found` for a size never published.

    Args:
        first (int):
        second (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LogConsistency | Problem
     """


    return sync_detailed(
        client=client,
first=first,
second=second,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    first: int,
    second: int,

) -> Response[LogConsistency | Problem]:
    """ A consistency proof between two published checkpoints

     The consistency proof (RFC 9162 §2.1.4) that the tree of `first` leaves is a prefix of the tree of
    `second`
    leaves, both published checkpoints: the hashes in `proof`, standard base64, in the RFC's order
    (empty when
    the sizes are equal). `400 invalid_request` for a size that is not a positive integer or `first`
    larger
    than `second`; `404 not_found` for a size never published.

    Args:
        first (int):
        second (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LogConsistency | Problem]
     """


    kwargs = _get_kwargs(
        first=first,
second=second,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    first: int,
    second: int,

) -> LogConsistency | Problem | None:
    """ A consistency proof between two published checkpoints

     The consistency proof (RFC 9162 §2.1.4) that the tree of `first` leaves is a prefix of the tree of
    `second`
    leaves, both published checkpoints: the hashes in `proof`, standard base64, in the RFC's order
    (empty when
    the sizes are equal). `400 invalid_request` for a size that is not a positive integer or `first`
    larger
    than `second`; `404 not_found` for a size never published.

    Args:
        first (int):
        second (int):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LogConsistency | Problem
     """


    return (await asyncio_detailed(
        client=client,
first=first,
second=second,

    )).parsed
