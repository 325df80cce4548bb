"""Keying the token hashes stored before they were keyed (issue 34).

Games and organisers created before stored the plain SHA-256 of each token;
the server now stores a keyed hash (``k1:<epoch>:<hex>``, see
``service.adapters.tokens``) made with a key the database never holds, and a
plain hash authenticates nobody.  The keyed hash is computed from the plain
one, so every token in use keeps working once its hash is keyed: that is done
here, by whoever migrates the database and holds the server's secret
(``cablecar migrate`` on PostgreSQL, as the owner; the embedded store when it
opens), inside the transaction of the migration that introduced keying
(PostgreSQL ``0040_who_may_act.sql``, SQLite ``0020_keyed_token_hashes.sql``),
and never again (issue 48, :mod:`events.migrations.keying`): a plain hash
found later was written by a login without the secret, perhaps the hash of a
token of its choosing, so it is left as it is, authenticating nobody, and
:func:`plain_hash_rows` names it.
"""

from __future__ import annotations

import json
from typing import Any

from domain.core import JSON
from events.migrations.keying import ASK_FOR_THE_SECRET, NoServerSecret, ServerKeying
from events.sql.rows import metadata_json

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
# The rows a later check names: a seat's hash too (a game may be created with plain ones by a login alone)
_UNKEYED_GAMES = {
    "postgres": "SELECT game_id FROM games WHERE metadata->>'host_token_hash' NOT LIKE 'k1:%' OR EXISTS ("
                " SELECT 1 FROM jsonb_array_elements(CASE jsonb_typeof(metadata->'seat_token_hashes') WHEN 'array'"
                " THEN metadata->'seat_token_hashes' ELSE '[]'::jsonb END) h"
                " WHERE jsonb_typeof(h) = 'string' AND h #>> '{}' NOT LIKE 'k1:%') ORDER BY game_id",
    "sqlite": "SELECT game_id FROM games WHERE json_extract(metadata, '$.host_token_hash') NOT LIKE 'k1:%'"
              " OR EXISTS (SELECT 1 FROM json_each(games.metadata, '$.seat_token_hashes') h"
              " WHERE h.type = 'text' AND h.value NOT LIKE 'k1:%') ORDER BY game_id",
}


def _keyed(value: JSON, keying: ServerKeying, scope: str, slot: str) -> JSON:
    if isinstance(value, str) and not value.startswith(KEYED_PREFIX):
        return keying.rekey(value, scope, slot)
    return value


def _keyed_metadata(game_id: str, metadata: dict[str, Any], keying: ServerKeying) -> dict[str, Any]:
    seats = metadata.get("seat_token_hashes")
    if isinstance(seats, list):
        metadata["seat_token_hashes"] = [_keyed(h, keying, game_id, str(i)) for i, h in enumerate(seats)]
    metadata["host_token_hash"] = _keyed(metadata.get("host_token_hash"), keying, game_id, HOST_SLOT)
    return metadata


def key_plain_hashes(cur: Any, dialect: str, keying: ServerKeying | None) -> int:
    """Key every plain token hash in the database ``cur`` writes to (inside
    the transaction of the migration that introduced keying); how many rows
    changed.  NoServerSecret when there are some and ``keying`` is None."""
    games = cur.execute(_PLAIN_GAMES[dialect]).fetchall()
    organisers = cur.execute(_PLAIN_ORGANISERS[dialect]).fetchall()
    if not games and not organisers:
        return 0
    if keying is None:
        raise NoServerSecret(
            f"{len(games)} games and {len(organisers)} organisers store token hashes that are not keyed yet: "
            + ASK_FOR_THE_SECRET
        )
    for game_id, metadata in games:
        keyed = _keyed_metadata(game_id, json.loads(metadata), keying)
        cur.execute(_SET_GAME[dialect], (metadata_json(keyed), game_id))
    for organiser_id, token_hash in organisers:
        cur.execute(_SET_ORGANISER[dialect], (keying.rekey(token_hash, organiser_id, ORGANISER_SLOT), organiser_id))
    return len(games) + len(organisers)


def plain_hash_rows(cur: Any, dialect: str) -> list[str]:
    """What still holds a token hash that is not keyed, once keying was done
    (nobody with the server's secret wrote it; it authenticates nobody):
    ``organiser ID`` and ``game ID`` lines."""
    organisers = cur.execute(_PLAIN_ORGANISERS[dialect].removesuffix(" FOR UPDATE")
                             + " ORDER BY organiser_id").fetchall()
    games = cur.execute(_UNKEYED_GAMES[dialect]).fetchall()
    return [f"organiser {row[0]}" for row in organisers] + [f"game {row[0]}" for row in games]
