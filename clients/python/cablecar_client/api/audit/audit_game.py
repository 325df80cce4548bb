from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.audit import Audit
from ...models.problem import Problem
from typing import cast



def _get_kwargs(
    id: str,

) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/games/{id}/audit".format(id=quote(str(id), safe=""),),
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Audit | Problem | None:
    if response.status_code == 200:
        response_200 = Audit.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Audit | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,

) -> Response[Audit | Problem]:
    """ Verify a stored game

     Runs the offline verifier (`cablecar verify`) on the stored game: the hash chain, every event's
    signature
    (check `signatures`: against the server's keys; a bad one also makes every action of the game answer
    `409 game_damaged`, its reads stop at the event before, saying `damaged_from`, and nothing is
    appended to
    it; a game an operator repaired lists each run of events moved aside in `quarantined`), the seed
    against the
    commitment made at creation, the opening events re-derived from the seed, every move replayed
    through the
    rules (and every timeout checked against the recorded timestamps: the seat's deadline, derived from
    the
    events before it, had passed when it was recorded; its consequences are the forfeit rules'), and the
    final
    status and result. For a game in progress the server uses its secret seed without revealing it. `ok`
    is
    true when every check was made and passed.

    Replaying a game is the costliest read: audits are rate limited per client address
    (`CABLECAR_AUDIT_RATE_LIMIT`, `30/minute` by default; past it `429 rate_limited`), and a server
    worker
    gives the same answer again for the same game version for up to 30 s.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Audit | Problem]
     """


    kwargs = _get_kwargs(
        id=id,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    id: str,
    *,
    client: AuthenticatedClient | Client,

) -> Audit | Problem | None:
    """ Verify a stored game

     Runs the offline verifier (`cablecar verify`) on the stored game: the hash chain, every event's
    signature
    (check `signatures`: against the server's keys; a bad one also makes every action of the game answer
    `409 game_damaged`, its reads stop at the event before, saying `damaged_from`, and nothing is
    appended to
    it; a game an operator repaired lists each run of events moved aside in `quarantined`), the seed
    against the
    commitment made at creation, the opening events re-derived from the seed, every move replayed
    through the
    rules (and every timeout checked against the recorded timestamps: the seat's deadline, derived from
    the
    events before it, had passed when it was recorded; its consequences are the forfeit rules'), and the
    final
    status and result. For a game in progress the server uses its secret seed without revealing it. `ok`
    is
    true when every check was made and passed.

    Replaying a game is the costliest read: audits are rate limited per client address
    (`CABLECAR_AUDIT_RATE_LIMIT`, `30/minute` by default; past it `429 rate_limited`), and a server
    worker
    gives the same answer again for the same game version for up to 30 s.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Audit | Problem
     """


    return sync_detailed(
        id=id,
client=client,

    ).parsed

async def asyncio_detailed(
    id: str,
    *,
    client: AuthenticatedClient | Client,

) -> Response[Audit | Problem]:
    """ Verify a stored game

     Runs the offline verifier (`cablecar verify`) on the stored game: the hash chain, every event's
    signature
    (check `signatures`: against the server's keys; a bad one also makes every action of the game answer
    `409 game_damaged`, its reads stop at the event before, saying `damaged_from`, and nothing is
    appended to
    it; a game an operator repaired lists each run of events moved aside in `quarantined`), the seed
    against the
    commitment made at creation, the opening events re-derived from the seed, every move replayed
    through the
    rules (and every timeout checked against the recorded timestamps: the seat's deadline, derived from
    the
    events before it, had passed when it was recorded; its consequences are the forfeit rules'), and the
    final
    status and result. For a game in progress the server uses its secret seed without revealing it. `ok`
    is
    true when every check was made and passed.

    Replaying a game is the costliest read: audits are rate limited per client address
    (`CABLECAR_AUDIT_RATE_LIMIT`, `30/minute` by default; past it `429 rate_limited`), and a server
    worker
    gives the same answer again for the same game version for up to 30 s.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Audit | Problem]
     """


    kwargs = _get_kwargs(
        id=id,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    id: str,
    *,
    client: AuthenticatedClient | Client,

) -> Audit | Problem | None:
    """ Verify a stored game

     Runs the offline verifier (`cablecar verify`) on the stored game: the hash chain, every event's
    signature
    (check `signatures`: against the server's keys; a bad one also makes every action of the game answer
    `409 game_damaged`, its reads stop at the event before, saying `damaged_from`, and nothing is
    appended to
    it; a game an operator repaired lists each run of events moved aside in `quarantined`), the seed
    against the
    commitment made at creation, the opening events re-derived from the seed, every move replayed
    through the
    rules (and every timeout checked against the recorded timestamps: the seat's deadline, derived from
    the
    events before it, had passed when it was recorded; its consequences are the forfeit rules'), and the
    final
    status and result. For a game in progress the server uses its secret seed without revealing it. `ok`
    is
    true when every check was made and passed.

    Replaying a game is the costliest read: audits are rate limited per client address
    (`CABLECAR_AUDIT_RATE_LIMIT`, `30/minute` by default; past it `429 rate_limited`), and a server
    worker
    gives the same answer again for the same game version for up to 30 s.

    Args:
        id (str):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Audit | Problem
     """


    return (await asyncio_detailed(
        id=id,
client=client,

    )).parsed
