"""Reading a saved game record for ``cablecar verify``: a JSON export, an
NDJSON export (a header line, then one line per event), or something else that
ended up in the file, named as such (an error answer of the server, a web page)
rather than reported as a broken record."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any


class NotAnExport(ValueError):
    """The text is no game record; the message says what it is instead."""


@dataclass(frozen=True)
class ExportDocument:
    """A record read from a file: the export document and the format it came in."""

    export: dict[str, Any]
    format: str  # "JSON" or "NDJSON"

    @property
    def summary(self) -> str:
        """E.g. ``an NDJSON export of 212 events``."""
        events = self.export.get("events") or []
        article = "an" if self.format == "NDJSON" else "a"
        return f"{article} {self.format} export of {len(events)} events"


def _problem_text(doc: dict[str, Any]) -> str | None:
    """How a problem+json answer reads, if ``doc`` is one."""
    if "events" in doc or not isinstance(doc.get("status"), int):
        return None
    if not ("code" in doc or "title" in doc or "type" in doc):
        return None
    code = doc.get("code") or doc.get("title") or ""
    detail = f": {doc['detail']}" if doc.get("detail") else ""
    return f"{doc['status']} {code}{detail}"


def _whole_json(text: str) -> Any:
    try:
        return json.loads(text)
    except ValueError:
        return None


def read_export(text: str) -> ExportDocument:
    """The export in ``text``; :class:`NotAnExport` saying what the text is otherwise."""
    stripped = text.strip()
    if not stripped:
        raise NotAnExport("the file is empty")
    if stripped.startswith("<"):
        raise NotAnExport("this is a web page (HTML), not an export: was the URL right?")
    whole = _whole_json(stripped)
    if isinstance(whole, dict) and "kind" not in whole:  # a one-line file with "kind" is NDJSON
        problem = _problem_text(whole)
        if problem is not None:
            raise NotAnExport(
                f"this is an error answer of the server ({problem}), not an export: "
                "a game can be exported once it is finished"
            )
        if not isinstance(whole.get("events"), list):
            raise NotAnExport("this JSON object is not an export (it has no list of events)")
        return ExportDocument(whole, "JSON")
    if whole is not None and not isinstance(whole, dict):
        raise NotAnExport(f"this is a JSON {type(whole).__name__}, not an export (a JSON object)")
    return ExportDocument(_read_ndjson(stripped), "NDJSON")


def _read_ndjson(text: str) -> dict[str, Any]:
    header: dict[str, Any] | None = None
    events: list[Any] = []
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as e:
            what = "the first line" if number == 1 else f"line {number}"
            raise NotAnExport(f"{what} is not JSON ({e.msg}): neither a JSON nor an NDJSON export") from e
        kind = item.pop("kind", None) if isinstance(item, dict) else None
        if kind == "header" and header is None:
            header = item
        elif kind == "event" and header is not None:
            events.append(item)
        else:
            raise NotAnExport(f"line {number}: an NDJSON export is a header line, then event lines")
    if header is None:
        raise NotAnExport("no header line found")
    return {**header, "events": events}
