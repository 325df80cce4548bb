from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.batch_created import BatchCreated
from ...models.create_cable_car_batch import CreateCableCarBatch
from ...models.create_ttr_sf_batch import CreateTtrSfBatch
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: CreateCableCarBatch | CreateTtrSfBatch,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/batches",
    }

    
    if isinstance(body, CreateTtrSfBatch):
        _kwargs["json"] = body.to_dict()
    else:
        _kwargs["json"] = body.to_dict()


    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> BatchCreated | Problem | None:
    if response.status_code == 201:
        response_201 = BatchCreated.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[BatchCreated | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateCableCarBatch | CreateTtrSfBatch,
    idempotency_key: str | Unset = UNSET,

) -> Response[BatchCreated | Problem]:
    """ Create every game of a tournament round at once

     With an organiser token: creates one game per table, **all or none**. Every table is set up first; a
    table
    that cannot be created (player count, start seat, time control) is refused with its index in `table`
    and
    nothing at all is written. The answer holds every game with every seat token and host token, shown
    only
    here.

    `time_control` at the top level applies to every table; a table's own `time_control` (an object,
    also
    `{"kind": "none"}`) replaces it for that table, while an absent or `null` one keeps the batch's.
    Without
    either, the table is untimed. A bad top-level `time_control` is reported on the first table it
    applies to.
    See *Time controls, resignations and forfeits*: with a time control, a round finishes even when
    players
    vanish.

    Each game is an ordinary game (play it with its seat tokens) that remembers its batch: `GET
    /v1/games?batch=`
    lists them, and the organiser's webhooks cover them.

    A batch holds at most the server's table cap (50 by default; more is `400 invalid_request` naming
    `tables`), and each table counts as one game against the organiser's creation limit (see *Rate
    limits*).

    Args:
        idempotency_key (str | Unset): 32–255 characters without an organiser token (`400
            idempotency_key_too_short` below 32), 1–255 with one.
        body (CreateCableCarBatch | CreateTtrSfBatch): A batch of games of one type, one per
            table; `type` fixes the player counts of every table.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchCreated | Problem]
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
    body: CreateCableCarBatch | CreateTtrSfBatch,
    idempotency_key: str | Unset = UNSET,

) -> BatchCreated | Problem | None:
    """ Create every game of a tournament round at once

     With an organiser token: creates one game per table, **all or none**. Every table is set up first; a
    table
    that cannot be created (player count, start seat, time control) is refused with its index in `table`
    and
    nothing at all is written. The answer holds every game with every seat token and host token, shown
    only
    here.

    `time_control` at the top level applies to every table; a table's own `time_control` (an object,
    also
    `{"kind": "none"}`) replaces it for that table, while an absent or `null` one keeps the batch's.
    Without
    either, the table is untimed. A bad top-level `time_control` is reported on the first table it
    applies to.
    See *Time controls, resignations and forfeits*: with a time control, a round finishes even when
    players
    vanish.

    Each game is an ordinary game (play it with its seat tokens) that remembers its batch: `GET
    /v1/games?batch=`
    lists them, and the organiser's webhooks cover them.

    A batch holds at most the server's table cap (50 by default; more is `400 invalid_request` naming
    `tables`), and each table counts as one game against the organiser's creation limit (see *Rate
    limits*).

    Args:
        idempotency_key (str | Unset): 32–255 characters without an organiser token (`400
            idempotency_key_too_short` below 32), 1–255 with one.
        body (CreateCableCarBatch | CreateTtrSfBatch): A batch of games of one type, one per
            table; `type` fixes the player counts of every table.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchCreated | Problem
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateCableCarBatch | CreateTtrSfBatch,
    idempotency_key: str | Unset = UNSET,

) -> Response[BatchCreated | Problem]:
    """ Create every game of a tournament round at once

     With an organiser token: creates one game per table, **all or none**. Every table is set up first; a
    table
    that cannot be created (player count, start seat, time control) is refused with its index in `table`
    and
    nothing at all is written. The answer holds every game with every seat token and host token, shown
    only
    here.

    `time_control` at the top level applies to every table; a table's own `time_control` (an object,
    also
    `{"kind": "none"}`) replaces it for that table, while an absent or `null` one keeps the batch's.
    Without
    either, the table is untimed. A bad top-level `time_control` is reported on the first table it
    applies to.
    See *Time controls, resignations and forfeits*: with a time control, a round finishes even when
    players
    vanish.

    Each game is an ordinary game (play it with its seat tokens) that remembers its batch: `GET
    /v1/games?batch=`
    lists them, and the organiser's webhooks cover them.

    A batch holds at most the server's table cap (50 by default; more is `400 invalid_request` naming
    `tables`), and each table counts as one game against the organiser's creation limit (see *Rate
    limits*).

    Args:
        idempotency_key (str | Unset): 32–255 characters without an organiser token (`400
            idempotency_key_too_short` below 32), 1–255 with one.
        body (CreateCableCarBatch | CreateTtrSfBatch): A batch of games of one type, one per
            table; `type` fixes the player counts of every table.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchCreated | Problem]
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
    body: CreateCableCarBatch | CreateTtrSfBatch,
    idempotency_key: str | Unset = UNSET,

) -> BatchCreated | Problem | None:
    """ Create every game of a tournament round at once

     With an organiser token: creates one game per table, **all or none**. Every table is set up first; a
    table
    that cannot be created (player count, start seat, time control) is refused with its index in `table`
    and
    nothing at all is written. The answer holds every game with every seat token and host token, shown
    only
    here.

    `time_control` at the top level applies to every table; a table's own `time_control` (an object,
    also
    `{"kind": "none"}`) replaces it for that table, while an absent or `null` one keeps the batch's.
    Without
    either, the table is untimed. A bad top-level `time_control` is reported on the first table it
    applies to.
    See *Time controls, resignations and forfeits*: with a time control, a round finishes even when
    players
    vanish.

    Each game is an ordinary game (play it with its seat tokens) that remembers its batch: `GET
    /v1/games?batch=`
    lists them, and the organiser's webhooks cover them.

    A batch holds at most the server's table cap (50 by default; more is `400 invalid_request` naming
    `tables`), and each table counts as one game against the organiser's creation limit (see *Rate
    limits*).

    Args:
        idempotency_key (str | Unset): 32–255 characters without an organiser token (`400
            idempotency_key_too_short` below 32), 1–255 with one.
        body (CreateCableCarBatch | CreateTtrSfBatch): A batch of games of one type, one per
            table; `type` fixes the player counts of every table.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchCreated | Problem
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
