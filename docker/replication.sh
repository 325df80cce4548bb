#!/bin/bash
# Run once by the postgres image when it creates the primary's data folder
# (/docker-entrypoint-initdb.d): let the standby connect for replication with
# the same password as every client of the compose network.
set -euo pipefail
echo "host replication all all scram-sha-256" >> "$PGDATA/pg_hba.conf"
