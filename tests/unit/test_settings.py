"""Settings are declared once (``service/config.py``): the app, gunicorn and
the configuration table of docs/configuration.md all say the same."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

import service.serving.gunicorn_conf
from cablecar.config_table import table, table_row
from service.config import SETTINGS, Settings

CONFIG_DOC = Path(__file__).resolve().parents[2] / "docs" / "configuration.md"


def test_the_configuration_doc_lists_every_setting_with_its_true_default() -> None:
    text = CONFIG_DOC.read_text(encoding="utf-8")
    section = text.split("\n## Configuration\n", 1)[1].split("\n## ", 1)[0]
    rows = [line for line in section.splitlines() if re.match(r"\| `[A-Z_]+` \|", line)]
    expected = [table_row(s) for s in SETTINGS]
    assert rows == expected, (
        "the configuration table of docs/configuration.md should read (`python -m cablecar.config_table` prints it):\n" + table()
    )


def test_settings_are_read_from_their_variables() -> None:
    assert Settings.from_env({}) == Settings()
    read = Settings.from_env({
        "DATABASE_URL": "postgresql://h/db",
        "CABLECAR_WORKERS": " 5 ",
        "CABLECAR_WEBHOOK_POLL_SECONDS": "0.5",
        "CABLECAR_WEBHOOKS": "off",
        "CABLECAR_OPEN_ORGANISERS": "",
        "CABLECAR_BIND": "127.0.0.1:9000",
    })
    assert (read.database_url, read.workers, read.webhook_poll_seconds) == ("postgresql://h/db", 5, 0.5)
    assert (read.webhooks, read.open_organisers, read.bind) == (False, True, "127.0.0.1:9000")
    assert {s.name for s in SETTINGS} == set(Settings.__dataclass_fields__)
    assert len({s.env for s in SETTINGS}) == len(SETTINGS)


@pytest.mark.parametrize(("variable", "raw", "says"), [
    ("CABLECAR_WORKERS", "many", "an integer"),
    ("CABLECAR_WEBHOOK_TIMEOUT_SECONDS", "soon", "a number"),
    ("CABLECAR_WEBHOOKS", "maybe", "a boolean"),
])
def test_a_malformed_setting_names_its_variable(variable: str, raw: str, says: str) -> None:
    with pytest.raises(ValueError, match=f"{variable} must be {says}"):
        Settings.from_env({variable: raw})


def test_gunicorn_reads_the_same_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    for setting in SETTINGS:
        monkeypatch.delenv(setting.env, raising=False)
    conf = importlib.reload(service.serving.gunicorn_conf)
    defaults = Settings()
    assert (conf.bind, conf.workers, conf.threads, conf.timeout, conf.max_requests, conf.accesslog, conf.loglevel) == (
        defaults.bind, defaults.workers, defaults.threads, defaults.worker_timeout, defaults.max_requests,
        defaults.access_log, defaults.log_level,
    )
    monkeypatch.setenv("CABLECAR_WORKERS", "7")
    monkeypatch.setenv("CABLECAR_LOG_LEVEL", "debug")
    conf = importlib.reload(service.serving.gunicorn_conf)
    assert (conf.workers, conf.loglevel) == (7, "debug")
    monkeypatch.undo()
    importlib.reload(service.serving.gunicorn_conf)


ROOT = CONFIG_DOC.parents[1]
#: Variables that are no setting of the app: the test suites' servers, and the
#: compose file's own inputs (it builds REDIS_URL from the password).
NOT_SETTINGS = re.compile(r"CABLECAR_(TEST_[A-Z_]+|REDIS_PASSWORD|POSTGRES_PASSWORD|OWNER_PASSWORD|APP_PASSWORD|REPLICATION_PASSWORD|IMAGE)$")


def test_every_variable_the_code_reads_is_declared_once() -> None:
    """Only service/config.py reads the environment, and every CABLECAR_ name
    the code, the Dockerfile and the compose file mention is a declared setting."""
    declared_names = {s.env for s in SETTINGS}
    readers, unknown = [], set()
    sources = [*ROOT.glob("domain/**/*.py"), *ROOT.glob("events/**/*.py"), *ROOT.glob("service/**/*.py"),
               ROOT / "Dockerfile", ROOT / "docker-compose.yml"]
    for path in sources:
        text = path.read_text(encoding="utf-8")
        if path.suffix == ".py" and re.search(r"os\.environ|getenv\(", text) and path.name != "config.py":
            readers.append(str(path.relative_to(ROOT)))
        unknown |= {n for n in re.findall(r"\bCABLECAR_[A-Z_]*[A-Z]\b", text) if n not in declared_names}
    assert readers == []
    assert {n for n in unknown if not NOT_SETTINGS.match(n)} == set()


def test_the_data_folder_does_not_follow_the_current_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert Settings().data_path() == tmp_path / "xdg" / "cablecar"
    monkeypatch.chdir(tmp_path)
    relative = Settings.from_env({"CABLECAR_DATA_DIR": "here"}).data_path()
    assert relative == tmp_path / "here" and relative.is_absolute()


def test_the_pool_size_reaches_the_postgres_store() -> None:
    import events

    store = events.open_store("postgresql://cc@127.0.0.1:9/x", pool_size=3)  # opened without connecting
    try:
        assert store.database.connections._max_size == 3  # type: ignore[attr-defined]
    finally:
        store.close()
    with pytest.raises(ValueError, match="at least one"):
        events.open_store("postgresql://cc@127.0.0.1:9/x", pool_size=0)


def test_group_commit_reaches_the_postgres_store_within_its_pool() -> None:
    import events

    for asked, pool, kept in ((0, 3, 0), (2, 3, 2), (9, 3, 3)):  # more than the pool counts as the pool
        store = events.open_store("postgresql://cc@127.0.0.1:9/x", pool_size=pool, group_commit=asked)
        try:
            assert store.database.group._in_flight == kept  # type: ignore[attr-defined]
        finally:
            store.close()
    with pytest.raises(ValueError, match="CABLECAR_DB_GROUP_COMMIT"):
        events.open_store("postgresql://cc@127.0.0.1:9/x", group_commit=-1)
