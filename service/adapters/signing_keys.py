"""The server's signing keys, from its configuration (never from the database).

* The current key: ``CABLECAR_SIGNING_KEY_FILE``, a JSON file
  ``{"algorithm": "ed25519", "key_id", "private_key" (32 bytes base64url),
  "public_key", "created_at"}`` readable by the server only.  Required on
  PostgreSQL (production), the same file on every host; the embedded
  default generates one once into a keys folder beside its data folder,
  never in it (``<data folder>-keys/signing-key.json``, folder 0700, file
  0600: :func:`service.location.keys_folder`) and reads it back on every
  start.  An install whose key is still in the data folder, where versions
  before kept it, goes on reading it there (said once in the log, with the
  command that moves it), so every record it signed stays verifiable.
* Retired keys: ``CABLECAR_RETIRED_KEYS_FILE`` (default ``retired-keys.json``
  next to the signing key, if present), public keys only, in the shape
  ``GET /v1/keys`` answers, so records signed before a rotation still verify.

``cablecar keys generate`` makes a key file, ``cablecar keys rotate`` retires
the current key (its public half goes to the retired file, with
``retired_at``) and makes a new one; every server then restarts to sign with
the new key.  Each key's lifetime is also recorded in the server's own
stream, and so in the transparency log (``service/usecases/server_stream.py``).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import secrets
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path

from events.encoding.timestamps import format_timestamp, system_clock
from events.integrity.keyset import KeySet
from events.integrity.signing import ALGORITHM, PublicKey, Signer, b64url, unb64url
from service.config import Settings
from service.location import keys_folder

log = logging.getLogger(__name__)

#: the per-install key's file, in the keys folder (embedded default)
KEY_FILE = "signing-key.json"
#: the retired keys' file, next to the key file unless configured
RETIRED_FILE = "retired-keys.json"
#: seconds a rotated key still signs before its ``retired_at``, by default: none (a rotation usually answers a
#: key that may have leaked, whose signatures must stop counting at once; ``--grace`` covers a planned restart)
ROTATION_GRACE_SECONDS = 0.0
#: the longest grace a rotation may give (a day)
MAX_GRACE_SECONDS = 86400.0
#: how to make a key, in every message asking for one
GENERATE = "cablecar keys generate --key-file PATH"


class SigningKeyError(ValueError):
    """No usable signing key (missing in production, or a file that is not one)."""


@dataclass(frozen=True)
class ServerKeys:
    """The key the server signs with and every key its records may carry."""

    signer: Signer
    retired: tuple[PublicKey, ...] = ()

    def public_keys(self) -> list[PublicKey]:
        """Every key, the current one first (``GET /v1/keys``)."""
        return [self.signer.public, *(k for k in self.retired if k.key_id != self.signer.key_id)]

    def key_set(self) -> KeySet:
        """The keys that verify this server's records."""
        return KeySet(self.public_keys())


def key_path(settings: Settings) -> Path:
    """Where the signing key is read from: the configured file, else the
    embedded default's keys folder, unless an older install's key is still
    in the data folder and none is in the keys folder yet (then that one)."""
    if settings.signing_key_file.strip():
        return Path(settings.signing_key_file).expanduser()
    path = keys_folder(settings) / KEY_FILE
    old = settings.data_path() / KEY_FILE
    if not path.exists() and old.exists():
        _say_once(old, f"the signing key is read from {old}, inside the data folder where older versions kept it; "
                       f"keep it apart from the data: stop the server, `mkdir -m 700 {path.parent}` and move "
                       f"{old.name} (and {RETIRED_FILE}, if any) there")
        return old
    return path


def _say_once(path: Path, message: str) -> None:
    """Log ``message`` about ``path`` once per process (a server's workers fork after it)."""
    if path not in _SAID:
        _SAID.add(path)
        log.warning("cablecar: %s", message)


_SAID: set[Path] = set()


def retired_path(settings: Settings) -> Path:
    """Where the retired keys are read from."""
    if settings.retired_keys_file.strip():
        return Path(settings.retired_keys_file).expanduser()
    return key_path(settings).parent / RETIRED_FILE


def key_document(signer: Signer) -> dict[str, str | None]:
    """The JSON a key file holds."""
    return {**{k: v for k, v in signer.public.file_json().items() if k != "retired_at"},
            "private_key": b64url(signer.seed())}


def write_key_file(path: Path, signer: Signer) -> bool:
    """Write ``signer`` to ``path`` (mode 0600) unless a file is there; whether it wrote.

    Written whole under a private name, then linked into place: concurrent
    first starts (several workers) all end up reading the one that won."""
    path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    draft = path.parent / f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}"
    fd = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        with os.fdopen(fd, "w") as out:
            json.dump(key_document(signer), out, indent=2)
            out.write("\n")
        try:
            os.link(draft, path)
            return True
        except FileExistsError:
            return False
    finally:
        draft.unlink()


def read_key_file(path: Path) -> Signer:
    """The key in ``path``; SigningKeyError naming the file if it holds none."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(data, dict) or data.get("algorithm", ALGORITHM) != ALGORITHM:
            raise ValueError(f"not an {ALGORITHM} key file")
        seed = unb64url(str(data.get("private_key", "")))
        created = data.get("created_at")
        signer = Signer(seed, created if isinstance(created, str) else None)
    except (OSError, ValueError) as e:
        raise SigningKeyError(f"{path} holds no usable signing key: {e}") from None
    if data.get("key_id") not in (None, signer.key_id):
        raise SigningKeyError(f"{path}: key_id {data.get('key_id')!r} is not the id of its key ({signer.key_id})")
    if path.stat().st_mode & 0o077:
        with contextlib.suppress(OSError):
            path.chmod(0o600)
    return signer


def read_public_keys(path: Path) -> tuple[PublicKey, ...]:
    """The keys of a ``{"keys": [...]}`` file (as ``GET /v1/keys`` answers);
    SigningKeyError naming the file and the entry that is not a key."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise SigningKeyError(f"{path}: {getattr(e, 'strerror', None) or e}") from None
    entries = data.get("keys") if isinstance(data, dict) else None
    if not isinstance(entries, list):
        raise SigningKeyError(f"{path} is not a list of keys: expected {{\"keys\": [...]}} as GET /v1/keys answers")
    keys = []
    for i, entry in enumerate(entries):
        try:
            keys.append(PublicKey.from_json(entry))
        except ValueError as e:
            raise SigningKeyError(f"{path}: key #{i + 1}: {e}") from None
    return tuple(keys)


def write_public_keys(path: Path, keys: list[PublicKey]) -> None:
    """Replace ``path`` with ``keys`` (written whole, then renamed into place)."""
    draft = path.parent / f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}"
    draft.write_text(json.dumps({"keys": [k.file_json() for k in keys]}, indent=2) + "\n", encoding="utf-8")
    draft.replace(path)


def load_server_keys(settings: Settings) -> ServerKeys:
    """The configured keys; on the embedded default a key is made on first
    use.  SigningKeyError (one line naming the variable and the command)
    when PostgreSQL runs without a key file, or a file holds no key."""
    path = key_path(settings)
    if settings.database_url and not settings.signing_key_file.strip():
        raise SigningKeyError(
            "CABLECAR_SIGNING_KEY_FILE is not set: a server on PostgreSQL (DATABASE_URL) signs every event with "
            f"a key from its configuration, the same file on every host; make one with `{GENERATE}`"
        )
    if not path.exists():
        if settings.database_url:
            raise SigningKeyError(f"CABLECAR_SIGNING_KEY_FILE names {path}, which does not exist; "
                                  f"make it with `{GENERATE}`")
        write_key_file(path, Signer.generate(format_timestamp(system_clock())))
    signer = read_key_file(path)
    retired_file = retired_path(settings)
    retired = read_public_keys(retired_file) if retired_file.exists() else ()
    return ServerKeys(signer, retired)


def check_grace(grace_seconds: float) -> float:
    """A rotation's grace, refused (SigningKeyError) unless 0 to :data:`MAX_GRACE_SECONDS`."""
    if not 0 <= grace_seconds <= MAX_GRACE_SECONDS:
        raise SigningKeyError(f"the grace of a rotation is 0 to {MAX_GRACE_SECONDS:g} seconds, not {grace_seconds:g}")
    return grace_seconds


def rotate(settings: Settings, grace_seconds: float = ROTATION_GRACE_SECONDS,
           clock: datetime | None = None, new: Signer | None = None) -> tuple[PublicKey, Signer]:
    """Retire the current key (its public key goes to the retired file, with
    ``retired_at`` ``grace_seconds`` from now) and write a new one in its
    place, made now: (retired, new).  Servers sign with the new key once restarted,
    which must happen within the grace: an event the retired key signs after
    its ``retired_at`` fails verification.  Both keys verify.  ``clock``: now
    (by default this host's clock; ``cablecar keys rotate`` passes the
    database's, which dates the events); ``new``: the next key (by default
    one made now)."""
    check_grace(grace_seconds)
    signing_keys = load_server_keys(settings)
    clock = clock or system_clock()
    now = format_timestamp(clock)
    retired = signing_keys.signer.public.retired(format_timestamp(clock + timedelta(seconds=grace_seconds)))
    retired_file = retired_path(settings)
    kept = [k for k in signing_keys.retired if k.key_id != retired.key_id]
    write_public_keys(retired_file, [*kept, retired])  # first: the old key stays verifiable whatever happens next
    new = new or Signer.generate(now)
    path = key_path(settings)
    draft = path.parent / f".{path.name}.new"
    with contextlib.suppress(FileNotFoundError):
        draft.unlink()
    write_key_file(draft, new)
    draft.replace(path)
    return retired, new
