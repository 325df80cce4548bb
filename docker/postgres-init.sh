#!/bin/sh
# The two roles of docs/production.md, step 1: run once by the postgres
# image, when it initialises its data folder (docker-entrypoint-initdb.d).
# cablecar_owner owns the database and runs `cablecar migrate`; the server
# connects as cablecar_app, which `cablecar migrate --app-role cablecar_app`
# grants what it needs (events, games and idempotency keys only through the
# owner's functions).  Neither is a superuser.  The passwords come from the
# environment (psql variables, so they are quoted as literals).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
    -v owner_password="$CABLECAR_OWNER_PASSWORD" -v app_password="$CABLECAR_APP_PASSWORD" <<'SQL'
CREATE ROLE cablecar_owner LOGIN PASSWORD :'owner_password';
CREATE ROLE cablecar_app LOGIN PASSWORD :'app_password';
CREATE DATABASE cablecar OWNER cablecar_owner;
SQL
