#!/bin/bash
# The `standby` service of docker-compose.yml: a streaming hot standby of
# `postgres`.  On first start its data folder is a base backup of the primary
# (`pg_basebackup -R` also writes the connection to follow it and
# standby.signal); afterwards PostgreSQL replays the primary's WAL as it comes.
# The web replicas read event pages, stream catch-up, exports, audits and
# listings from it (CABLECAR_READ_DATABASE_URL), never staler than the primary.
set -euo pipefail
if [ ! -s "$PGDATA/PG_VERSION" ]; then
    until pg_basebackup -h postgres -U "$REPLICATION_USER" -D "$PGDATA" -R -X stream -c fast; do
        echo "standby: the primary is not ready for a base backup yet; retrying" >&2
        rm -rf "${PGDATA:?}"/*
        sleep 2
    done
    chmod 700 "$PGDATA"
fi
exec postgres -c hot_standby=on -c hot_standby_feedback=on
