from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.game_status import GameStatus
from ...models.games_page import GamesPage
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    status: GameStatus | Unset = UNSET,
    type_: str | Unset = UNSET,
    batch: str | Unset = UNSET,
    ref: str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    json_status: str | Unset = UNSET
    if not isinstance(status, Unset):
        json_status = status.value

    params["status"] = json_status

    params["type"] = type_

    params["batch"] = batch

    params["ref"] = ref

    params["limit"] = limit

    params["cursor"] = cursor


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/games",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> GamesPage | Problem | None:
    if response.status_code == 200:
        response_200 = GamesPage.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[GamesPage | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    status: GameStatus | Unset = UNSET,
    type_: str | Unset = UNSET,
    batch: str | Unset = UNSET,
    ref: str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> Response[GamesPage | Problem]:
    """ List games, newest first

     A page of game summaries, newest first, filtered by `status`, `type`, `batch` and `ref`. Pass
    `next_cursor`
    back as `cursor` for the next page; it is `null` on the last page.

    Each game's `status` is the one its view gives: a damaged game (a stored event of it is not genuine,
    see
    `409 game_damaged`) is listed as it stood before its first bad event, with `damaged_from`, whatever
    status
    the bad events claimed (a forged `game_ended` does not list it as `finished`; with `status=finished`
    it is
    left out of the page, which may then hold fewer games than `limit`).

    Args:
        status (GameStatus | Unset): A status to filter on: `scheduled` (a round created with
            `start_at`, waiting for its start), `setup` (setup choices still to make), `playing`,
            `last_round` (ttr-sf: the final
            round has started), `finished` (ended by the rules, also by forfeit), `cancelled` (ended
            by its host with
            no result).
        type_ (str | Unset):
        batch (str | Unset):
        ref (str | Unset):
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
        Response[GamesPage | Problem]
     """


    kwargs = _get_kwargs(
        status=status,
type_=type_,
batch=batch,
ref=ref,
limit=limit,
cursor=cursor,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    status: GameStatus | Unset = UNSET,
    type_: str | Unset = UNSET,
    batch: str | Unset = UNSET,
    ref: str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> GamesPage | Problem | None:
    """ List games, newest first

     A page of game summaries, newest first, filtered by `status`, `type`, `batch` and `ref`. Pass
    `next_cursor`
    back as `cursor` for the next page; it is `null` on the last page.

    Each game's `status` is the one its view gives: a damaged game (a stored event of it is not genuine,
    see
    `409 game_damaged`) is listed as it stood before its first bad event, with `damaged_from`, whatever
    status
    the bad events claimed (a forged `game_ended` does not list it as `finished`; with `status=finished`
    it is
    left out of the page, which may then hold fewer games than `limit`).

    Args:
        status (GameStatus | Unset): A status to filter on: `scheduled` (a round created with
            `start_at`, waiting for its start), `setup` (setup choices still to make), `playing`,
            `last_round` (ttr-sf: the final
            round has started), `finished` (ended by the rules, also by forfeit), `cancelled` (ended
            by its host with
            no result).
        type_ (str | Unset):
        batch (str | Unset):
        ref (str | Unset):
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
        GamesPage | Problem
     """


    return sync_detailed(
        client=client,
status=status,
type_=type_,
batch=batch,
ref=ref,
limit=limit,
cursor=cursor,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    status: GameStatus | Unset = UNSET,
    type_: str | Unset = UNSET,
    batch: str | Unset = UNSET,
    ref: str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> Response[GamesPage | Problem]:
    """ List games, newest first

     A page of game summaries, newest first, filtered by `status`, `type`, `batch` and `ref`. Pass
    `next_cursor`
    back as `cursor` for the next page; it is `null` on the last page.

    Each game's `status` is the one its view gives: a damaged game (a stored event of it is not genuine,
    see
    `409 game_damaged`) is listed as it stood before its first bad event, with `damaged_from`, whatever
    status
    the bad events claimed (a forged `game_ended` does not list it as `finished`; with `status=finished`
    it is
    left out of the page, which may then hold fewer games than `limit`).

    Args:
        status (GameStatus | Unset): A status to filter on: `scheduled` (a round created with
            `start_at`, waiting for its start), `setup` (setup choices still to make), `playing`,
            `last_round` (ttr-sf: the final
            round has started), `finished` (ended by the rules, also by forfeit), `cancelled` (ended
            by its host with
            no result).
        type_ (str | Unset):
        batch (str | Unset):
        ref (str | Unset):
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
        Response[GamesPage | Problem]
     """


    kwargs = _get_kwargs(
        status=status,
type_=type_,
batch=batch,
ref=ref,
limit=limit,
cursor=cursor,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    status: GameStatus | Unset = UNSET,
    type_: str | Unset = UNSET,
    batch: str | Unset = UNSET,
    ref: str | Unset = UNSET,
    limit: int | Unset = 50,
    cursor: str | Unset = UNSET,

) -> GamesPage | Problem | None:
    """ List games, newest first

     A page of game summaries, newest first, filtered by `status`, `type`, `batch` and `ref`. Pass
    `next_cursor`
    back as `cursor` for the next page; it is `null` on the last page.

    Each game's `status` is the one its view gives: a damaged game (a stored event of it is not genuine,
    see
    `409 game_damaged`) is listed as it stood before its first bad event, with `damaged_from`, whatever
    status
    the bad events claimed (a forged `game_ended` does not list it as `finished`; with `status=finished`
    it is
    left out of the page, which may then hold fewer games than `limit`).

    Args:
        status (GameStatus | Unset): A status to filter on: `scheduled` (a round created with
            `start_at`, waiting for its start), `setup` (setup choices still to make), `playing`,
            `last_round` (ttr-sf: the final
            round has started), `finished` (ended by the rules, also by forfeit), `cancelled` (ended
            by its host with
            no result).
        type_ (str | Unset):
        batch (str | Unset):
        ref (str | Unset):
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
        GamesPage | Problem
     """


    return (await asyncio_detailed(
        client=client,
status=status,
type_=type_,
batch=batch,
ref=ref,
limit=limit,
cursor=cursor,

    )).parsed
