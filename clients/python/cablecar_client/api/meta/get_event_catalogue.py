from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.event_catalogue import EventCatalogue
from ...models.game_type_id import GameTypeId
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    type_: GameTypeId,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/game-types/{type_}/events".format(type_=quote(str(type_), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> EventCatalogue | Problem | None:
    if response.status_code == 200:
        response_200 = EventCatalogue.from_dict(response.json())



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

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[EventCatalogue | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    type_: GameTypeId,
    *,
    client: AuthenticatedClient | Client,

) -> Response[EventCatalogue | Problem]:
    """ The event catalogue of a game type

     Every event type and schema version this server writes or reads for the game type, each with the
    JSON
    Schema (2020-12) of its `payload` as exported (unredacted: `GET /v1/games/{id}/export`) and
    `redacted_fields`: the payload fields shown as `null` to a caller who may not see them (in the event
    log,
    the stream and action answers) until the game ends or the secret is revealed. `name[]` means the
    entries of a per-seat list: another seat's entry is `null`. Derived from the game definitions, like
    the action bodies of `GET /v1/game-types`; the examples below are the whole catalogues of this
    release.
    An event of a schema version older than the newest is read as stored (the export keeps it byte for
    byte); a replayer lifts it as the version history says (`docs/rules/versions.md`).

    Args:
        type_ (GameTypeId): `ttr-sf`: Ticket to Ride San Francisco (2–4 players); `cable-car`: the
            cable-car tile game (2–6 players).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventCatalogue | Problem]
     """


    kwargs = _get_kwargs(
        type_=type_,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    type_: GameTypeId,
    *,
    client: AuthenticatedClient | Client,

) -> EventCatalogue | Problem | None:
    """ The event catalogue of a game type

     Every event type and schema version this server writes or reads for the game type, each with the
    JSON
    Schema (2020-12) of its `payload` as exported (unredacted: `GET /v1/games/{id}/export`) and
    `redacted_fields`: the payload fields shown as `null` to a caller who may not see them (in the event
    log,
    the stream and action answers) until the game ends or the secret is revealed. `name[]` means the
    entries of a per-seat list: another seat's entry is `null`. Derived from the game definitions, like
    the action bodies of `GET /v1/game-types`; the examples below are the whole catalogues of this
    release.
    An event of a schema version older than the newest is read as stored (the export keeps it byte for
    byte); a replayer lifts it as the version history says (`docs/rules/versions.md`).

    Args:
        type_ (GameTypeId): `ttr-sf`: Ticket to Ride San Francisco (2–4 players); `cable-car`: the
            cable-car tile game (2–6 players).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventCatalogue | Problem
     """


    return sync_detailed(
        type_=type_,
client=client,

    ).parsed

async def asyncio_detailed(
    type_: GameTypeId,
    *,
    client: AuthenticatedClient | Client,

) -> Response[EventCatalogue | Problem]:
    """ The event catalogue of a game type

     Every event type and schema version this server writes or reads for the game type, each with the
    JSON
    Schema (2020-12) of its `payload` as exported (unredacted: `GET /v1/games/{id}/export`) and
    `redacted_fields`: the payload fields shown as `null` to a caller who may not see them (in the event
    log,
    the stream and action answers) until the game ends or the secret is revealed. `name[]` means the
    entries of a per-seat list: another seat's entry is `null`. Derived from the game definitions, like
    the action bodies of `GET /v1/game-types`; the examples below are the whole catalogues of this
    release.
    An event of a schema version older than the newest is read as stored (the export keeps it byte for
    byte); a replayer lifts it as the version history says (`docs/rules/versions.md`).

    Args:
        type_ (GameTypeId): `ttr-sf`: Ticket to Ride San Francisco (2–4 players); `cable-car`: the
            cable-car tile game (2–6 players).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[EventCatalogue | Problem]
     """


    kwargs = _get_kwargs(
        type_=type_,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    type_: GameTypeId,
    *,
    client: AuthenticatedClient | Client,

) -> EventCatalogue | Problem | None:
    """ The event catalogue of a game type

     Every event type and schema version this server writes or reads for the game type, each with the
    JSON
    Schema (2020-12) of its `payload` as exported (unredacted: `GET /v1/games/{id}/export`) and
    `redacted_fields`: the payload fields shown as `null` to a caller who may not see them (in the event
    log,
    the stream and action answers) until the game ends or the secret is revealed. `name[]` means the
    entries of a per-seat list: another seat's entry is `null`. Derived from the game definitions, like
    the action bodies of `GET /v1/game-types`; the examples below are the whole catalogues of this
    release.
    An event of a schema version older than the newest is read as stored (the export keeps it byte for
    byte); a replayer lifts it as the version history says (`docs/rules/versions.md`).

    Args:
        type_ (GameTypeId): `ttr-sf`: Ticket to Ride San Francisco (2–4 players); `cable-car`: the
            cable-car tile game (2–6 players).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        EventCatalogue | Problem
     """


    return (await asyncio_detailed(
        type_=type_,
client=client,

    )).parsed
