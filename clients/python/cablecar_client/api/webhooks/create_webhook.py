from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.create_webhook import CreateWebhook
from ...models.problem import Problem
from ...models.webhook_created import WebhookCreated
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    body: CreateWebhook,
    idempotency_key: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(idempotency_key, Unset):
        headers["Idempotency-Key"] = idempotency_key



    

    

    _kwargs: dict[str, Any] = {
        "method": "post",
        "url": "/v1/webhooks",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | WebhookCreated | None:
    if response.status_code == 201:
        response_201 = WebhookCreated.from_dict(response.json())



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

    if response.status_code == 409:
        response_409 = Problem.from_dict(response.json())



        return response_409

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | WebhookCreated]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateWebhook,
    idempotency_key: str | Unset = UNSET,

) -> Response[Problem | WebhookCreated]:
    """ Register a webhook (its signing secret is shown once)

     With an organiser token: the server will POST a `WebhookDelivery` to `url` for each of `events` that
    happens
    after now in the organiser's games (those created with its token: batches, and `POST /v1/games` sent
    with
    it), or only in `batch`'s games. `events` are some of `game.started`, `game.seat_out` (a seat
    resigned or
    timed out; one delivery per seat), `game.finished` and `game.cancelled` (the host cancelled the
    game);
    without `events`, all four. A webhook without `batch` may also name `log.checkpoint`: one delivery
    per
    checkpoint the transparency log publishes after now, so that the tournament keeps its own copy of
    each
    (with `batch`, `400 invalid_request`: a checkpoint covers every game of the server). See the
    `gameEvent` callback below for the request the receiver gets and
    how to check its signature with `secret`, which is shown only in this answer.

    Deliveries go to public addresses only: a `url` naming a loopback, private, link-local or other non-
    public
    address is refused with `400 invalid_request` (unless the operator allows private addresses), and a
    host
    name is resolved again before every attempt. IPv6 addresses that embed an IPv4 one (NAT64
    `64:ff9b::/96`
    and `64:ff9b:1::/48`, 6to4 `2002::/16`, Teredo `2001::/32`, IPv4-mapped `::ffff:0:0/96`) count as
    not
    public.

    An organiser holds at most `CABLECAR_WEBHOOKS_PER_ORGANISER` active webhooks (10 by default): one
    more is
    refused with `409 limit_reached`; delete one first.

    Each attempt has one overall deadline, `CABLECAR_WEBHOOK_TIMEOUT_SECONDS`, for connecting, sending
    and the
    whole answer (of which at most 64 KiB is read); the delivery's `last_error` says what went wrong in
    fixed
    words that never repeat resolved addresses.

    Args:
        idempotency_key (str | Unset): 32–255 characters without an organiser token (`400
            idempotency_key_too_short` below 32), 1–255 with one.
        body (CreateWebhook):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | WebhookCreated]
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
    body: CreateWebhook,
    idempotency_key: str | Unset = UNSET,

) -> Problem | WebhookCreated | None:
    """ Register a webhook (its signing secret is shown once)

     With an organiser token: the server will POST a `WebhookDelivery` to `url` for each of `events` that
    happens
    after now in the organiser's games (those created with its token: batches, and `POST /v1/games` sent
    with
    it), or only in `batch`'s games. `events` are some of `game.started`, `game.seat_out` (a seat
    resigned or
    timed out; one delivery per seat), `game.finished` and `game.cancelled` (the host cancelled the
    game);
    without `events`, all four. A webhook without `batch` may also name `log.checkpoint`: one delivery
    per
    checkpoint the transparency log publishes after now, so that the tournament keeps its own copy of
    each
    (with `batch`, `400 invalid_request`: a checkpoint covers every game of the server). See the
    `gameEvent` callback below for the request the receiver gets and
    how to check its signature with `secret`, which is shown only in this answer.

    Deliveries go to public addresses only: a `url` naming a loopback, private, link-local or other non-
    public
    address is refused with `400 invalid_request` (unless the operator allows private addresses), and a
    host
    name is resolved again before every attempt. IPv6 addresses that embed an IPv4 one (NAT64
    `64:ff9b::/96`
    and `64:ff9b:1::/48`, 6to4 `2002::/16`, Teredo `2001::/32`, IPv4-mapped `::ffff:0:0/96`) count as
    not
    public.

    An organiser holds at most `CABLECAR_WEBHOOKS_PER_ORGANISER` active webhooks (10 by default): one
    more is
    refused with `409 limit_reached`; delete one first.

    Each attempt has one overall deadline, `CABLECAR_WEBHOOK_TIMEOUT_SECONDS`, for connecting, sending
    and the
    whole answer (of which at most 64 KiB is read); the delivery's `last_error` says what went wrong in
    fixed
    words that never repeat resolved addresses.

    Args:
        idempotency_key (str | Unset): 32–255 characters without an organiser token (`400
            idempotency_key_too_short` below 32), 1–255 with one.
        body (CreateWebhook):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | WebhookCreated
     """


    return sync_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient,
    body: CreateWebhook,
    idempotency_key: str | Unset = UNSET,

) -> Response[Problem | WebhookCreated]:
    """ Register a webhook (its signing secret is shown once)

     With an organiser token: the server will POST a `WebhookDelivery` to `url` for each of `events` that
    happens
    after now in the organiser's games (those created with its token: batches, and `POST /v1/games` sent
    with
    it), or only in `batch`'s games. `events` are some of `game.started`, `game.seat_out` (a seat
    resigned or
    timed out; one delivery per seat), `game.finished` and `game.cancelled` (the host cancelled the
    game);
    without `events`, all four. A webhook without `batch` may also name `log.checkpoint`: one delivery
    per
    checkpoint the transparency log publishes after now, so that the tournament keeps its own copy of
    each
    (with `batch`, `400 invalid_request`: a checkpoint covers every game of the server). See the
    `gameEvent` callback below for the request the receiver gets and
    how to check its signature with `secret`, which is shown only in this answer.

    Deliveries go to public addresses only: a `url` naming a loopback, private, link-local or other non-
    public
    address is refused with `400 invalid_request` (unless the operator allows private addresses), and a
    host
    name is resolved again before every attempt. IPv6 addresses that embed an IPv4 one (NAT64
    `64:ff9b::/96`
    and `64:ff9b:1::/48`, 6to4 `2002::/16`, Teredo `2001::/32`, IPv4-mapped `::ffff:0:0/96`) count as
    not
    public.

    An organiser holds at most `CABLECAR_WEBHOOKS_PER_ORGANISER` active webhooks (10 by default): one
    more is
    refused with `409 limit_reached`; delete one first.

    Each attempt has one overall deadline, `CABLECAR_WEBHOOK_TIMEOUT_SECONDS`, for connecting, sending
    and the
    whole answer (of which at most 64 KiB is read); the delivery's `last_error` says what went wrong in
    fixed
    words that never repeat resolved addresses.

    Args:
        idempotency_key (str | Unset): 32–255 characters without an organiser token (`400
            idempotency_key_too_short` below 32), 1–255 with one.
        body (CreateWebhook):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | WebhookCreated]
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
    body: CreateWebhook,
    idempotency_key: str | Unset = UNSET,

) -> Problem | WebhookCreated | None:
    """ Register a webhook (its signing secret is shown once)

     With an organiser token: the server will POST a `WebhookDelivery` to `url` for each of `events` that
    happens
    after now in the organiser's games (those created with its token: batches, and `POST /v1/games` sent
    with
    it), or only in `batch`'s games. `events` are some of `game.started`, `game.seat_out` (a seat
    resigned or
    timed out; one delivery per seat), `game.finished` and `game.cancelled` (the host cancelled the
    game);
    without `events`, all four. A webhook without `batch` may also name `log.checkpoint`: one delivery
    per
    checkpoint the transparency log publishes after now, so that the tournament keeps its own copy of
    each
    (with `batch`, `400 invalid_request`: a checkpoint covers every game of the server). See the
    `gameEvent` callback below for the request the receiver gets and
    how to check its signature with `secret`, which is shown only in this answer.

    Deliveries go to public addresses only: a `url` naming a loopback, private, link-local or other non-
    public
    address is refused with `400 invalid_request` (unless the operator allows private addresses), and a
    host
    name is resolved again before every attempt. IPv6 addresses that embed an IPv4 one (NAT64
    `64:ff9b::/96`
    and `64:ff9b:1::/48`, 6to4 `2002::/16`, Teredo `2001::/32`, IPv4-mapped `::ffff:0:0/96`) count as
    not
    public.

    An organiser holds at most `CABLECAR_WEBHOOKS_PER_ORGANISER` active webhooks (10 by default): one
    more is
    refused with `409 limit_reached`; delete one first.

    Each attempt has one overall deadline, `CABLECAR_WEBHOOK_TIMEOUT_SECONDS`, for connecting, sending
    and the
    whole answer (of which at most 64 KiB is read); the delivery's `last_error` says what went wrong in
    fixed
    words that never repeat resolved addresses.

    Args:
        idempotency_key (str | Unset): 32–255 characters without an organiser token (`400
            idempotency_key_too_short` below 32), 1–255 with one.
        body (CreateWebhook):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | WebhookCreated
     """


    return (await asyncio_detailed(
        client=client,
body=body,
idempotency_key=idempotency_key,

    )).parsed
