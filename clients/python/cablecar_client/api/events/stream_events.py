from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    id: str,
    *,
    after: int | Unset = UNSET,
    ticket: str | Unset = UNSET,
    last_event_id: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(last_event_id, Unset):
        headers["Last-Event-ID"] = last_event_id



    

    params: dict[str, Any] = {}

    params["after"] = after

    params["ticket"] = ticket


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/games/{id}/events/stream".format(id=quote(str(id), safe=""),),
        "params": params,
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | str | None:
    if response.status_code == 200:
        response_200 = response.text
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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | str]:
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
    after: int | Unset = UNSET,
    ticket: str | Unset = UNSET,
    last_event_id: str | Unset = UNSET,

) -> Response[Problem | str]:
    """ The event log as Server-Sent Events

     The events after `Last-Event-ID` (or `after`, or from the start) as they happen. Messages:

    * `retry: 2000` first (reconnect delay for `EventSource`);
    * then, on every connection and reconnection, `event: view` with `data: <StreamView JSON>`: the
    game's
      `version`, `status` and `active_seats` as it stands, and the caller's `seat` (no `id:`, so
      `Last-Event-ID` is unchanged): a client reconnecting at the head of the log knows whose turn it is
    at once;
    * one message per event: `id: <seq>` and `data: <Event JSON>` (as in `GET /v1/games/{id}/events`,
    with
      the game's `version` and `active_seats` as the server read them with that event);
    * `: keep-alive` comment lines while nothing happens;
    * once the game is over: `event: end` with `data: {"version": N, "status": S}`, `S` being the final
      status: `finished`, or `cancelled` for a game its host cancelled (its last event is then
      `game_cancelled`); then the server closes the stream.

    A timeout, a resignation and a cancel arrive like any other event (`seat_timed_out`,
    `seat_resigned`,
    `game_cancelled`).

    The server also closes an open stream after a few minutes (300 s by default), and at once when
    the worker serving it stops; reconnect with `Last-Event-ID`. A stream opened with a seat token ends
    within a few seconds of that token being rotated away (on any worker or host; its last line is a
    comment saying so): reconnect with the new token.

    A browser's `EventSource` cannot send `Authorization`: it opens a seat's stream with `?ticket=`, a
    single-use ticket from `POST /v1/games/{id}/stream-tickets` (valid at most 60 s). The stream is then
    the
    seat's, as if opened with the seat token that asked for the ticket, and ends likewise once that
    token is
    rotated away. A used, expired or unknown ticket, one of another game, or one whose seat token was
    rotated
    away is `401 unauthorized` (ask for a new ticket on each reconnection); a ticket together with an
    `Authorization` header is `400 invalid_request`. A ticket never appears in the server's logs.
    Opening streams is rate limited per
    client address (see *Rate limits*), and each server worker holds a limited number of streams, in
    all and from one client address: beyond them the answer is `503 streams_busy` with `Retry-After`.
    The response schema below (`EventStream`) describes the whole body: a string whose content is the
    stream's messages in order, each an `SseMessage` as an `EventSource` delivers it.

    ```
    retry: 2000

    event: view
    data: {"game_id":"3f9a1c2b7d4e5f60","status":"playing","seat":null,"version":8,"active_seats":[0]}

    id: 1
    data: {"seq":1,"type":"game_set_up","schema_version":1,"seat":null,"recorded_at":"…","payload":{…},"
    version":8,"active_seats":[0]}

    : keep-alive

    event: end
    data: {"version":212,"status":"finished"}
    ```

    Args:
        id (str):
        after (int | Unset):
        ticket (str | Unset):
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
     """


    kwargs = _get_kwargs(
        id=id,
after=after,
ticket=ticket,
last_event_id=last_event_id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    ticket: str | Unset = UNSET,
    last_event_id: str | Unset = UNSET,

) -> Problem | str | None:
    """ The event log as Server-Sent Events

     The events after `Last-Event-ID` (or `after`, or from the start) as they happen. Messages:

    * `retry: 2000` first (reconnect delay for `EventSource`);
    * then, on every connection and reconnection, `event: view` with `data: <StreamView JSON>`: the
    game's
      `version`, `status` and `active_seats` as it stands, and the caller's `seat` (no `id:`, so
      `Last-Event-ID` is unchanged): a client reconnecting at the head of the log knows whose turn it is
    at once;
    * one message per event: `id: <seq>` and `data: <Event JSON>` (as in `GET /v1/games/{id}/events`,
    with
      the game's `version` and `active_seats` as the server read them with that event);
    * `: keep-alive` comment lines while nothing happens;
    * once the game is over: `event: end` with `data: {"version": N, "status": S}`, `S` being the final
      status: `finished`, or `cancelled` for a game its host cancelled (its last event is then
      `game_cancelled`); then the server closes the stream.

    A timeout, a resignation and a cancel arrive like any other event (`seat_timed_out`,
    `seat_resigned`,
    `game_cancelled`).

    The server also closes an open stream after a few minutes (300 s by default), and at once when
    the worker serving it stops; reconnect with `Last-Event-ID`. A stream opened with a seat token ends
    within a few seconds of that token being rotated away (on any worker or host; its last line is a
    comment saying so): reconnect with the new token.

    A browser's `EventSource` cannot send `Authorization`: it opens a seat's stream with `?ticket=`, a
    single-use ticket from `POST /v1/games/{id}/stream-tickets` (valid at most 60 s). The stream is then
    the
    seat's, as if opened with the seat token that asked for the ticket, and ends likewise once that
    token is
    rotated away. A used, expired or unknown ticket, one of another game, or one whose seat token was
    rotated
    away is `401 unauthorized` (ask for a new ticket on each reconnection); a ticket together with an
    `Authorization` header is `400 invalid_request`. A ticket never appears in the server's logs.
    Opening streams is rate limited per
    client address (see *Rate limits*), and each server worker holds a limited number of streams, in
    all and from one client address: beyond them the answer is `503 streams_busy` with `Retry-After`.
    The response schema below (`EventStream`) describes the whole body: a string whose content is the
    stream's messages in order, each an `SseMessage` as an `EventSource` delivers it.

    ```
    retry: 2000

    event: view
    data: {"game_id":"3f9a1c2b7d4e5f60","status":"playing","seat":null,"version":8,"active_seats":[0]}

    id: 1
    data: {"seq":1,"type":"game_set_up","schema_version":1,"seat":null,"recorded_at":"…","payload":{…},"
    version":8,"active_seats":[0]}

    : keep-alive

    event: end
    data: {"version":212,"status":"finished"}
    ```

    Args:
        id (str):
        after (int | Unset):
        ticket (str | Unset):
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
     """


    return sync_detailed(
        id=id,
client=client,
after=after,
ticket=ticket,
last_event_id=last_event_id,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    ticket: str | Unset = UNSET,
    last_event_id: str | Unset = UNSET,

) -> Response[Problem | str]:
    """ The event log as Server-Sent Events

     The events after `Last-Event-ID` (or `after`, or from the start) as they happen. Messages:

    * `retry: 2000` first (reconnect delay for `EventSource`);
    * then, on every connection and reconnection, `event: view` with `data: <StreamView JSON>`: the
    game's
      `version`, `status` and `active_seats` as it stands, and the caller's `seat` (no `id:`, so
      `Last-Event-ID` is unchanged): a client reconnecting at the head of the log knows whose turn it is
    at once;
    * one message per event: `id: <seq>` and `data: <Event JSON>` (as in `GET /v1/games/{id}/events`,
    with
      the game's `version` and `active_seats` as the server read them with that event);
    * `: keep-alive` comment lines while nothing happens;
    * once the game is over: `event: end` with `data: {"version": N, "status": S}`, `S` being the final
      status: `finished`, or `cancelled` for a game its host cancelled (its last event is then
      `game_cancelled`); then the server closes the stream.

    A timeout, a resignation and a cancel arrive like any other event (`seat_timed_out`,
    `seat_resigned`,
    `game_cancelled`).

    The server also closes an open stream after a few minutes (300 s by default), and at once when
    the worker serving it stops; reconnect with `Last-Event-ID`. A stream opened with a seat token ends
    within a few seconds of that token being rotated away (on any worker or host; its last line is a
    comment saying so): reconnect with the new token.

    A browser's `EventSource` cannot send `Authorization`: it opens a seat's stream with `?ticket=`, a
    single-use ticket from `POST /v1/games/{id}/stream-tickets` (valid at most 60 s). The stream is then
    the
    seat's, as if opened with the seat token that asked for the ticket, and ends likewise once that
    token is
    rotated away. A used, expired or unknown ticket, one of another game, or one whose seat token was
    rotated
    away is `401 unauthorized` (ask for a new ticket on each reconnection); a ticket together with an
    `Authorization` header is `400 invalid_request`. A ticket never appears in the server's logs.
    Opening streams is rate limited per
    client address (see *Rate limits*), and each server worker holds a limited number of streams, in
    all and from one client address: beyond them the answer is `503 streams_busy` with `Retry-After`.
    The response schema below (`EventStream`) describes the whole body: a string whose content is the
    stream's messages in order, each an `SseMessage` as an `EventSource` delivers it.

    ```
    retry: 2000

    event: view
    data: {"game_id":"3f9a1c2b7d4e5f60","status":"playing","seat":null,"version":8,"active_seats":[0]}

    id: 1
    data: {"seq":1,"type":"game_set_up","schema_version":1,"seat":null,"recorded_at":"…","payload":{…},"
    version":8,"active_seats":[0]}

    : keep-alive

    event: end
    data: {"version":212,"status":"finished"}
    ```

    Args:
        id (str):
        after (int | Unset):
        ticket (str | Unset):
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | str]
     """


    kwargs = _get_kwargs(
        id=id,
after=after,
ticket=ticket,
last_event_id=last_event_id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient,
    after: int | Unset = UNSET,
    ticket: str | Unset = UNSET,
    last_event_id: str | Unset = UNSET,

) -> Problem | str | None:
    """ The event log as Server-Sent Events

     The events after `Last-Event-ID` (or `after`, or from the start) as they happen. Messages:

    * `retry: 2000` first (reconnect delay for `EventSource`);
    * then, on every connection and reconnection, `event: view` with `data: <StreamView JSON>`: the
    game's
      `version`, `status` and `active_seats` as it stands, and the caller's `seat` (no `id:`, so
      `Last-Event-ID` is unchanged): a client reconnecting at the head of the log knows whose turn it is
    at once;
    * one message per event: `id: <seq>` and `data: <Event JSON>` (as in `GET /v1/games/{id}/events`,
    with
      the game's `version` and `active_seats` as the server read them with that event);
    * `: keep-alive` comment lines while nothing happens;
    * once the game is over: `event: end` with `data: {"version": N, "status": S}`, `S` being the final
      status: `finished`, or `cancelled` for a game its host cancelled (its last event is then
      `game_cancelled`); then the server closes the stream.

    A timeout, a resignation and a cancel arrive like any other event (`seat_timed_out`,
    `seat_resigned`,
    `game_cancelled`).

    The server also closes an open stream after a few minutes (300 s by default), and at once when
    the worker serving it stops; reconnect with `Last-Event-ID`. A stream opened with a seat token ends
    within a few seconds of that token being rotated away (on any worker or host; its last line is a
    comment saying so): reconnect with the new token.

    A browser's `EventSource` cannot send `Authorization`: it opens a seat's stream with `?ticket=`, a
    single-use ticket from `POST /v1/games/{id}/stream-tickets` (valid at most 60 s). The stream is then
    the
    seat's, as if opened with the seat token that asked for the ticket, and ends likewise once that
    token is
    rotated away. A used, expired or unknown ticket, one of another game, or one whose seat token was
    rotated
    away is `401 unauthorized` (ask for a new ticket on each reconnection); a ticket together with an
    `Authorization` header is `400 invalid_request`. A ticket never appears in the server's logs.
    Opening streams is rate limited per
    client address (see *Rate limits*), and each server worker holds a limited number of streams, in
    all and from one client address: beyond them the answer is `503 streams_busy` with `Retry-After`.
    The response schema below (`EventStream`) describes the whole body: a string whose content is the
    stream's messages in order, each an `SseMessage` as an `EventSource` delivers it.

    ```
    retry: 2000

    event: view
    data: {"game_id":"3f9a1c2b7d4e5f60","status":"playing","seat":null,"version":8,"active_seats":[0]}

    id: 1
    data: {"seq":1,"type":"game_set_up","schema_version":1,"seat":null,"recorded_at":"…","payload":{…},"
    version":8,"active_seats":[0]}

    : keep-alive

    event: end
    data: {"version":212,"status":"finished"}
    ```

    Args:
        id (str):
        after (int | Unset):
        ticket (str | Unset):
        last_event_id (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | str
     """


    return (await asyncio_detailed(
        id=id,
client=client,
after=after,
ticket=ticket,
last_event_id=last_event_id,

    )).parsed
