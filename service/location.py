"""Where the server and the CLI keep their data, said the same way by both.

``cablecar serve`` and every CLI command that opens the store print
:func:`describe` first, so that a server and a command that disagree (another
``--data-dir``, another ``DATABASE_URL``) show it before anything is written;
:func:`new_store_notes` says when a command is about to create an empty store
where the user probably meant an existing one.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from urllib.parse import urlsplit

from events import DEFAULT_SQLITE_NAME
from service.config import Settings

#: Where versions before the platform data folder kept the embedded store,
#: relative to the directory the server was started from.
OLD_DEFAULT = Path("data")


#: appended to the data folder's name to make the embedded default's keys folder beside it
KEYS_SUFFIX = "-keys"


def keys_folder(settings: Settings) -> Path:
    """Where the embedded default keeps its signing keys: beside the data folder,
    never in it (``~/.local/share/cablecar-keys`` for ``~/.local/share/cablecar``),
    so that a copy of the data (or a hand able to write it) holds no private key."""
    data = settings.data_path()
    return data.with_name(data.name + KEYS_SUFFIX)


def with_data_dir(settings: Settings, data_dir: str | None) -> Settings:
    """``settings`` with the ``--data-dir`` option applied (it wins over the environment)."""
    return settings if data_dir is None else dataclasses.replace(settings, data_dir=data_dir)


def redact(url: str) -> str:
    """``url`` without its password (and user name), for messages and logs."""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return f"{parts.scheme}://{host}{parts.path}"


def sqlite_file(settings: Settings) -> Path | None:
    """The embedded store's file, or None when ``DATABASE_URL`` names another store."""
    url = settings.database_url
    if not url:
        return settings.data_path() / DEFAULT_SQLITE_NAME
    if url.startswith("sqlite:///"):
        return Path(url[len("sqlite:///"):]).absolute()
    return None


def describe(settings: Settings) -> str:
    """One line naming the event store and the cache of ``settings`` (no secret in it)."""
    path = sqlite_file(settings)
    store = f"SQLite {path}" if path is not None else f"PostgreSQL {redact(settings.database_url or '')}"
    cache = f"Redis {redact(settings.redis_url)}" if settings.redis_url else "in-process cache"
    return f"data: {store}; {cache}"


def new_store_notes(settings: Settings, cwd: Path | None = None) -> list[str]:
    """What to tell before opening the store of ``settings`` when it does not
    exist yet: an empty one will be created, which a server using another
    folder will never see; and where an older version's store sits, if one does."""
    path = sqlite_file(settings)
    if path is None or path.exists():
        return []
    notes = [
        f"no store in {path.parent} yet: a new, empty one is created there. If your server keeps its "
        "data elsewhere, pass its folder with --data-dir (or CABLECAR_DATA_DIR)."
    ]
    old = (cwd or Path.cwd()) / OLD_DEFAULT / DEFAULT_SQLITE_NAME
    if old.exists() and old.resolve() != path.resolve():
        notes.append(f"{old} exists (where older versions kept the store): use it with --data-dir {old.parent}")
    return notes
