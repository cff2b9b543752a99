# Parlour's server image: the same server `make run` starts, migrations applied on start.
FROM python:3.11-slim

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    DATA_DIR=/data

WORKDIR /srv/parlour
COPY pyproject.toml README.md ./
COPY app ./app
COPY games ./games
# Editable, so the app finds templates/, static/ and docs/ beside its source.
RUN pip install --no-cache-dir -e .
COPY alembic.ini ./
COPY migrations ./migrations
COPY templates ./templates
COPY static ./static
COPY docs ./docs
# The catalogues compiled into the image (the server would otherwise compile them on first use).
RUN python -m app.i18n compile

RUN useradd --create-home parlour && mkdir -p /data && chown parlour /data
USER parlour
VOLUME ["/data"]
EXPOSE 8000

# Migrates, then serves (app/serve.py); behind a reverse proxy, TRUSTED_PROXIES names it.
CMD ["python", "-m", "app.serve", "--host", "0.0.0.0", "--port", "8000"]
