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
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    type_: GameTypeId,
    *,
    if_none_match: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(if_none_match, Unset):
        headers["If-None-Match"] = if_none_match



    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/game-types/{type_}/events".format(type_=quote(str(type_), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Any | EventCatalogue | Problem | None:
    if response.status_code == 200:
        response_200 = EventCatalogue.from_dict(response.json())



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

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Any | EventCatalogue | Problem]:
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
    if_none_match: str | Unset = UNSET,

) -> Response[Any | EventCatalogue | Problem]:
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
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | EventCatalogue | Problem]
     """


    kwargs = _get_kwargs(
        type_=type_,
if_none_match=if_none_match,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    type_: GameTypeId,
    *,
    client: AuthenticatedClient | Client,
    if_none_match: str | Unset = UNSET,

) -> Any | EventCatalogue | Problem | None:
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
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | EventCatalogue | Problem
     """


    return sync_detailed(
        type_=type_,
client=client,
if_none_match=if_none_match,

    ).parsed

async def asyncio_detailed(
    type_: GameTypeId,
    *,
    client: AuthenticatedClient | Client,
    if_none_match: str | Unset = UNSET,

) -> Response[Any | EventCatalogue | Problem]:
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
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Any | EventCatalogue | Problem]
     """


    kwargs = _get_kwargs(
        type_=type_,
if_none_match=if_none_match,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    type_: GameTypeId,
    *,
    client: AuthenticatedClient | Client,
    if_none_match: str | Unset = UNSET,

) -> Any | EventCatalogue | Problem | None:
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
        if_none_match (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Any | EventCatalogue | Problem
     """


    return (await asyncio_detailed(
        type_=type_,
client=client,
if_none_match=if_none_match,

    )).parsed
