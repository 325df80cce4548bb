from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.log_checkpoint import LogCheckpoint
from ...models.problem import Problem
from ...types import UNSET, Unset
from typing import cast



def _get_kwargs(
    *,
    tree_size: int | Unset = UNSET,

) -> dict[str, Any]:
    

    

    params: dict[str, Any] = {}

    params["tree_size"] = tree_size


    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}


    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/log/checkpoint",
        "params": params,
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> LogCheckpoint | Problem | None:
    if response.status_code == 200:
        response_200 = LogCheckpoint.from_dict(response.json())



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


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[LogCheckpoint | Problem]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,
    tree_size: int | Unset = UNSET,

) -> Response[LogCheckpoint | Problem]:
    """ A signed checkpoint of the transparency log

     The server keeps one Merkle tree (RFC 9162 §2.1) over every event it has appended, in the global
    log's
    order. An event's leaf input is its `hash` (32 raw bytes) followed by its game's `leaf_salt` (32 raw
    bytes): a per-game secret that the export reveals once the game is finished, so that no leaf, proof
    or
    checkpoint lets anyone test a guess about a game still being played.

    The latest checkpoint, or with `tree_size` an earlier one (every published checkpoint is kept).
    `note` is a
    C2SP `tlog-checkpoint` body (origin line, tree size, root hash in standard base64, each ending with
    a
    newline) followed by a blank line and C2SP signed-note signature lines, one by the server's Ed25519
    key
    that `key_id` names (key name = `origin`; key hash = the first 4 bytes of SHA-256(name ‖ "\\n" ‖
    0x01 ‖
    public key); the public key is listed by `GET /v1/keys`, retired keys included, so a checkpoint
    signed
    before a rotation still verifies). A new checkpoint is published every `CABLECAR_LOG_INTERVAL`
    seconds
    (at most 10) while events are being appended. `404 not_found` before the first one, and for a size
    never
    published.

    Args:
        tree_size (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LogCheckpoint | Problem]
     """


    kwargs = _get_kwargs(
        tree_size=tree_size,

    )

    response = client.get_httpx_client().request(
        **kwargs,
    )

    return _build_response(client=client, response=response)

def sync(
    *,
    client: AuthenticatedClient | Client,
    tree_size: int | Unset = UNSET,

) -> LogCheckpoint | Problem | None:
    """ A signed checkpoint of the transparency log

     The server keeps one Merkle tree (RFC 9162 §2.1) over every event it has appended, in the global
    log's
    order. An event's leaf input is its `hash` (32 raw bytes) followed by its game's `leaf_salt` (32 raw
    bytes): a per-game secret that the export reveals once the game is finished, so that no leaf, proof
    or
    checkpoint lets anyone test a guess about a game still being played.

    The latest checkpoint, or with `tree_size` an earlier one (every published checkpoint is kept).
    `note` is a
    C2SP `tlog-checkpoint` body (origin line, tree size, root hash in standard base64, each ending with
    a
    newline) followed by a blank line and C2SP signed-note signature lines, one by the server's Ed25519
    key
    that `key_id` names (key name = `origin`; key hash = the first 4 bytes of SHA-256(name ‖ "\\n" ‖
    0x01 ‖
    public key); the public key is listed by `GET /v1/keys`, retired keys included, so a checkpoint
    signed
    before a rotation still verifies). A new checkpoint is published every `CABLECAR_LOG_INTERVAL`
    seconds
    (at most 10) while events are being appended. `404 not_found` before the first one, and for a size
    never
    published.

    Args:
        tree_size (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LogCheckpoint | Problem
     """


    return sync_detailed(
        client=client,
tree_size=tree_size,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,
    tree_size: int | Unset = UNSET,

) -> Response[LogCheckpoint | Problem]:
    """ A signed checkpoint of the transparency log

     The server keeps one Merkle tree (RFC 9162 §2.1) over every event it has appended, in the global
    log's
    order. An event's leaf input is its `hash` (32 raw bytes) followed by its game's `leaf_salt` (32 raw
    bytes): a per-game secret that the export reveals once the game is finished, so that no leaf, proof
    or
    checkpoint lets anyone test a guess about a game still being played.

    The latest checkpoint, or with `tree_size` an earlier one (every published checkpoint is kept).
    `note` is a
    C2SP `tlog-checkpoint` body (origin line, tree size, root hash in standard base64, each ending with
    a
    newline) followed by a blank line and C2SP signed-note signature lines, one by the server's Ed25519
    key
    that `key_id` names (key name = `origin`; key hash = the first 4 bytes of SHA-256(name ‖ "\\n" ‖
    0x01 ‖
    public key); the public key is listed by `GET /v1/keys`, retired keys included, so a checkpoint
    signed
    before a rotation still verifies). A new checkpoint is published every `CABLECAR_LOG_INTERVAL`
    seconds
    (at most 10) while events are being appended. `404 not_found` before the first one, and for a size
    never
    published.

    Args:
        tree_size (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[LogCheckpoint | Problem]
     """


    kwargs = _get_kwargs(
        tree_size=tree_size,

    )

    response = await client.get_async_httpx_client().request(
        **kwargs
    )

    return _build_response(client=client, response=response)

async def asyncio(
    *,
    client: AuthenticatedClient | Client,
    tree_size: int | Unset = UNSET,

) -> LogCheckpoint | Problem | None:
    """ A signed checkpoint of the transparency log

     The server keeps one Merkle tree (RFC 9162 §2.1) over every event it has appended, in the global
    log's
    order. An event's leaf input is its `hash` (32 raw bytes) followed by its game's `leaf_salt` (32 raw
    bytes): a per-game secret that the export reveals once the game is finished, so that no leaf, proof
    or
    checkpoint lets anyone test a guess about a game still being played.

    The latest checkpoint, or with `tree_size` an earlier one (every published checkpoint is kept).
    `note` is a
    C2SP `tlog-checkpoint` body (origin line, tree size, root hash in standard base64, each ending with
    a
    newline) followed by a blank line and C2SP signed-note signature lines, one by the server's Ed25519
    key
    that `key_id` names (key name = `origin`; key hash = the first 4 bytes of SHA-256(name ‖ "\\n" ‖
    0x01 ‖
    public key); the public key is listed by `GET /v1/keys`, retired keys included, so a checkpoint
    signed
    before a rotation still verifies). A new checkpoint is published every `CABLECAR_LOG_INTERVAL`
    seconds
    (at most 10) while events are being appended. `404 not_found` before the first one, and for a size
    never
    published.

    Args:
        tree_size (int | Unset):

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        LogCheckpoint | Problem
     """


    return (await asyncio_detailed(
        client=client,
tree_size=tree_size,

    )).parsed
