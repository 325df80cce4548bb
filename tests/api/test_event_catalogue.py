"""The event catalogue (issue 27): ``GET /v1/game-types/{type}/events``
derived from the game definitions, equal to ``openapi.yaml``'s copy, every
event of played games (both types, every rules version, the stored records
of older releases) valid against it, and the redacted fields it names being
exactly the ones the games' ``redact`` blanks."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from flask.testing import FlaskClient

from domain.core import Event, GameDefinition, replay
from domain.registry import all_games, game_definition
from service.api.schemas.event_schemas import annotation_schema, event_catalogue
from tests.unit.test_rules_versions import played

SPEC = Path(__file__).resolve().parents[2] / "service" / "openapi.yaml"
OLD_RECORDS = Path(__file__).resolve().parent / "data" / "old_records"
GAMES = sorted(all_games(), key=lambda g: g.type_id)


@cache
def validators(type_id: str) -> dict[tuple[str, int], jsonschema.Draft202012Validator]:
    out = {}
    for entry in event_catalogue(game_definition(type_id)):
        jsonschema.Draft202012Validator.check_schema(entry["schema"])
        out[(entry["event_type"], entry["schema_version"])] = jsonschema.Draft202012Validator(entry["schema"])
    return out


def problems(type_id: str, event_type: str, version: int, payload: Any) -> list[str]:
    found = validators(type_id).get((event_type, version))
    if found is None:
        return [f"{type_id} {event_type} v{version} is not in the catalogue"]
    return [f"{event_type} v{version}: {e.message}" for e in found.iter_errors(payload)]


def test_the_endpoint_serves_the_derived_catalogue_and_the_spec_holds_the_same(client: FlaskClient) -> None:
    examples = yaml.safe_load(SPEC.read_text(encoding="utf-8"))["components"]["examples"]
    for game in GAMES:
        answer = client.get(f"/v1/game-types/{game.type_id}/events")
        assert answer.status_code == 200
        body = answer.get_json()
        assert body == {"type": game.type_id, "events": event_catalogue(game)}
        name = "".join(p.capitalize() for p in game.type_id.replace("-", " ").split()) + "EventCatalogue"
        assert examples[name]["value"] == body, "run scripts/sync-event-catalogue.py"
        listed = {(e["event_type"], e["schema_version"]) for e in body["events"]}
        assert {(cls.TYPE, cls.SCHEMA_VERSION) for cls in game.events} <= listed
        assert {(u.event_type, u.from_version) for u in game.upcasters} <= listed
    assert client.get("/v1/game-types/chess/events").status_code == 404


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.type_id)
def test_every_event_of_games_played_under_every_rules_version_is_valid(game: GameDefinition[Any]) -> None:
    for version in (*game.legacy_rules_versions, game.rules_version):
        events = played(game, version, f"catalogue-{version}")
        found = [p for e, _ in events for p in problems(game.type_id, e.TYPE, e.SCHEMA_VERSION, e.to_payload())]
        assert not found, (version, found[:5])
        # through JSON, as exported
        for event, _ in events:
            assert not problems(game.type_id, event.TYPE, event.SCHEMA_VERSION, json.loads(json.dumps(event.to_payload())))


@pytest.mark.parametrize("name", ["cable-car-2.export.json", "ttr-sf-2.export.json"])
def test_records_stored_by_an_older_release_are_valid_with_their_schema_versions(name: str) -> None:
    record = json.loads((OLD_RECORDS / name).read_text(encoding="utf-8"))
    type_id = record["game"]["type"]
    versions = {(e["type"], e["schema_version"]) for e in record["events"]}
    assert any(v < max(v2 for t2, v2 in versions if t2 == t) or v == 1 for t, v in versions)
    found = [p for e in record["events"] for p in problems(type_id, e["type"], e["schema_version"], e["payload"])]
    assert not found, found[:5]


def test_a_wrong_payload_is_caught() -> None:
    assert problems("cable-car", "turn_ended", 1, {"seat": 0, "next_seat": "1"})
    assert problems("cable-car", "turn_ended", 1, {"seat": 0})
    assert problems("cable-car", "turn_ended", 1, {"seat": 0, "next_seat": 1, "extra": 1})
    assert problems("ttr-sf", "route_claimed", 1, {"seat": 0, "route": "r", "cards": {"red": 1},
                                                    "souvenir": None, "points": 1})
    assert problems("ttr-sf", "route_claimed", 9, {})


def test_annotations_translate() -> None:
    assert annotation_schema(tuple[tuple[int, str], ...]) == {"type": "array", "items": {
        "type": "array", "prefixItems": [{"type": "integer"}, {"type": "string"}], "items": False,
        "minItems": 2, "maxItems": 2}}
    assert annotation_schema(tuple[str, ...] | None) == {"type": ["array", "null"], "items": {"type": "string"}}
    assert annotation_schema(tuple[int, ...] | str) == {"anyOf": [{"type": "array", "items": {"type": "integer"}},
                                                                  {"type": "string"}]}
    assert annotation_schema(int | None) == {"type": ["integer", "null"]}
    with pytest.raises(TypeError):
        annotation_schema(set[int])


def _blanked(exported: Any, shown: Any) -> set[str]:
    """The fields of a payload that a redacted copy shows differently: ``name``
    (the field is null) or ``name[]`` (some entries of the list are null)."""
    out = set()
    for name, value in exported.items():
        seen = shown.get(name)
        if seen == value:
            continue
        if seen is None:
            out.add(name)
        elif isinstance(value, list) and isinstance(seen, list) and all(
            s is None or s == v for s, v in zip(seen, value, strict=True)
        ):
            out.add(f"{name}[]")
        else:
            out.add(f"{name}: changed, not blanked")
    return out


@pytest.mark.parametrize("game", GAMES, ids=lambda g: g.type_id)
def test_the_redacted_fields_are_the_ones_redact_blanks(game: GameDefinition[Any]) -> None:
    events = [e for e, _ in played(game, None, "catalogue-redaction")]
    declared = {(e["event_type"], e["schema_version"]): set(e["redacted_fields"]) for e in event_catalogue(game)}
    used: dict[str, set[str]] = {}
    state = None
    for event in events:
        state = replay(game, [event], state)
        exported = json.loads(json.dumps(event.to_payload()))
        for seat in (None, *range(game.seat_count(state))):
            shown = json.loads(json.dumps(game.redact(state, event, seat)))
            blanked = _blanked(exported, shown)
            assert blanked <= declared[(event.TYPE, event.SCHEMA_VERSION)], (event.TYPE, seat, blanked)
            used.setdefault(event.TYPE, set()).update(blanked)
    # every declaration is seen at work in a played game (a stale one would mislead an auditor)
    for cls in game.events:
        assert set(cls.REDACTED) <= used.get(cls.TYPE, set()) | _never_seen(cls), (cls.TYPE, cls.REDACTED)


def _never_seen(cls: type[Event]) -> set[str]:
    """Redactions a short seeded game may not reach (a deck rebuilt, a ticket draw)."""
    return set(cls.REDACTED) if cls.TYPE in ("deck_rebuilt", "tickets_drawn") else set()
