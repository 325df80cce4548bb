from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.stream_ticket import StreamTicket
from typing import cast



def _get_kwargs(
    id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/games/{id}/stream-tickets".format(id=quote(str(id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | StreamTicket | None:
    if response.status_code == 201:
        response_201 = StreamTicket.from_dict(response.json())



        return response_201

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

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())



        return response_413

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | StreamTicket]:
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

) -> Response[Problem | StreamTicket]:
    """ A single-use ticket opening the seat's event stream (seat token only)

     A browser's `EventSource` cannot send an `Authorization` header, so a seat's page asks here, with
    its seat
    token, for a ticket and opens `GET /v1/games/{id}/events/stream?ticket=...`. The ticket opens that
    seat's
    stream once, within 60 s at most (`expires_at`), and only while the seat token that asked for it is
    the
    seat's: once that token is rotated away the ticket is refused, and a stream it opened ends. Ask for
    a new
    ticket on each reconnection. Only a seat token may ask (a host or organiser token is `403
    forbidden`, no
    token `401 unauthorized`). There is no body. The server keeps only a keyed hash of the ticket and
    never
    writes a ticket to its logs.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StreamTicket]
     """


    kwargs = _get_kwargs(
        id=id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,

) -> Problem | StreamTicket | None:
    """ A single-use ticket opening the seat's event stream (seat token only)

     A browser's `EventSource` cannot send an `Authorization` header, so a seat's page asks here, with
    its seat
    token, for a ticket and opens `GET /v1/games/{id}/events/stream?ticket=...`. The ticket opens that
    seat's
    stream once, within 60 s at most (`expires_at`), and only while the seat token that asked for it is
    the
    seat's: once that token is rotated away the ticket is refused, and a stream it opened ends. Ask for
    a new
    ticket on each reconnection. Only a seat token may ask (a host or organiser token is `403
    forbidden`, no
    token `401 unauthorized`). There is no body. The server keeps only a keyed hash of the ticket and
    never
    writes a ticket to its logs.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StreamTicket
     """


    return sync_detailed(
        id=id,
client=client,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,

) -> Response[Problem | StreamTicket]:
    """ A single-use ticket opening the seat's event stream (seat token only)

     A browser's `EventSource` cannot send an `Authorization` header, so a seat's page asks here, with
    its seat
    token, for a ticket and opens `GET /v1/games/{id}/events/stream?ticket=...`. The ticket opens that
    seat's
    stream once, within 60 s at most (`expires_at`), and only while the seat token that asked for it is
    the
    seat's: once that token is rotated away the ticket is refused, and a stream it opened ends. Ask for
    a new
    ticket on each reconnection. Only a seat token may ask (a host or organiser token is `403
    forbidden`, no
    token `401 unauthorized`). There is no body. The server keeps only a keyed hash of the ticket and
    never
    writes a ticket to its logs.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | StreamTicket]
     """


    kwargs = _get_kwargs(
        id=id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,

) -> Problem | StreamTicket | None:
    """ A single-use ticket opening the seat's event stream (seat token only)

     A browser's `EventSource` cannot send an `Authorization` header, so a seat's page asks here, with
    its seat
    token, for a ticket and opens `GET /v1/games/{id}/events/stream?ticket=...`. The ticket opens that
    seat's
    stream once, within 60 s at most (`expires_at`), and only while the seat token that asked for it is
    the
    seat's: once that token is rotated away the ticket is refused, and a stream it opened ends. Ask for
    a new
    ticket on each reconnection. Only a seat token may ask (a host or organiser token is `403
    forbidden`, no
    token `401 unauthorized`). There is no body. The server keeps only a keyed hash of the ticket and
    never
    writes a ticket to its logs.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | StreamTicket
     """


    return (await asyncio_detailed(
        id=id,
client=client,

    )).parsed
