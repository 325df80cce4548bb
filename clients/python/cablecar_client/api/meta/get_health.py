from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.health import Health
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    
) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/health",
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Health | Problem | None:
    if response.status_code == 200:
        response_200 = Health.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 503:
        response_503 = Health.from_dict(response.json())



        return response_503

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Health | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,

) -> Response[Health | Problem]:
    """ Liveness and the state of the event store and the cache

     `200` with `status: ok` when everything works, `200` with `status: degraded` when the cache (Redis)
    is down
    (the server keeps working from the event store) or the transparency log is not being published
    (`log`: its
    latest checkpoint is more than 60 s old while events wait to be logged), `503` with `status:
    unavailable`
    when the event store cannot be reached, or (PostgreSQL) its schema has not been migrated:
    `store.detail`
    then names the command to run, `cablecar migrate --database-url OWNER_URL --app-role APP_ROLE` (the
    server
    never migrates PostgreSQL itself). `bots` counts the bot runners alive (their heartbeats in the
    store): with
    none, a new game with a bot seat is refused (`503 bots_unavailable`) while the health stays `200`.
    `log`
    gives the age of the latest checkpoint (`checkpoint_age_s`, the one `GET /v1/log/checkpoint`
    answers).
    Never rate limited.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Health | Problem]
     """


    kwargs = _get_kwargs(
        
    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,

) -> Health | Problem | None:
    """ Liveness and the state of the event store and the cache

     `200` with `status: ok` when everything works, `200` with `status: degraded` when the cache (Redis)
    is down
    (the server keeps working from the event store) or the transparency log is not being published
    (`log`: its
    latest checkpoint is more than 60 s old while events wait to be logged), `503` with `status:
    unavailable`
    when the event store cannot be reached, or (PostgreSQL) its schema has not been migrated:
    `store.detail`
    then names the command to run, `cablecar migrate --database-url OWNER_URL --app-role APP_ROLE` (the
    server
    never migrates PostgreSQL itself). `bots` counts the bot runners alive (their heartbeats in the
    store): with
    none, a new game with a bot seat is refused (`503 bots_unavailable`) while the health stays `200`.
    `log`
    gives the age of the latest checkpoint (`checkpoint_age_s`, the one `GET /v1/log/checkpoint`
    answers).
    Never rate limited.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Health | Problem
     """


    return sync_detailed(
        client=client,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,

) -> Response[Health | Problem]:
    """ Liveness and the state of the event store and the cache

     `200` with `status: ok` when everything works, `200` with `status: degraded` when the cache (Redis)
    is down
    (the server keeps working from the event store) or the transparency log is not being published
    (`log`: its
    latest checkpoint is more than 60 s old while events wait to be logged), `503` with `status:
    unavailable`
    when the event store cannot be reached, or (PostgreSQL) its schema has not been migrated:
    `store.detail`
    then names the command to run, `cablecar migrate --database-url OWNER_URL --app-role APP_ROLE` (the
    server
    never migrates PostgreSQL itself). `bots` counts the bot runners alive (their heartbeats in the
    store): with
    none, a new game with a bot seat is refused (`503 bots_unavailable`) while the health stays `200`.
    `log`
    gives the age of the latest checkpoint (`checkpoint_age_s`, the one `GET /v1/log/checkpoint`
    answers).
    Never rate limited.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Health | Problem]
     """


    kwargs = _get_kwargs(
        
    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,

) -> Health | Problem | None:
    """ Liveness and the state of the event store and the cache

     `200` with `status: ok` when everything works, `200` with `status: degraded` when the cache (Redis)
    is down
    (the server keeps working from the event store) or the transparency log is not being published
    (`log`: its
    latest checkpoint is more than 60 s old while events wait to be logged), `503` with `status:
    unavailable`
    when the event store cannot be reached, or (PostgreSQL) its schema has not been migrated:
    `store.detail`
    then names the command to run, `cablecar migrate --database-url OWNER_URL --app-role APP_ROLE` (the
    server
    never migrates PostgreSQL itself). `bots` counts the bot runners alive (their heartbeats in the
    store): with
    none, a new game with a bot seat is refused (`503 bots_unavailable`) while the health stays `200`.
    `log`
    gives the age of the latest checkpoint (`checkpoint_age_s`, the one `GET /v1/log/checkpoint`
    answers).
    Never rate limited.

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Health | Problem
     """


    return (await asyncio_detailed(
        client=client,

    )).parsed
