# Cable Car game server: gunicorn on a slim Python image, as a non-root user.
FROM python:3.11-slim AS build
WORKDIR /src
COPY pyproject.toml README.md ./
COPY domain ./domain
COPY events ./events
COPY service ./service
RUN pip install --no-cache-dir --prefix=/install .

FROM python:3.11-slim
ENV PYTHONDONTWRITEBYTECODE=1 PYTHONUNBUFFERED=1 \
    CABLECAR_DATA_DIR=/var/lib/cablecar CABLECAR_BIND=0.0.0.0:8000
COPY --from=build /install /usr/local
RUN useradd --system --create-home --uid 10001 cablecar \
    && mkdir -p /var/lib/cablecar && chown cablecar /var/lib/cablecar
USER cablecar
WORKDIR /home/cablecar
EXPOSE 8000
HEALTHCHECK --interval=15s --timeout=3s --start-period=10s --retries=3 \
  CMD python -c "import urllib.request,sys; sys.exit(0 if urllib.request.urlopen('http://127.0.0.1:8000/v1/health', timeout=2).status == 200 else 1)"
CMD ["gunicorn", "-c", "python:service.gunicorn_conf", "service.wsgi:app"]
