#!/bin/bash
# Run once by the postgres image when it creates the primary's data folder
# (/docker-entrypoint-initdb.d, after postgres-init.sh): the role the standby
# replicates as (REPLICATION only: it can read no table through SQL) and its
# line in pg_hba.conf.  The password comes from the environment.
set -euo pipefail
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname postgres \
    -v replication_password="$CABLECAR_REPLICATION_PASSWORD" <<'SQL'
CREATE ROLE cablecar_replica LOGIN REPLICATION PASSWORD :'replication_password';
SQL
echo "host replication cablecar_replica all scram-sha-256" >> "$PGDATA/pg_hba.conf"
