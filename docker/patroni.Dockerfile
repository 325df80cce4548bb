# The database servers of docker-compose.yml: PostgreSQL 16 run by Patroni
# (leader election in etcd, automatic failover, synchronous mode), the engine
# docs/scaling.md and `bash bench/run.sh --only cluster` run.
FROM postgres:16
RUN apt-get update \
    && apt-get install -y --no-install-recommends patroni \
    && rm -rf /var/lib/apt/lists/*
COPY docker/patroni.yml /etc/patroni.yml
COPY docker/patroni-bootstrap.sh /usr/local/bin/patroni-bootstrap.sh
USER postgres
CMD ["patroni", "/etc/patroni.yml"]
