from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.batch_results import BatchResults
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    batch_id: str,
    *,
    accept: str | Unset = UNSET,

) -> dict[str, Any]:
    headers: dict[str, Any] = {}
    if not isinstance(accept, Unset):
        headers["Accept"] = accept



    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/batches/{batch_id}/results".format(batch_id=quote(str(batch_id), safe=""),),
    }


    _kwargs["headers"] = headers
    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> BatchResults | Problem | None:
    if response.status_code == 200:
        response_200 = BatchResults.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[BatchResults | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    batch_id: str,
    *,
    client: AuthenticatedClient,
    accept: str | Unset = UNSET,

) -> Response[BatchResults | Problem]:
    """ Per table, the players' scores, ranks and winners

     With the organiser token that created the batch. For each table: its players with `score` and `rank`
    (ttr-sf: the final total, ranked by total then completed tickets, ties sharing a rank; cable-car:
    the
    winner ranks 1, the others 2), `winner`, `completed_tickets` (ttr-sf) and `standing` (`in`: played
    on to
    the end or still playing; `resigned`; `timed_out`). A seat that is out ranks below every seat still
    in,
    whatever its points (seats out rank among themselves in the usual order); when one seat is left in
    it wins
    (`reason` `forfeit`). Tables still being played, and cancelled tables, are listed unranked. The
    timeouts
    due in a timed table are appended before it is reported. `finished` is true once every table is over
    (finished or cancelled).

    A damaged table (a stored event of its game is not genuine, see `409 game_damaged`) never blocks the
    others: it is reported as its game stood before its first bad event, marked `damaged_from`, and
    ranked
    only if the game had ended before that event (else unranked, like a table still being played,
    whatever the
    bad events claim).

    The same as CSV (`BatchResultsCsv`) is `GET /v1/batches/{batch_id}/results.csv`. This path declares
    one
    media type, JSON, so that generated clients type its answer as `BatchResults`; for compatibility it
    still
    answers CSV to `Accept: text/csv` and to `?format=csv` (chosen over `Accept`; `?format=json` gives
    JSON).
    *Deprecated:* both, removed in a later release; use the `.csv` path.

    Args:
        batch_id (str):
        accept (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchResults | Problem]
     """


    kwargs = _get_kwargs(
        batch_id=batch_id,
accept=accept,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    batch_id: str,
    *,
    client: AuthenticatedClient,
    accept: str | Unset = UNSET,

) -> BatchResults | Problem | None:
    """ Per table, the players' scores, ranks and winners

     With the organiser token that created the batch. For each table: its players with `score` and `rank`
    (ttr-sf: the final total, ranked by total then completed tickets, ties sharing a rank; cable-car:
    the
    winner ranks 1, the others 2), `winner`, `completed_tickets` (ttr-sf) and `standing` (`in`: played
    on to
    the end or still playing; `resigned`; `timed_out`). A seat that is out ranks below every seat still
    in,
    whatever its points (seats out rank among themselves in the usual order); when one seat is left in
    it wins
    (`reason` `forfeit`). Tables still being played, and cancelled tables, are listed unranked. The
    timeouts
    due in a timed table are appended before it is reported. `finished` is true once every table is over
    (finished or cancelled).

    A damaged table (a stored event of its game is not genuine, see `409 game_damaged`) never blocks the
    others: it is reported as its game stood before its first bad event, marked `damaged_from`, and
    ranked
    only if the game had ended before that event (else unranked, like a table still being played,
    whatever the
    bad events claim).

    The same as CSV (`BatchResultsCsv`) is `GET /v1/batches/{batch_id}/results.csv`. This path declares
    one
    media type, JSON, so that generated clients type its answer as `BatchResults`; for compatibility it
    still
    answers CSV to `Accept: text/csv` and to `?format=csv` (chosen over `Accept`; `?format=json` gives
    JSON).
    *Deprecated:* both, removed in a later release; use the `.csv` path.

    Args:
        batch_id (str):
        accept (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchResults | Problem
     """


    return sync_detailed(
        batch_id=batch_id,
client=client,
accept=accept,

    ).parsed

async def asyncio_detailed(
    batch_id: str,
    *,
    client: AuthenticatedClient,
    accept: str | Unset = UNSET,

) -> Response[BatchResults | Problem]:
    """ Per table, the players' scores, ranks and winners

     With the organiser token that created the batch. For each table: its players with `score` and `rank`
    (ttr-sf: the final total, ranked by total then completed tickets, ties sharing a rank; cable-car:
    the
    winner ranks 1, the others 2), `winner`, `completed_tickets` (ttr-sf) and `standing` (`in`: played
    on to
    the end or still playing; `resigned`; `timed_out`). A seat that is out ranks below every seat still
    in,
    whatever its points (seats out rank among themselves in the usual order); when one seat is left in
    it wins
    (`reason` `forfeit`). Tables still being played, and cancelled tables, are listed unranked. The
    timeouts
    due in a timed table are appended before it is reported. `finished` is true once every table is over
    (finished or cancelled).

    A damaged table (a stored event of its game is not genuine, see `409 game_damaged`) never blocks the
    others: it is reported as its game stood before its first bad event, marked `damaged_from`, and
    ranked
    only if the game had ended before that event (else unranked, like a table still being played,
    whatever the
    bad events claim).

    The same as CSV (`BatchResultsCsv`) is `GET /v1/batches/{batch_id}/results.csv`. This path declares
    one
    media type, JSON, so that generated clients type its answer as `BatchResults`; for compatibility it
    still
    answers CSV to `Accept: text/csv` and to `?format=csv` (chosen over `Accept`; `?format=json` gives
    JSON).
    *Deprecated:* both, removed in a later release; use the `.csv` path.

    Args:
        batch_id (str):
        accept (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[BatchResults | Problem]
     """


    kwargs = _get_kwargs(
        batch_id=batch_id,
accept=accept,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    batch_id: str,
    *,
    client: AuthenticatedClient,
    accept: str | Unset = UNSET,

) -> BatchResults | Problem | None:
    """ Per table, the players' scores, ranks and winners

     With the organiser token that created the batch. For each table: its players with `score` and `rank`
    (ttr-sf: the final total, ranked by total then completed tickets, ties sharing a rank; cable-car:
    the
    winner ranks 1, the others 2), `winner`, `completed_tickets` (ttr-sf) and `standing` (`in`: played
    on to
    the end or still playing; `resigned`; `timed_out`). A seat that is out ranks below every seat still
    in,
    whatever its points (seats out rank among themselves in the usual order); when one seat is left in
    it wins
    (`reason` `forfeit`). Tables still being played, and cancelled tables, are listed unranked. The
    timeouts
    due in a timed table are appended before it is reported. `finished` is true once every table is over
    (finished or cancelled).

    A damaged table (a stored event of its game is not genuine, see `409 game_damaged`) never blocks the
    others: it is reported as its game stood before its first bad event, marked `damaged_from`, and
    ranked
    only if the game had ended before that event (else unranked, like a table still being played,
    whatever the
    bad events claim).

    The same as CSV (`BatchResultsCsv`) is `GET /v1/batches/{batch_id}/results.csv`. This path declares
    one
    media type, JSON, so that generated clients type its answer as `BatchResults`; for compatibility it
    still
    answers CSV to `Accept: text/csv` and to `?format=csv` (chosen over `Accept`; `?format=json` gives
    JSON).
    *Deprecated:* both, removed in a later release; use the `.csv` path.

    Args:
        batch_id (str):
        accept (str | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        BatchResults | Problem
     """


    return (await asyncio_detailed(
        batch_id=batch_id,
client=client,
accept=accept,

    )).parsed
