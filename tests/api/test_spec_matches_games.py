"""openapi.yaml (hand-written) against the game definitions.

Every move of every registered game has an action schema in the spec with the
same fields: JSON names, required-ness and every bound both can state (enum
choices, lengths, ranges, item and entry counts, nested objects).  The other
way round, every action schema in the spec belongs to a move.  The schemas are
compared through :mod:`service.api.schemas.action_bodies`, the derivation
``GET /v1/games-types`` serves.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Iterable, Mapping
from functools import cache
from importlib import resources
from typing import Any

import yaml

from domain.body import ENVELOPE_KEYS, body_fields
from domain.core import GameDefinition
from domain.registry import all_games
from service.api.schemas.action_bodies import field_schema
from tests.third_game import GAME as THIRD_GAME

#: the JSON Schema keywords compared; the others (description, examples, the
#: if/then/else of draw_card's slot) say more than a shape can
COMPARED = (
    "type", "const", "enum", "minLength", "maxLength", "pattern", "minimum", "maximum",
    "minItems", "maxItems", "maxProperties", "required",
)


@cache
def spec() -> dict[str, Any]:
    """The packaged openapi.yaml, parsed."""
    data = yaml.safe_load(resources.files("service").joinpath("openapi.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def resolve(document: Mapping[str, Any], node: Any) -> Any:
    """Follow local ``$ref``s to their target."""
    while isinstance(node, Mapping) and "$ref" in node:
        target: Any = document
        for part in node["$ref"].removeprefix("#/").split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        node = target
    return node


def facts(document: Mapping[str, Any], node: Any) -> Any:
    """What a schema states about a value, written one way only, so two schemas
    that accept the same values compare equal (``oneOf`` of disjoint types is
    ``anyOf``; a tuple of equal ``prefixItems`` closed by ``items: false`` is
    ``items``; ``type`` and ``enum`` are sets)."""
    node = resolve(document, node)
    if not isinstance(node, Mapping):
        return node
    out: dict[str, Any] = {}
    for key in COMPARED:
        if key in node:
            value = node[key]
            out[key] = sorted(value if isinstance(value, list) else [value]) if key in ("type", "enum", "required") else value
    items = node.get("items")
    prefix = node.get("prefixItems")
    if prefix and items is False and len({json.dumps(resolve(document, p), sort_keys=True) for p in prefix}) == 1:
        items = prefix[0]
    if items is not None:
        out["items"] = facts(document, items)
    if "properties" in node:
        out["properties"] = {k: facts(document, v) for k, v in node["properties"].items()}
    for key in ("additionalProperties", "propertyNames"):
        if key in node:
            out[key] = facts(document, node[key])
    # ``x-alternatives``: a union written for readers, not for generators (StartRide.path's items)
    alternatives = node.get("anyOf", node.get("oneOf", node.get("x-alternatives")))
    if alternatives is not None:
        out["alternatives"] = sorted(
            (facts(document, a) for a in alternatives), key=lambda a: json.dumps(a, sort_keys=True)
        )
    return out


def disagreements(document: Mapping[str, Any], games: Iterable[GameDefinition[Any]]) -> list[str]:
    """Every way the action schemas of ``document`` differ from the moves of ``games``."""
    problems: list[str] = []
    # ActionRequest is one flat union discriminated by ``type`` (what client
    # generators read), and ``x-game-unions`` names one union per game type
    # (``x-game-type``); a move belongs to its own game's union.
    unions: dict[str, dict[str, str]] = {}
    request = document["components"]["schemas"]["ActionRequest"]
    flat = {item["$ref"] for item in request.get("oneOf", [])}
    if flat != set(request.get("discriminator", {}).get("mapping", {}).values()):
        problems.append("ActionRequest: its oneOf and its discriminator differ")
    for ref in request.get("x-game-unions", []):
        union = resolve(document, ref)
        mapping_of: dict[str, str] = union["discriminator"]["mapping"]
        listed = {item["$ref"] for item in union["oneOf"]}
        if listed != set(mapping_of.values()):
            problems.append(f"{union['x-game-type']}: oneOf {sorted(listed)} and the discriminator "
                            f"{sorted(mapping_of.values())} differ")
        unions[union["x-game-type"]] = mapping_of
        for kind, target in mapping_of.items():
            if request["discriminator"]["mapping"].get(kind) != target:
                problems.append(f"ActionRequest: {kind} is not mapped to {target} as in {union['x-game-type']}")
    mapping = {kind: target for mapping_of in unions.values() for kind, target in mapping_of.items()}
    # keyed by game and move: a move such as ``resign`` belongs to several games
    moves = {(g.type_id, m.type): (g, m) for g in games for m in g.moves}
    for kind in sorted(set(mapping) - {kind for _, kind in moves}):
        problems.append(f"{kind}: an action schema in the spec that is no game's move")
    for (_, kind), (game, move) in sorted(moves.items()):
        if kind not in unions.get(game.type_id, {}):
            problems.append(f"{game.type_id} {kind}: a move without an action schema in the spec")
            continue
        target = unions[game.type_id][kind]
        schema = resolve(document, {"$ref": target})
        where = f"{game.type_id} {kind} ({target})"
        properties = schema.get("properties", {})
        # a one-value enum in a schema of its own: the default openapi-generator ``go`` client ignores
        # ``const`` and an inline enum, and would find one body to fit several actions (issue 38)
        name = properties.get("type", {})
        if set(name) != {"$ref"} or resolve(document, name) != {
                **resolve(document, name), "type": "string", "enum": [kind]}:
            problems.append(f"{where}: 'type' is not a named one-value enum of {kind!r}")
        if "expected_version" not in properties:
            problems.append(f"{where}: no 'expected_version'")
        if schema.get("additionalProperties") is not False:
            problems.append(f"{where}: other fields are not refused")
        declared = body_fields(move.action)
        names = {f.json_name for f in declared}
        documented = set(properties) - ENVELOPE_KEYS
        for name in sorted(names - documented):
            problems.append(f"{where}: field {name!r} is not in the spec")
        for name in sorted(documented - names):
            problems.append(f"{where}: field {name!r} is in the spec but not in the move")
        required = {f.json_name for f in declared if f.required} | {"type"}
        if set(schema.get("required", [])) != required:
            problems.append(f"{where}: required {sorted(schema.get('required', []))}, the move requires {sorted(required)}")
        for f in declared:
            if f.json_name not in properties:
                continue
            want, got = facts(document, field_schema(f)), facts(document, properties[f.json_name])
            if want != got:
                problems.append(f"{where}: field {f.json_name!r} is {json.dumps(got)} in the spec, "
                                f"{json.dumps(want)} in the move")
    return problems


def test_every_move_has_the_same_action_schema_in_the_spec_and_back() -> None:
    assert disagreements(spec(), all_games()) == []


def test_the_comparison_notices_each_kind_of_disagreement() -> None:
    """The check is not vacuous: each edit of the spec below is caught."""
    def edited(change: Any) -> dict[str, Any]:
        document = copy.deepcopy(spec())
        change(document["components"]["schemas"])
        return document

    def tighter_route(s: dict[str, Any]) -> None:
        s["ClaimRoute"]["properties"]["route"]["maxLength"] = 79

    def souvenir_required(s: dict[str, Any]) -> None:
        s["ClaimRoute"]["required"].append("souvenir")

    def renamed_from(s: dict[str, Any]) -> None:
        s["StartRide"]["properties"]["origin"] = s["StartRide"]["properties"].pop("from")

    def one_more_source(s: dict[str, Any]) -> None:
        s["DrawCard"]["properties"]["source"]["enum"].append("discard")

    def wider_rows(s: dict[str, Any]) -> None:
        s["Placement"]["properties"]["row"]["maximum"] = 13

    def three_placements(s: dict[str, Any]) -> None:
        s["LayTiles"]["properties"]["placements"]["maxItems"] = 3

    def longer_square(s: dict[str, Any]) -> None:
        s["Square"]["maxItems"] = 3

    def unions(s: dict[str, Any]) -> dict[str, Any]:
        return {u["x-game-type"]: u for u in s["ActionRequest"]["x-game-unions"]}

    def dropped_roll(s: dict[str, Any]) -> None:
        cable = unions(s)["cable-car"]
        cable["oneOf"] = [r for r in cable["oneOf"] if not r["$ref"].endswith("/Roll")]
        del cable["discriminator"]["mapping"]["roll"]

    def roll_in_the_other_game(s: dict[str, Any]) -> None:
        ttr, cable = unions(s)["ttr-sf"], unions(s)["cable-car"]
        cable["oneOf"] = [r for r in cable["oneOf"] if not r["$ref"].endswith("/Roll")]
        ttr["oneOf"].append({"$ref": "#/components/schemas/Roll"})
        ttr["discriminator"]["mapping"]["roll"] = cable["discriminator"]["mapping"].pop("roll")

    def inline_type(s: dict[str, Any]) -> None:
        s["Roll"]["properties"]["type"] = {"type": "string", "const": "roll"}

    def wrong_name(s: dict[str, Any]) -> None:
        s["RollType"]["enum"] = ["resign"]

    def flat_union_without_roll(s: dict[str, Any]) -> None:
        del s["ActionRequest"]["discriminator"]["mapping"]["roll"]

    for change in (tighter_route, souvenir_required, renamed_from, one_more_source, wider_rows,
                   three_placements, longer_square, dropped_roll, roll_in_the_other_game, flat_union_without_roll,
                   inline_type, wrong_name):
        assert disagreements(edited(change), all_games()), change.__name__


def test_a_game_the_spec_does_not_document_is_noticed() -> None:
    problems = disagreements(spec(), [*all_games(), THIRD_GAME])
    # every game has ``resign``; the spec documents it for the two real games only
    assert problems == [
        f"{THIRD_GAME.type_id} resign: a move without an action schema in the spec",
        f"{THIRD_GAME.type_id} take: a move without an action schema in the spec",
    ]
