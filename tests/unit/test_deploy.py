"""The Dockerfile and docker-compose.yml, read by real parsers and checked for
their wiring (no Docker engine needed): what the image build needs is copied,
the volume is the data folder, the health check follows CABLECAR_BIND, one
image serves migrate and web, every variable compose sets is one the app reads.

``data/compose-spec.json`` is the Compose Specification's JSON schema as
published in the ``docker-compose`` 1.29.2 package (Apache License 2.0, the
Compose Specification authors), kept here so the test needs no network.
"""

from __future__ import annotations

import json
import re
import shlex
import tomllib
from pathlib import Path
from typing import Any

import jsonschema
import pytest
import yaml
from dockerfile_parse import DockerfileParser

from cablecar.cli import build_parser
from service.api.app import create_app
from service.config import SETTINGS, Settings
from service.location import KEYS_SUFFIX
from service.serving import healthcheck

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = Path(__file__).with_name("data") / "compose-spec.json"


@pytest.fixture(scope="module")
def dockerfile() -> DockerfileParser:
    parser = DockerfileParser(fileobj=(ROOT / "Dockerfile").open("rb"))
    assert parser.baseimage, "the Dockerfile has no FROM"
    return parser


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    data = yaml.safe_load((ROOT / "docker-compose.yml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _stages(parser: DockerfileParser) -> list[list[dict[str, Any]]]:
    stages: list[list[dict[str, Any]]] = []
    for instruction in parser.structure:
        if instruction["instruction"] == "FROM":
            stages.append([])
        if stages:  # comments may come before the first FROM
            stages[-1].append(instruction)
    return stages


def _of(stage: list[dict[str, Any]], name: str) -> list[str]:
    return [i["value"] for i in stage if i["instruction"] == name]


def test_the_build_stage_copies_everything_pyproject_names(dockerfile: DockerfileParser) -> None:
    build, _ = _stages(dockerfile)
    copied = {src for value in _of(build, "COPY") for src in shlex.split(value)[:-1]}
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    packages = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]["packages"]["find"]
    needed = {"pyproject.toml", project["readme"], *project["license-files"]}
    needed |= {p.rstrip("*") for p in packages["include"]}
    assert needed <= copied


def test_the_image_installs_the_plain_project_that_the_plain_install_test_boots(dockerfile: DockerfileParser) -> None:
    """The image gets what ``pip install .`` gives, no extra and nothing added by hand: what
    tests/e2e/test_plain_install.py installs into a fresh environment and serves with."""
    build, final = _stages(dockerfile)
    installs = [shlex.split(v) for v in _of(build + final, "RUN") if "pip" in v]
    assert len(installs) == 1, installs
    [words] = installs
    args = words[words.index("install") + 1:]
    assert [a for a in args if not a.startswith("-")] == ["."]  # the project alone, without [extras]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    # what the production worker needs comes with the project itself
    assert any(d.replace(" ", "").startswith("gunicorn[gevent]") for d in project["dependencies"])


def test_the_image_runs_as_a_user_with_a_data_volume_and_a_health_check(dockerfile: DockerfileParser) -> None:
    _, final = _stages(dockerfile)
    env = dockerfile.envs
    assert {name for name in env if name.startswith("CABLECAR_")} <= {s.env for s in SETTINGS}
    assert _of(final, "USER") == ["cablecar"]
    volumes = [json.loads(v) if v.startswith("[") else v.split() for v in _of(final, "VOLUME")]
    assert [env["CABLECAR_DATA_DIR"]] in volumes
    assert [env["CABLECAR_DATA_DIR"] + KEYS_SUFFIX] in volumes  # the embedded default's signing key, kept apart
    bind_port = env["CABLECAR_BIND"].rpartition(":")[2]
    assert _of(final, "EXPOSE") == [bind_port]
    [check] = _of(final, "HEALTHCHECK")
    assert json.loads(check.split("CMD", 1)[1]) == ["python", "-m", healthcheck.__name__]
    [cmd] = _of(final, "CMD")
    # gunicorn under the supervisor that starts the bot runners beside it (issue 36)
    assert json.loads(cmd)[:5] == ["cablecar", "supervise", "gunicorn", "-c", "python:service.serving.gunicorn_conf"]
    assert build_parser().parse_args(json.loads(cmd)[1:]).command == "supervise"


def test_the_build_context_leaves_out_local_state() -> None:
    ignored = {line.strip() for line in (ROOT / ".dockerignore").read_text().splitlines()
               if line.strip() and not line.startswith("#")}
    assert {".git", ".venv", "data", ".hypothesis", "**/*.sqlite3", "**/secret.key"} <= ignored
    assert not {"domain", "events", "service", "bots", "cablecar", "pyproject.toml", "README.md", "LICENSE"} & ignored


def test_the_health_check_follows_the_bind_address() -> None:
    assert healthcheck.probe_url("0.0.0.0:8000") == "http://127.0.0.1:8000/v1/health"
    assert healthcheck.probe_url("[::]:9000") == "http://[::1]:9000/v1/health"
    assert healthcheck.probe_url("10.1.2.3:8080") == "http://10.1.2.3:8080/v1/health"
    with pytest.raises(ValueError, match="CABLECAR_BIND"):
        healthcheck.probe_url("unix:/run/cablecar.sock")


def test_the_health_check_path_is_a_route_of_the_app(tmp_path: Path) -> None:
    app = create_app(Settings(data_dir=str(tmp_path), webhooks=False))
    try:
        assert healthcheck.PATH in {rule.rule for rule in app.url_map.iter_rules()}
        assert app.test_client().get(healthcheck.PATH).status_code == 200
    finally:
        app.extensions["cablecar"].stores.close()


def test_compose_follows_the_compose_specification(compose: dict[str, Any]) -> None:
    schema = json.loads(SCHEMA.read_text())
    errors = [e.message for e in jsonschema.Draft201909Validator(schema).iter_errors(compose)]
    assert errors == []


def test_compose_builds_one_image_for_migrate_and_web(compose: dict[str, Any]) -> None:
    services = compose["services"]
    built = [name for name, s in services.items() if "build" in s]
    assert built == ["db1", "migrate"]  # the database servers' image (Patroni), the service's
    assert services["web"]["image"] == services["migrate"]["image"]
    assert services["web"].get("pull_policy") == "never"  # the image is local, never pulled
    command = services["migrate"]["command"]
    assert command[0] == "cablecar" and build_parser().parse_args(command[1:]).command == "migrate"
    for name in ("etcd", "db1", "db2", "db3", "redis", "web", "proxy"):
        assert services[name]["restart"] == "unless-stopped", name


def test_compose_runs_replicas_behind_one_port(compose: dict[str, Any]) -> None:
    services = compose["services"]
    web, proxy = services["web"], services["proxy"]
    assert web["deploy"]["replicas"] >= 2 and "ports" not in web
    [published] = proxy["ports"]
    bind_port = web["environment"]["CABLECAR_BIND"].rpartition(":")[2]
    conf = (ROOT / "docker" / "haproxy.cfg").read_text()
    mounted = {v.split(":")[0] for v in proxy["volumes"]}
    assert "./docker/haproxy.cfg" in mounted
    assert re.search(rf"server-template\s+web\s+\S+\s+web:{bind_port}\n", conf), "the proxy forwards to web's port"
    # a replica is checked on its health, so one answering 503 (no primary reachable) is taken out
    assert "option httpchk GET /v1/health" in conf and "http-check expect status 200" in conf
    listen = re.search(r"bind\s+:(\d+)", conf)
    assert listen and published.split(":")[1] == listen.group(1)
    assert web["environment"]["CABLECAR_TRUSTED_PROXIES"] == "1"


def test_every_variable_compose_gives_the_app_is_a_setting(compose: dict[str, Any]) -> None:
    declared = {s.env for s in SETTINGS}
    for name in ("migrate", "web"):
        given = set(compose["services"][name]["environment"])
        assert given <= declared, f"{name}: {sorted(given - declared)} are read by nothing"
    settings = Settings.from_env({k: re.sub(r"\$\{[^}]*\}", "x", str(v))
                                  for k, v in compose["services"]["web"]["environment"].items()})
    assert settings.database_url and settings.database_url.startswith("postgresql://")


def test_compose_runs_patroni_and_the_service_finds_the_primary_itself(compose: dict[str, Any]) -> None:
    services = compose["services"]
    env = services["web"]["environment"]

    def hosts(url: str) -> list[str]:  # the password is a ${VAR:?...} compose fills in, which urlsplit misreads
        found = re.search(r"@([\w.:,-]+)/cablecar", url)
        assert found, url
        return [h.rpartition(":")[0] for h in found.group(1).split(",")]

    servers = hosts(env["DATABASE_URL"])
    assert len(servers) == 3 and sorted(hosts(env["CABLECAR_READ_DATABASE_URL"])) == sorted(servers)
    assert hosts(env["CABLECAR_READ_DATABASE_URL"])[0] != servers[0]  # reads start on another server
    for name in servers:
        assert services[name]["image"] == services[servers[0]]["image"]
        assert services["web"]["depends_on"].get(name, {"condition": "service_healthy"}) == {
            "condition": "service_healthy"}
    dockerfile = (ROOT / services[servers[0]]["build"]["dockerfile"]).read_text()
    assert "patroni" in dockerfile
    patroni = yaml.safe_load((ROOT / "docker" / "patroni.yml").read_text())
    dcs = patroni["bootstrap"]["dcs"]
    # a commit waits for a standby (no acknowledged action lost on failover), and Patroni names another
    # standby when that one is lost
    assert dcs["synchronous_mode"] is True and dcs["postgresql"]["use_pg_rewind"] is True
    assert patroni["etcd3"]["hosts"].partition(":")[0] in services


def test_compose_uses_the_two_roles_and_no_built_in_password(compose: dict[str, Any]) -> None:
    services = compose["services"]
    users = {}
    for name in ("web", "migrate"):
        found = re.fullmatch(r"postgresql://(\w+):(\$\{\w+:\?[^}]*\})@db1:5432,db2:5432,db3:5432/cablecar"
                             r"(\?target_session_attrs=read-write)?", services[name]["environment"]["DATABASE_URL"])
        assert found, f"{name}: a role and a required password variable, never a password written here"
        users[name] = found.group(1)
    assert users == {"web": "cablecar_app", "migrate": "cablecar_owner"}
    args = build_parser().parse_args(services["migrate"]["command"][1:])
    assert args.app_role == "cablecar_app"
    patroni = yaml.safe_load((ROOT / "docker" / "patroni.yml").read_text())
    init = patroni["bootstrap"]["post_bootstrap"]
    assert f"COPY docker/{Path(init).name} {init}" in (ROOT / "docker" / "patroni.Dockerfile").read_text()
    script = (ROOT / "docker" / Path(init).name).read_text()
    assert "CREATE ROLE cablecar_owner" in script and "CREATE ROLE cablecar_app" in script
    assert "SUPERUSER" not in script.replace("NOSUPERUSER", "")
    assert str(services["db1"]["environment"]["PATRONI_SUPERUSER_PASSWORD"]).startswith("${")
    keys = services["keys"]
    assert keys["command"][:3] == ["cablecar", "keys", "generate"]
    assert services["web"]["environment"]["CABLECAR_SIGNING_KEY_FILE"] == keys["command"][-1]
    assert "keys" in services["web"]["depends_on"]
