from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.standings import Standings
from typing import cast



def _get_kwargs(
    *,
    batch: list[str],

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_batch = batch


    params["batch"] = json_batch


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/organisers/me/standings",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | Standings | None:
    if response.status_code == 200:
        response_200 = Standings.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | Standings]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    batch: list[str],

) -> Response[Problem | Standings]:
    """ Each player ref's results summed over the rounds named

     With the organiser token that created them: the batches named by `batch` (repeated, 1 to 50; all of
    one
    game type) are summed per `player_ref`, for the organiser's convenience (pairing stays the
    tournament
    software's). Per player: `games` (tables sat at), `finished` (of those, finished ones), `wins`, and
    for
    `ttr-sf` `points` (each game's total) and `completed_tickets`; only finished tables count towards
    wins,
    points and tickets. Seats without a player ref are left out (`unreferenced_seats` counts them).

    A damaged table (see `409 game_damaged`) never blocks the standings: it counts as its game stood
    before
    its first bad event (played, and unfinished unless the game had ended before it: the bad events win
    nothing), it is listed in `damaged_tables`, and each of its players' `damaged_games` counts it.

    Ranking, best first, by `tie_breaks` in order (higher is better): `ttr-sf` by wins, then points,
    then
    completed tickets; `cable-car` by wins. Players equal on all of them share a rank and are listed by
    `player_ref`. `name` is the player's name in the latest round named.

    The same as CSV: `GET /v1/organisers/me/standings.csv` (one media type per operation).

    Args:
        batch (list[str]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Standings]
     """


    kwargs = _get_kwargs(
        batch=batch,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient,
    batch: list[str],

) -> Problem | Standings | None:
    """ Each player ref's results summed over the rounds named

     With the organiser token that created them: the batches named by `batch` (repeated, 1 to 50; all of
    one
    game type) are summed per `player_ref`, for the organiser's convenience (pairing stays the
    tournament
    software's). Per player: `games` (tables sat at), `finished` (of those, finished ones), `wins`, and
    for
    `ttr-sf` `points` (each game's total) and `completed_tickets`; only finished tables count towards
    wins,
    points and tickets. Seats without a player ref are left out (`unreferenced_seats` counts them).

    A damaged table (see `409 game_damaged`) never blocks the standings: it counts as its game stood
    before
    its first bad event (played, and unfinished unless the game had ended before it: the bad events win
    nothing), it is listed in `damaged_tables`, and each of its players' `damaged_games` counts it.

    Ranking, best first, by `tie_breaks` in order (higher is better): `ttr-sf` by wins, then points,
    then
    completed tickets; `cable-car` by wins. Players equal on all of them share a rank and are listed by
    `player_ref`. `name` is the player's name in the latest round named.

    The same as CSV: `GET /v1/organisers/me/standings.csv` (one media type per operation).

    Args:
        batch (list[str]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Standings
     """


    return sync_detailed(
        client=client,
batch=batch,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    batch: list[str],

) -> Response[Problem | Standings]:
    """ Each player ref's results summed over the rounds named

     With the organiser token that created them: the batches named by `batch` (repeated, 1 to 50; all of
    one
    game type) are summed per `player_ref`, for the organiser's convenience (pairing stays the
    tournament
    software's). Per player: `games` (tables sat at), `finished` (of those, finished ones), `wins`, and
    for
    `ttr-sf` `points` (each game's total) and `completed_tickets`; only finished tables count towards
    wins,
    points and tickets. Seats without a player ref are left out (`unreferenced_seats` counts them).

    A damaged table (see `409 game_damaged`) never blocks the standings: it counts as its game stood
    before
    its first bad event (played, and unfinished unless the game had ended before it: the bad events win
    nothing), it is listed in `damaged_tables`, and each of its players' `damaged_games` counts it.

    Ranking, best first, by `tie_breaks` in order (higher is better): `ttr-sf` by wins, then points,
    then
    completed tickets; `cable-car` by wins. Players equal on all of them share a rank and are listed by
    `player_ref`. `name` is the player's name in the latest round named.

    The same as CSV: `GET /v1/organisers/me/standings.csv` (one media type per operation).

    Args:
        batch (list[str]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | Standings]
     """


    kwargs = _get_kwargs(
        batch=batch,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient,
    batch: list[str],

) -> Problem | Standings | None:
    """ Each player ref's results summed over the rounds named

     With the organiser token that created them: the batches named by `batch` (repeated, 1 to 50; all of
    one
    game type) are summed per `player_ref`, for the organiser's convenience (pairing stays the
    tournament
    software's). Per player: `games` (tables sat at), `finished` (of those, finished ones), `wins`, and
    for
    `ttr-sf` `points` (each game's total) and `completed_tickets`; only finished tables count towards
    wins,
    points and tickets. Seats without a player ref are left out (`unreferenced_seats` counts them).

    A damaged table (see `409 game_damaged`) never blocks the standings: it counts as its game stood
    before
    its first bad event (played, and unfinished unless the game had ended before it: the bad events win
    nothing), it is listed in `damaged_tables`, and each of its players' `damaged_games` counts it.

    Ranking, best first, by `tie_breaks` in order (higher is better): `ttr-sf` by wins, then points,
    then
    completed tickets; `cable-car` by wins. Players equal on all of them share a rank and are listed by
    `player_ref`. `name` is the player's name in the latest round named.

    The same as CSV: `GET /v1/organisers/me/standings.csv` (one media type per operation).

    Args:
        batch (list[str]):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | Standings
     """


    return (await asyncio_detailed(
        client=client,
batch=batch,

    )).parsed
