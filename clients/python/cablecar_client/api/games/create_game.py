from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.create_cable_car_game import CreateCableCarGame
from ...models.create_ttr_sf_game import CreateTtrSfGame
from ...models.game_created import GameCreated
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: CreateCableCarGame | CreateTtrSfGame,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/games",
    }

    
    if isinstance(body, CreateTtrSfGame):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()


    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> GameCreated | Problem | None:
    if response.status_code == 201:
        response_201 = GameCreated.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 401:
        response_401 = Problem.from_dict(response.json())



        return response_401

    if response.status_code == 413:
        response_413 = Problem.from_dict(response.json())



        return response_413

    if response.status_code == 415:
        response_415 = Problem.from_dict(response.json())



        return response_415

    if response.status_code == 422:
        response_422 = Problem.from_dict(response.json())



        return response_422

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[GameCreated | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateCableCarGame | CreateTtrSfGame,
    idempotency_key: str | Unset = UNSET,

) -> Response[GameCreated | Problem]:
    """ Create and start a game

     Sets the game up (shuffles, deals) and stores its opening events. The answer holds the seat tokens
    and the
    host token: they are shown only here. `seed_commitment` is `sha256(salt + ":" + seed)`; the seed and
    salt are
    revealed by the export once the game is finished, so anybody can check the shuffles were fixed in
    advance.
    The deal always mixes a random server secret (revealed by the export) into the seed: a caller-chosen
    `seed`
    (`seed_source` is then `caller`) tags the game but is not enough to predict the deal. Only with
    `"open_deal": true` is the deal made from the caller's `seed` alone (reproducible by anyone who
    knows it);
    every view, listing and export then shows `open_deal: true`.

    `time_control` sets the game's deadlines (see *Time controls, resignations and forfeits*): omitted
    or `null`
    it is `{"kind": "none"}`. A `time_control` that is not an object is `400 invalid_request`; an
    unknown
    `kind`, a missing or unknown field, a time that is not a whole number of seconds or out of range (1
    s to
    7 days; an increment 0 s to 7 days) is `422 invalid_config` with `reason` `time_control`. Nothing is
    written then. A timed game's clocks start with its opening events. The answer echoes the
    `time_control`.

    No token is needed, unless the operator accepts new games from organisers only (`401 unauthorized`
    without an organiser token). Sent with an **organiser token**, the game becomes the organiser's: its
    webhooks cover it and the organiser reads it like a spectator (a wrong organiser token is
    `401 unauthorized`; other tokens are ignored and count as no token).

    Rate limited (see *Rate limits*): per client address without an organiser token, per organiser with
    one.

    Args:
        idempotency_key (str | Unset): 32–255 characters without an organiser token (`400
            idempotency_key_too_short` below 32), 1–255 with one.
        body (CreateCableCarGame | CreateTtrSfGame): A new game: `type` chooses the game and with
            it how many players it takes (`GET /v1/game-types`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GameCreated | Problem]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    body: CreateCableCarGame | CreateTtrSfGame,
    idempotency_key: str | Unset = UNSET,

) -> GameCreated | Problem | None:
    """ Create and start a game

     Sets the game up (shuffles, deals) and stores its opening events. The answer holds the seat tokens
    and the
    host token: they are shown only here. `seed_commitment` is `sha256(salt + ":" + seed)`; the seed and
    salt are
    revealed by the export once the game is finished, so anybody can check the shuffles were fixed in
    advance.
    The deal always mixes a random server secret (revealed by the export) into the seed: a caller-chosen
    `seed`
    (`seed_source` is then `caller`) tags the game but is not enough to predict the deal. Only with
    `"open_deal": true` is the deal made from the caller's `seed` alone (reproducible by anyone who
    knows it);
    every view, listing and export then shows `open_deal: true`.

    `time_control` sets the game's deadlines (see *Time controls, resignations and forfeits*): omitted
    or `null`
    it is `{"kind": "none"}`. A `time_control` that is not an object is `400 invalid_request`; an
    unknown
    `kind`, a missing or unknown field, a time that is not a whole number of seconds or out of range (1
    s to
    7 days; an increment 0 s to 7 days) is `422 invalid_config` with `reason` `time_control`. Nothing is
    written then. A timed game's clocks start with its opening events. The answer echoes the
    `time_control`.

    No token is needed, unless the operator accepts new games from organisers only (`401 unauthorized`
    without an organiser token). Sent with an **organiser token**, the game becomes the organiser's: its
    webhooks cover it and the organiser reads it like a spectator (a wrong organiser token is
    `401 unauthorized`; other tokens are ignored and count as no token).

    Rate limited (see *Rate limits*): per client address without an organiser token, per organiser with
    one.

    Args:
        idempotency_key (str | Unset): 32–255 characters without an organiser token (`400
            idempotency_key_too_short` below 32), 1–255 with one.
        body (CreateCableCarGame | CreateTtrSfGame): A new game: `type` chooses the game and with
            it how many players it takes (`GET /v1/game-types`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GameCreated | Problem
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateCableCarGame | CreateTtrSfGame,
    idempotency_key: str | Unset = UNSET,

) -> Response[GameCreated | Problem]:
    """ Create and start a game

     Sets the game up (shuffles, deals) and stores its opening events. The answer holds the seat tokens
    and the
    host token: they are shown only here. `seed_commitment` is `sha256(salt + ":" + seed)`; the seed and
    salt are
    revealed by the export once the game is finished, so anybody can check the shuffles were fixed in
    advance.
    The deal always mixes a random server secret (revealed by the export) into the seed: a caller-chosen
    `seed`
    (`seed_source` is then `caller`) tags the game but is not enough to predict the deal. Only with
    `"open_deal": true` is the deal made from the caller's `seed` alone (reproducible by anyone who
    knows it);
    every view, listing and export then shows `open_deal: true`.

    `time_control` sets the game's deadlines (see *Time controls, resignations and forfeits*): omitted
    or `null`
    it is `{"kind": "none"}`. A `time_control` that is not an object is `400 invalid_request`; an
    unknown
    `kind`, a missing or unknown field, a time that is not a whole number of seconds or out of range (1
    s to
    7 days; an increment 0 s to 7 days) is `422 invalid_config` with `reason` `time_control`. Nothing is
    written then. A timed game's clocks start with its opening events. The answer echoes the
    `time_control`.

    No token is needed, unless the operator accepts new games from organisers only (`401 unauthorized`
    without an organiser token). Sent with an **organiser token**, the game becomes the organiser's: its
    webhooks cover it and the organiser reads it like a spectator (a wrong organiser token is
    `401 unauthorized`; other tokens are ignored and count as no token).

    Rate limited (see *Rate limits*): per client address without an organiser token, per organiser with
    one.

    Args:
        idempotency_key (str | Unset): 32–255 characters without an organiser token (`400
            idempotency_key_too_short` below 32), 1–255 with one.
        body (CreateCableCarGame | CreateTtrSfGame): A new game: `type` chooses the game and with
            it how many players it takes (`GET /v1/game-types`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[GameCreated | Problem]
     """


    kwargs = _get_kwargs(
        body=body,
idempotency_key=idempotency_key,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    body: CreateCableCarGame | CreateTtrSfGame,
    idempotency_key: str | Unset = UNSET,

) -> GameCreated | Problem | None:
    """ Create and start a game

     Sets the game up (shuffles, deals) and stores its opening events. The answer holds the seat tokens
    and the
    host token: they are shown only here. `seed_commitment` is `sha256(salt + ":" + seed)`; the seed and
    salt are
    revealed by the export once the game is finished, so anybody can check the shuffles were fixed in
    advance.
    The deal always mixes a random server secret (revealed by the export) into the seed: a caller-chosen
    `seed`
    (`seed_source` is then `caller`) tags the game but is not enough to predict the deal. Only with
    `"open_deal": true` is the deal made from the caller's `seed` alone (reproducible by anyone who
    knows it);
    every view, listing and export then shows `open_deal: true`.

    `time_control` sets the game's deadlines (see *Time controls, resignations and forfeits*): omitted
    or `null`
    it is `{"kind": "none"}`. A `time_control` that is not an object is `400 invalid_request`; an
    unknown
    `kind`, a missing or unknown field, a time that is not a whole number of seconds or out of range (1
    s to
    7 days; an increment 0 s to 7 days) is `422 invalid_config` with `reason` `time_control`. Nothing is
    written then. A timed game's clocks start with its opening events. The answer echoes the
    `time_control`.

    No token is needed, unless the operator accepts new games from organisers only (`401 unauthorized`
    without an organiser token). Sent with an **organiser token**, the game becomes the organiser's: its
    webhooks cover it and the organiser reads it like a spectator (a wrong organiser token is
    `401 unauthorized`; other tokens are ignored and count as no token).

    Rate limited (see *Rate limits*): per client address without an organiser token, per organiser with
    one.

    Args:
        idempotency_key (str | Unset): 32–255 characters without an organiser token (`400
            idempotency_key_too_short` below 32), 1–255 with one.
        body (CreateCableCarGame | CreateTtrSfGame): A new game: `type` chooses the game and with
            it how many players it takes (`GET /v1/game-types`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        GameCreated | Problem
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
