"""The configuration table of docs/configuration.md, printed from the
declarations in :mod:`service.config` (``python -m cablecar.config_table``);
a test fails when the document and the declarations differ."""

from __future__ import annotations

from service.config import SETTINGS, Setting


def table_row(setting: Setting) -> str:
    """The configuration table's row (docs/configuration.md) of ``setting`` (Markdown)."""
    default = setting.default
    if default is None or default == "":
        shown = "unset"
    elif isinstance(default, bool):
        shown = f"`{str(default).lower()}`"
    elif isinstance(default, float):
        shown = f"`{default:g}`"
    else:
        shown = f"`{default}`"
    return f"| `{setting.env}` | {shown} | {setting.help} |"


def table() -> str:
    """The whole configuration table of docs/configuration.md."""
    rows = ["| variable | default | meaning |", "|---|---|---|", *(table_row(s) for s in SETTINGS)]
    return "\n".join(rows)


if __name__ == "__main__":  # pragma: no cover - prints what docs/configuration.md's table must say
    print(table())
