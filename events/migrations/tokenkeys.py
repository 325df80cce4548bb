"""Keying the token hashes stored before they were keyed (issue 34).

Games and organisers created before stored the plain SHA-256 of each token;
the server now stores a keyed hash (``k1:<epoch>:<hex>``, see
``service.adapters.tokens``) made with a key the database never holds, and a
plain hash authenticates nobody.  The keyed hash is computed from the plain
one, so every token in use keeps working once its hash is keyed: that is done
here, by whoever migrates the database and holds the server's secret
(``cablecar migrate`` on PostgreSQL, as the owner; the embedded store when it
opens), inside the migration's transaction.  A database with plain hashes and
nobody to key them is refused (:class:`~events.migrations.apply.MigrationError`), so no
token stops working unannounced.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

from domain.core import JSON
from events.sql.rows import metadata_json

#: ``rekey(plain, scope, slot)``: the keyed hash of a token whose SHA-256 is ``plain``
Rekey = Callable[[str, str, str], str]

#: the scheme tag of a keyed hash, and what every keyed hash begins with (anything else is plain, or nothing)
KEYED = "k1"
KEYED_PREFIX = f"{KEYED}:"
#: how the server names the slot of a host's and an organiser's token (a seat's slot is its number)
HOST_SLOT = "host"
ORGANISER_SLOT = "organiser"

# Rows holding a plain hash: every game has a host token, so a game keyed has a keyed host hash.
_PLAIN_GAMES = {
    "postgres": "SELECT game_id, metadata::text FROM games WHERE metadata->>'host_token_hash' NOT LIKE 'k1:%'"
                " FOR UPDATE",
    "sqlite": "SELECT game_id, metadata FROM games WHERE json_extract(metadata, '$.host_token_hash') NOT LIKE 'k1:%'",
}
_PLAIN_ORGANISERS = {
    "postgres": "SELECT organiser_id, token_hash FROM organisers WHERE token_hash NOT LIKE 'k1:%' FOR UPDATE",
    "sqlite": "SELECT organiser_id, token_hash FROM organisers WHERE token_hash NOT LIKE 'k1:%'",
}
_SET_GAME = {
    "postgres": "UPDATE games SET metadata = %s::jsonb WHERE game_id = %s",
    "sqlite": "UPDATE games SET metadata = ? WHERE game_id = ?",
}
_SET_ORGANISER = {
    "postgres": "UPDATE organisers SET token_hash = %s WHERE organiser_id = %s",
    "sqlite": "UPDATE organisers SET token_hash = ? WHERE organiser_id = ?",
}


class PlainTokenHashes(Exception):
    """Plain token hashes are stored and nobody was given the key to key them."""


def _keyed(value: JSON, rekey: Rekey, scope: str, slot: str) -> JSON:
    if isinstance(value, str) and not value.startswith(KEYED_PREFIX):
        return rekey(value, scope, slot)
    return value


def _keyed_metadata(game_id: str, metadata: dict[str, Any], rekey: Rekey) -> dict[str, Any]:
    seats = metadata.get("seat_token_hashes")
    if isinstance(seats, list):
        metadata["seat_token_hashes"] = [_keyed(h, rekey, game_id, str(i)) for i, h in enumerate(seats)]
    metadata["host_token_hash"] = _keyed(metadata.get("host_token_hash"), rekey, game_id, HOST_SLOT)
    return metadata


def key_plain_hashes(cur: Any, dialect: str, rekey: Rekey | None) -> int:
    """Key every plain token hash in the database ``cur`` writes to (inside
    the caller's transaction); how many rows changed.  PlainTokenHashes
    when there are some and ``rekey`` is None."""
    games = cur.execute(_PLAIN_GAMES[dialect]).fetchall()
    organisers = cur.execute(_PLAIN_ORGANISERS[dialect]).fetchall()
    if not games and not organisers:
        return 0
    if rekey is None:
        raise PlainTokenHashes(
            f"{len(games)} games and {len(organisers)} organisers store token hashes that are not keyed yet: "
            "migrate with the server's secret key (CABLECAR_SECRET_KEY, the same the server runs with), "
            "so that their tokens keep working"
        )
    for game_id, metadata in games:
        keyed = _keyed_metadata(game_id, json.loads(metadata), rekey)
        cur.execute(_SET_GAME[dialect], (metadata_json(keyed), game_id))
    for organiser_id, token_hash in organisers:
        cur.execute(_SET_ORGANISER[dialect], (rekey(token_hash, organiser_id, ORGANISER_SLOT), organiser_id))
    return len(games) + len(organisers)
