# Cable Car game server: one image for every role (the web server with its bot runners, `cablecar
# migrate`, `cablecar webhooks run`, `cablecar bots run`), gunicorn on a slim Python, as a non-root user.
FROM python:3.11-slim AS build
WORKDIR /src
# pyproject.toml names README.md (readme) and LICENSE (license-files): the build needs all three.
COPY pyproject.toml README.md LICENSE ./
COPY domain ./domain
COPY events ./events
COPY service ./service
COPY bots ./bots
COPY cablecar ./cablecar
RUN pip install --no-cache-dir --prefix=/install .

FROM python:3.11-slim
# CABLECAR_DATA_DIR: the embedded store (no DATABASE_URL) and its secret key live in the volume below;
# its signing key in a volume of its own beside it (/var/lib/cablecar-keys: never with the data).
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    CABLECAR_DATA_DIR=/var/lib/cablecar CABLECAR_BIND=0.0.0.0:8000
COPY --from=build /install /usr/local
RUN useradd --system --create-home --uid 10001 cablecar \
    && mkdir -p /var/lib/cablecar /var/lib/cablecar-keys && chown cablecar /var/lib/cablecar /var/lib/cablecar-keys \
    && chmod 700 /var/lib/cablecar-keys
USER cablecar
WORKDIR /home/cablecar
VOLUME /var/lib/cablecar
VOLUME /var/lib/cablecar-keys
EXPOSE 8000
# Probes the address in CABLECAR_BIND, so a server moved to another port is still checked.
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD ["python", "-m", "service.serving.healthcheck"]
# gunicorn with the bot runners beside it (CABLECAR_BOT_RUNNERS, restarted should one exit): a game with a
# bot seat is played on any store; SIGTERM goes to gunicorn, then the runners stop.
CMD ["cablecar", "supervise", "gunicorn", "-c", "python:service.serving.gunicorn_conf", "service.serving.wsgi:app"]
