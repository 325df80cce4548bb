from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.create_organiser import CreateOrganiser
from ...models.organiser_created import OrganiserCreated
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: CreateOrganiser,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/organisers",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> OrganiserCreated | Problem | None:
    if response.status_code == 201:
        response_201 = OrganiserCreated.from_dict(response.json())



        return response_201

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[OrganiserCreated | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateOrganiser,
    idempotency_key: str | Unset = UNSET,

) -> Response[OrganiserCreated | Problem]:
    """ Create an organiser (its token is shown once)

     Creates a tournament organiser and returns its **organiser token** (`ot_<organiser id>_<secret>`),
    shown only
    in this answer: the server keeps a hash. Open to anyone by default; an operator can close it
    (`CABLECAR_OPEN_ORGANISERS=false`, then this is `403 forbidden`) and create organisers with
    `cablecar organiser create NAME` instead. Rate limited as game creation is (per client address
    without
    an organiser token, per organiser with one). An organiser token is optional here: it scopes the
    `Idempotency-Key` to its organiser.

    Args:
        idempotency_key (str | Unset): 32–255 characters without an organiser token (`400
            idempotency_key_too_short` below 32), 1–255 with one.
        body (CreateOrganiser):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OrganiserCreated | Problem]
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
    client: AuthenticatedClient | Client,
    body: CreateOrganiser,
    idempotency_key: str | Unset = UNSET,

) -> OrganiserCreated | Problem | None:
    """ Create an organiser (its token is shown once)

     Creates a tournament organiser and returns its **organiser token** (`ot_<organiser id>_<secret>`),
    shown only
    in this answer: the server keeps a hash. Open to anyone by default; an operator can close it
    (`CABLECAR_OPEN_ORGANISERS=false`, then this is `403 forbidden`) and create organisers with
    `cablecar organiser create NAME` instead. Rate limited as game creation is (per client address
    without
    an organiser token, per organiser with one). An organiser token is optional here: it scopes the
    `Idempotency-Key` to its organiser.

    Args:
        idempotency_key (str | Unset): 32–255 characters without an organiser token (`400
            idempotency_key_too_short` below 32), 1–255 with one.
        body (CreateOrganiser):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OrganiserCreated | Problem
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    body: CreateOrganiser,
    idempotency_key: str | Unset = UNSET,

) -> Response[OrganiserCreated | Problem]:
    """ Create an organiser (its token is shown once)

     Creates a tournament organiser and returns its **organiser token** (`ot_<organiser id>_<secret>`),
    shown only
    in this answer: the server keeps a hash. Open to anyone by default; an operator can close it
    (`CABLECAR_OPEN_ORGANISERS=false`, then this is `403 forbidden`) and create organisers with
    `cablecar organiser create NAME` instead. Rate limited as game creation is (per client address
    without
    an organiser token, per organiser with one). An organiser token is optional here: it scopes the
    `Idempotency-Key` to its organiser.

    Args:
        idempotency_key (str | Unset): 32–255 characters without an organiser token (`400
            idempotency_key_too_short` below 32), 1–255 with one.
        body (CreateOrganiser):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[OrganiserCreated | Problem]
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
    client: AuthenticatedClient | Client,
    body: CreateOrganiser,
    idempotency_key: str | Unset = UNSET,

) -> OrganiserCreated | Problem | None:
    """ Create an organiser (its token is shown once)

     Creates a tournament organiser and returns its **organiser token** (`ot_<organiser id>_<secret>`),
    shown only
    in this answer: the server keeps a hash. Open to anyone by default; an operator can close it
    (`CABLECAR_OPEN_ORGANISERS=false`, then this is `403 forbidden`) and create organisers with
    `cablecar organiser create NAME` instead. Rate limited as game creation is (per client address
    without
    an organiser token, per organiser with one). An organiser token is optional here: it scopes the
    `Idempotency-Key` to its organiser.

    Args:
        idempotency_key (str | Unset): 32–255 characters without an organiser token (`400
            idempotency_key_too_short` below 32), 1–255 with one.
        body (CreateOrganiser):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        OrganiserCreated | Problem
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
