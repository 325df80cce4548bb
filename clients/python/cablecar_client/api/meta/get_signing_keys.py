from http import HTTPStatus
from typing import Any, cast
from urllib.parse import quote

import httpx

from ...client import AuthenticatedClient, Client
from ...types import Response, UNSET
from ... import errors

from ...models.problem import Problem
from ...models.signing_keys import SigningKeys
from typing import cast



def _get_kwargs(
    
) -> dict[str, Any]:
    

    

    

    _kwargs: dict[str, Any] = {
        "method": "get",
        "url": "/v1/keys",
    }


    return _kwargs



def _parse_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Problem | SigningKeys | None:
    if response.status_code == 200:
        response_200 = SigningKeys.from_dict(response.json())



        return response_200

    if response.status_code == 400:
        response_400 = Problem.from_dict(response.json())



        return response_400

    if response.status_code == 429:
        response_429 = Problem.from_dict(response.json())



        return response_429

    if client.raise_on_unexpected_status:
        raise errors.UnexpectedStatus(response.status_code, response.content)
    else:
        return None


def _build_response(*, client: AuthenticatedClient | Client, response: httpx.Response) -> Response[Problem | SigningKeys]:
    return Response(
        status_code=HTTPStatus(response.status_code),
        content=response.content,
        headers=response.headers,
        parsed=_parse_response(client=client, response=response),
    )


def sync_detailed(
    *,
    client: AuthenticatedClient | Client,

) -> Response[Problem | SigningKeys]:
    """ The public keys the server signs its records with

     Every event the server stores carries `signature` (Ed25519 over the ASCII bytes of the event's
    `hash`) and
    `key_id`. This lists the current key and every retired one (so records signed before a key rotation
    still
    verify). The keys come from the server's configuration, never from its database. Save this answer to
    check
    exports offline: `cablecar verify --keys KEYS.json FILE`. An event recorded before its key's
    `created_at`, or
    after its `retired_at`, fails verification.

    Each key's lifetime is also recorded as events of the server's own stream (game id `_server`, never
    listed
    or served as a game): `key_added` `{"key_id", "public_key", "created_at"}` when a server first
    starts with
    the key, `key_retired` `{"key_id", "public_key", "retired_at"}` when `cablecar keys rotate` retires
    it (a
    rotation's new key is introduced by the old one's signature). Those events are leaves of the
    transparency
    log like any event (their leaf salt is public: 32 zero bytes), so a checkpoint attests them; each
    key
    names their seqs (`added_seq`, `retired_seq`) and the tree at its retirement (`retired_tree_size`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SigningKeys]
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

) -> Problem | SigningKeys | None:
    """ The public keys the server signs its records with

     Every event the server stores carries `signature` (Ed25519 over the ASCII bytes of the event's
    `hash`) and
    `key_id`. This lists the current key and every retired one (so records signed before a key rotation
    still
    verify). The keys come from the server's configuration, never from its database. Save this answer to
    check
    exports offline: `cablecar verify --keys KEYS.json FILE`. An event recorded before its key's
    `created_at`, or
    after its `retired_at`, fails verification.

    Each key's lifetime is also recorded as events of the server's own stream (game id `_server`, never
    listed
    or served as a game): `key_added` `{"key_id", "public_key", "created_at"}` when a server first
    starts with
    the key, `key_retired` `{"key_id", "public_key", "retired_at"}` when `cablecar keys rotate` retires
    it (a
    rotation's new key is introduced by the old one's signature). Those events are leaves of the
    transparency
    log like any event (their leaf salt is public: 32 zero bytes), so a checkpoint attests them; each
    key
    names their seqs (`added_seq`, `retired_seq`) and the tree at its retirement (`retired_tree_size`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SigningKeys
     """


    return sync_detailed(
        client=client,

    ).parsed

async def asyncio_detailed(
    *,
    client: AuthenticatedClient | Client,

) -> Response[Problem | SigningKeys]:
    """ The public keys the server signs its records with

     Every event the server stores carries `signature` (Ed25519 over the ASCII bytes of the event's
    `hash`) and
    `key_id`. This lists the current key and every retired one (so records signed before a key rotation
    still
    verify). The keys come from the server's configuration, never from its database. Save this answer to
    check
    exports offline: `cablecar verify --keys KEYS.json FILE`. An event recorded before its key's
    `created_at`, or
    after its `retired_at`, fails verification.

    Each key's lifetime is also recorded as events of the server's own stream (game id `_server`, never
    listed
    or served as a game): `key_added` `{"key_id", "public_key", "created_at"}` when a server first
    starts with
    the key, `key_retired` `{"key_id", "public_key", "retired_at"}` when `cablecar keys rotate` retires
    it (a
    rotation's new key is introduced by the old one's signature). Those events are leaves of the
    transparency
    log like any event (their leaf salt is public: 32 zero bytes), so a checkpoint attests them; each
    key
    names their seqs (`added_seq`, `retired_seq`) and the tree at its retirement (`retired_tree_size`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Response[Problem | SigningKeys]
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

) -> Problem | SigningKeys | None:
    """ The public keys the server signs its records with

     Every event the server stores carries `signature` (Ed25519 over the ASCII bytes of the event's
    `hash`) and
    `key_id`. This lists the current key and every retired one (so records signed before a key rotation
    still
    verify). The keys come from the server's configuration, never from its database. Save this answer to
    check
    exports offline: `cablecar verify --keys KEYS.json FILE`. An event recorded before its key's
    `created_at`, or
    after its `retired_at`, fails verification.

    Each key's lifetime is also recorded as events of the server's own stream (game id `_server`, never
    listed
    or served as a game): `key_added` `{"key_id", "public_key", "created_at"}` when a server first
    starts with
    the key, `key_retired` `{"key_id", "public_key", "retired_at"}` when `cablecar keys rotate` retires
    it (a
    rotation's new key is introduced by the old one's signature). Those events are leaves of the
    transparency
    log like any event (their leaf salt is public: 32 zero bytes), so a checkpoint attests them; each
    key
    names their seqs (`added_seq`, `retired_seq`) and the tree at its retirement (`retired_tree_size`).

    Raises:
        errors.UnexpectedStatus: If the server returns an undocumented status code and Client.raise_on_unexpected_status is True.
        httpx.TimeoutException: If the request takes longer than Client.timeout.

    Returns:
        Problem | SigningKeys
     """


    return (await asyncio_detailed(
        client=client,

    )).parsed
