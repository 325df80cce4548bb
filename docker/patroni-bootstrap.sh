#!/bin/sh
# Patroni's post_bootstrap (docker/patroni.yml): run once, on the first primary,
# with a connection string as $1.  The two roles of docs/production.md, step 1:
# cablecar_owner owns the database and runs `cablecar migrate`; the server
# connects as cablecar_app, which `cablecar migrate --app-role cablecar_app`
# grants what it needs.  Neither is a superuser.  The passwords come from the
# environment (psql variables, so they are quoted as literals).
set -eu
psql -v ON_ERROR_STOP=1 "$1" \
    -v owner_password="$CABLECAR_OWNER_PASSWORD" -v app_password="$CABLECAR_APP_PASSWORD" <<'SQL'
CREATE ROLE cablecar_owner LOGIN PASSWORD :'owner_password';
CREATE ROLE cablecar_app LOGIN PASSWORD :'app_password';
CREATE DATABASE cablecar OWNER cablecar_owner;
SQL
