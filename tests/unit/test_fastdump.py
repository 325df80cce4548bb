"""The hand-written POST /actions answer equals marshmallow's dump of it."""

from __future__ import annotations

from typing import Any

from service.api.schemas.fastdump import EVENT_OPTIONAL, EVENT_REQUIRED, action_result
from service.api.schemas.responses import ActionResultSchema, EventSchema


def _event(seq: int, **extra: Any) -> dict[str, Any]:
    return {"seq": seq, "type": "cards_drawn", "schema_version": 2, "seat": None if seq == 1 else 1,
            "recorded_at": "2026-01-01T00:00:00.000000Z", "payload": {"cards": ["red"], "n": {"x": 1}}, **extra}


def test_fastdump_writes_what_the_schema_writes() -> None:
    events = [_event(1), _event(2, prev_hash="a" * 64, hash="b" * 64), _event(3, internal="not shown")]
    for replayed in (False, True):
        fast = action_result(7, events, replayed)
        slow = ActionResultSchema().dump({"version": 7, "events": events, "replayed": replayed})
        assert fast == slow
        assert list(fast) == list(slow) and [list(e) for e in fast["events"]] == [list(e) for e in slow["events"]]
    assert action_result(7, events, False)["events"][0]["payload"] is not events[0]["payload"]


def test_fastdump_knows_every_field_of_the_schemas() -> None:
    assert set(EventSchema().fields) == set(EVENT_REQUIRED) | set(EVENT_OPTIONAL)
    assert {n for n, f in EventSchema().fields.items() if f.required} == set(EVENT_REQUIRED)
    assert set(ActionResultSchema().fields) == {"version", "events", "replayed"}


def test_a_legal_actions_page_is_what_the_schema_writes() -> None:
    from service.api.schemas.fastdump import LEGAL_ACTIONS_FIELDS, legal_actions_page
    from service.api.schemas.responses import LegalActionsSchema

    actions = [{"type": "lay_tiles", "placements": [{"row": 1, "col": 2, "tile": "curve", "rotation": 3}]},
               {"type": "start_ride", "terminal": "Presidio"}]
    for cursor in (None, "2"):
        fast = legal_actions_page("g", 9, 1, 5, cursor, actions)
        slow = LegalActionsSchema().dump({"game_id": "g", "version": 9, "seat": 1, "total": 5,
                                          "next_cursor": cursor, "actions": actions})
        assert fast == slow and list(fast) == list(slow)
    assert tuple(LegalActionsSchema().fields) == LEGAL_ACTIONS_FIELDS
