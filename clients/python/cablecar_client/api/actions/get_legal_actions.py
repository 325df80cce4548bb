from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.legal_actions import LegalActions
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    limit: int | Unset = 1000,
    cursor: str | Unset = UNSET,
    sample: int | Unset = UNSET,
    seed: str | Unset = UNSET,
    square: str | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["limit"] = limit

    params["cursor"] = cursor

    params["sample"] = sample

    params["seed"] = seed

    params["square"] = square


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/games/{id}/legal-actions".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> LegalActions | Problem | None:
    if response.status_code == 200:
        response_200 = LegalActions.from_dict(response.json())



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

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())



        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[LegalActions | Problem]:
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
    limit: int | Unset = 1000,
    cursor: str | Unset = UNSET,
    sample: int | Unset = UNSET,
    seed: str | Unset = UNSET,
    square: str | Unset = UNSET,

) -> Response[LegalActions | Problem]:
    """ Every action the caller's seat may send now

     With a seat token: every action the rules allow that seat now, each a ready-to-send body for
    `POST /v1/games/{id}/actions`. While the seat is still in (it has not resigned or timed out) and the
    game is
    not over, the last entry is `{"type": "resign"}`; it is the only entry when the seat is not in
    `active_seats`. Empty for a seat that is out, once the game is over (finished or cancelled), and
    while a
    scheduled game waits for its start (`status` `scheduled`: nobody may act, not even resign).

    The list is paged in a fixed order (a cable-car turn can have well over 100 000 legal pairs of tile
    placements): `total` counts them all; pass `next_cursor` back as `cursor` for the next page. A
    cursor
    belongs to the `version` it was handed out at: once the game has moved on it is refused with
    `409 stale_cursor` (read the list again from its first page); a cursor this list never handed out
    (of
    another game, seat or `square`, or made up) is `400 invalid_request`. A long list is computed once
    per
    version and seat and kept by the server process that answered, so the following pages are cheap.

    **Choosing at random** (a bot): `?sample=N` answers N actions drawn uniformly at random, without
    replacement, from the whole list (all of it when it is shorter), in list order, with the whole
    list's
    `total` and `next_cursor: null`. The same `seed` at the same `version` draws the same actions;
    without a
    `seed` every call draws afresh. The server finds the drawn positions without listing the rest, so a
    sample from a 400 000-pair turn costs about as much as a first page.

    **One square** (`cable-car`): `?square=R,C` keeps the actions whose first placement is on row `R`,
    column `C`, in list order (`start_ride`, `roll`, `draw_tile` and `resign` have no placement and are
    left out); `total` counts them. It pages and samples like the whole list. Other game types answer
    `400 invalid_request`.

    Order: `start_ride` (when the network is complete) or `roll` come first; under `cable-car/4` a seat
    whose
    network is complete at the start of its turn must ride, so `start_ride` (once per terminal) and
    `resign`
    are all that is listed. Cable-car `lay_tiles` pairs then
    follow grouped by the first placement's square, row by row and column by column, with adjacent
    double
    exchanges last; each placement is written in the lowest rotation giving its track layout, and two
    placements on empty squares whose order does not matter are listed once, lower square first (the
    other
    order and the equivalent rotations are accepted too). A client can therefore build a turn
    incrementally: read pages until the first placement's square changes. `resign` is always last (and
    counted
    in `total`).

    Args:
        id (str):
        limit (int | Unset):  Default: 1000.
        cursor (str | Unset): An opaque page cursor: pass back the `next_cursor` of the previous
            page unchanged. The same rule on every
            list: a cursor this listing did not hand out is `400 invalid_request`; a legal-actions
            cursor handed out
            at an older version of the game is `409 stale_cursor` (the event log only grows, so its
            cursors stay
            good).
        sample (int | Unset):
        seed (str | Unset):
        square (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LegalActions | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
limit=limit,
cursor=cursor,
sample=sample,
seed=seed,
square=square,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 1000,
    cursor: str | Unset = UNSET,
    sample: int | Unset = UNSET,
    seed: str | Unset = UNSET,
    square: str | Unset = UNSET,

) -> LegalActions | Problem | None:
    """ Every action the caller's seat may send now

     With a seat token: every action the rules allow that seat now, each a ready-to-send body for
    `POST /v1/games/{id}/actions`. While the seat is still in (it has not resigned or timed out) and the
    game is
    not over, the last entry is `{"type": "resign"}`; it is the only entry when the seat is not in
    `active_seats`. Empty for a seat that is out, once the game is over (finished or cancelled), and
    while a
    scheduled game waits for its start (`status` `scheduled`: nobody may act, not even resign).

    The list is paged in a fixed order (a cable-car turn can have well over 100 000 legal pairs of tile
    placements): `total` counts them all; pass `next_cursor` back as `cursor` for the next page. A
    cursor
    belongs to the `version` it was handed out at: once the game has moved on it is refused with
    `409 stale_cursor` (read the list again from its first page); a cursor this list never handed out
    (of
    another game, seat or `square`, or made up) is `400 invalid_request`. A long list is computed once
    per
    version and seat and kept by the server process that answered, so the following pages are cheap.

    **Choosing at random** (a bot): `?sample=N` answers N actions drawn uniformly at random, without
    replacement, from the whole list (all of it when it is shorter), in list order, with the whole
    list's
    `total` and `next_cursor: null`. The same `seed` at the same `version` draws the same actions;
    without a
    `seed` every call draws afresh. The server finds the drawn positions without listing the rest, so a
    sample from a 400 000-pair turn costs about as much as a first page.

    **One square** (`cable-car`): `?square=R,C` keeps the actions whose first placement is on row `R`,
    column `C`, in list order (`start_ride`, `roll`, `draw_tile` and `resign` have no placement and are
    left out); `total` counts them. It pages and samples like the whole list. Other game types answer
    `400 invalid_request`.

    Order: `start_ride` (when the network is complete) or `roll` come first; under `cable-car/4` a seat
    whose
    network is complete at the start of its turn must ride, so `start_ride` (once per terminal) and
    `resign`
    are all that is listed. Cable-car `lay_tiles` pairs then
    follow grouped by the first placement's square, row by row and column by column, with adjacent
    double
    exchanges last; each placement is written in the lowest rotation giving its track layout, and two
    placements on empty squares whose order does not matter are listed once, lower square first (the
    other
    order and the equivalent rotations are accepted too). A client can therefore build a turn
    incrementally: read pages until the first placement's square changes. `resign` is always last (and
    counted
    in `total`).

    Args:
        id (str):
        limit (int | Unset):  Default: 1000.
        cursor (str | Unset): An opaque page cursor: pass back the `next_cursor` of the previous
            page unchanged. The same rule on every
            list: a cursor this listing did not hand out is `400 invalid_request`; a legal-actions
            cursor handed out
            at an older version of the game is `409 stale_cursor` (the event log only grows, so its
            cursors stay
            good).
        sample (int | Unset):
        seed (str | Unset):
        square (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LegalActions | Problem
     """


    return sync_detailed(
        id=id,
client=client,
limit=limit,
cursor=cursor,
sample=sample,
seed=seed,
square=square,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 1000,
    cursor: str | Unset = UNSET,
    sample: int | Unset = UNSET,
    seed: str | Unset = UNSET,
    square: str | Unset = UNSET,

) -> Response[LegalActions | Problem]:
    """ Every action the caller's seat may send now

     With a seat token: every action the rules allow that seat now, each a ready-to-send body for
    `POST /v1/games/{id}/actions`. While the seat is still in (it has not resigned or timed out) and the
    game is
    not over, the last entry is `{"type": "resign"}`; it is the only entry when the seat is not in
    `active_seats`. Empty for a seat that is out, once the game is over (finished or cancelled), and
    while a
    scheduled game waits for its start (`status` `scheduled`: nobody may act, not even resign).

    The list is paged in a fixed order (a cable-car turn can have well over 100 000 legal pairs of tile
    placements): `total` counts them all; pass `next_cursor` back as `cursor` for the next page. A
    cursor
    belongs to the `version` it was handed out at: once the game has moved on it is refused with
    `409 stale_cursor` (read the list again from its first page); a cursor this list never handed out
    (of
    another game, seat or `square`, or made up) is `400 invalid_request`. A long list is computed once
    per
    version and seat and kept by the server process that answered, so the following pages are cheap.

    **Choosing at random** (a bot): `?sample=N` answers N actions drawn uniformly at random, without
    replacement, from the whole list (all of it when it is shorter), in list order, with the whole
    list's
    `total` and `next_cursor: null`. The same `seed` at the same `version` draws the same actions;
    without a
    `seed` every call draws afresh. The server finds the drawn positions without listing the rest, so a
    sample from a 400 000-pair turn costs about as much as a first page.

    **One square** (`cable-car`): `?square=R,C` keeps the actions whose first placement is on row `R`,
    column `C`, in list order (`start_ride`, `roll`, `draw_tile` and `resign` have no placement and are
    left out); `total` counts them. It pages and samples like the whole list. Other game types answer
    `400 invalid_request`.

    Order: `start_ride` (when the network is complete) or `roll` come first; under `cable-car/4` a seat
    whose
    network is complete at the start of its turn must ride, so `start_ride` (once per terminal) and
    `resign`
    are all that is listed. Cable-car `lay_tiles` pairs then
    follow grouped by the first placement's square, row by row and column by column, with adjacent
    double
    exchanges last; each placement is written in the lowest rotation giving its track layout, and two
    placements on empty squares whose order does not matter are listed once, lower square first (the
    other
    order and the equivalent rotations are accepted too). A client can therefore build a turn
    incrementally: read pages until the first placement's square changes. `resign` is always last (and
    counted
    in `total`).

    Args:
        id (str):
        limit (int | Unset):  Default: 1000.
        cursor (str | Unset): An opaque page cursor: pass back the `next_cursor` of the previous
            page unchanged. The same rule on every
            list: a cursor this listing did not hand out is `400 invalid_request`; a legal-actions
            cursor handed out
            at an older version of the game is `409 stale_cursor` (the event log only grows, so its
            cursors stay
            good).
        sample (int | Unset):
        seed (str | Unset):
        square (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LegalActions | Problem]
     """


    kwargs = _get_kwargs(
        id=id,
limit=limit,
cursor=cursor,
sample=sample,
seed=seed,
square=square,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    limit: int | Unset = 1000,
    cursor: str | Unset = UNSET,
    sample: int | Unset = UNSET,
    seed: str | Unset = UNSET,
    square: str | Unset = UNSET,

) -> LegalActions | Problem | None:
    """ Every action the caller's seat may send now

     With a seat token: every action the rules allow that seat now, each a ready-to-send body for
    `POST /v1/games/{id}/actions`. While the seat is still in (it has not resigned or timed out) and the
    game is
    not over, the last entry is `{"type": "resign"}`; it is the only entry when the seat is not in
    `active_seats`. Empty for a seat that is out, once the game is over (finished or cancelled), and
    while a
    scheduled game waits for its start (`status` `scheduled`: nobody may act, not even resign).

    The list is paged in a fixed order (a cable-car turn can have well over 100 000 legal pairs of tile
    placements): `total` counts them all; pass `next_cursor` back as `cursor` for the next page. A
    cursor
    belongs to the `version` it was handed out at: once the game has moved on it is refused with
    `409 stale_cursor` (read the list again from its first page); a cursor this list never handed out
    (of
    another game, seat or `square`, or made up) is `400 invalid_request`. A long list is computed once
    per
    version and seat and kept by the server process that answered, so the following pages are cheap.

    **Choosing at random** (a bot): `?sample=N` answers N actions drawn uniformly at random, without
    replacement, from the whole list (all of it when it is shorter), in list order, with the whole
    list's
    `total` and `next_cursor: null`. The same `seed` at the same `version` draws the same actions;
    without a
    `seed` every call draws afresh. The server finds the drawn positions without listing the rest, so a
    sample from a 400 000-pair turn costs about as much as a first page.

    **One square** (`cable-car`): `?square=R,C` keeps the actions whose first placement is on row `R`,
    column `C`, in list order (`start_ride`, `roll`, `draw_tile` and `resign` have no placement and are
    left out); `total` counts them. It pages and samples like the whole list. Other game types answer
    `400 invalid_request`.

    Order: `start_ride` (when the network is complete) or `roll` come first; under `cable-car/4` a seat
    whose
    network is complete at the start of its turn must ride, so `start_ride` (once per terminal) and
    `resign`
    are all that is listed. Cable-car `lay_tiles` pairs then
    follow grouped by the first placement's square, row by row and column by column, with adjacent
    double
    exchanges last; each placement is written in the lowest rotation giving its track layout, and two
    placements on empty squares whose order does not matter are listed once, lower square first (the
    other
    order and the equivalent rotations are accepted too). A client can therefore build a turn
    incrementally: read pages until the first placement's square changes. `resign` is always last (and
    counted
    in `total`).

    Args:
        id (str):
        limit (int | Unset):  Default: 1000.
        cursor (str | Unset): An opaque page cursor: pass back the `next_cursor` of the previous
            page unchanged. The same rule on every
            list: a cursor this listing did not hand out is `400 invalid_request`; a legal-actions
            cursor handed out
            at an older version of the game is `409 stale_cursor` (the event log only grows, so its
            cursors stay
            good).
        sample (int | Unset):
        seed (str | Unset):
        square (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LegalActions | Problem
     """


    return (await asyncio_detailed(
        id=id,
client=client,
limit=limit,
cursor=cursor,
sample=sample,
seed=seed,
square=square,

    )).parsed
