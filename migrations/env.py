"""Alembic environment: migrates the database named by DATABASE_URL (or the caller's URL).

Tests and the app pass a URL through ``config.attributes["url"]``; `make run` and the
command line use the settings from the environment.
"""

from __future__ import annotations

from alembic import context

from app.config import get_settings
from app.db import make_engine
from app.models import Base

config = context.config
target_metadata = Base.metadata


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        context.configure(connection=connection, target_metadata=target_metadata)
        with context.begin_transaction():
            context.run_migrations()
        return
    url = config.attributes.get("url") or get_settings().database_url
    engine = make_engine(url)
    with engine.connect() as conn:
        if url.startswith("sqlite"):
            # SQLite changes a column by copying its table; with foreign keys enforced,
            # dropping the old copy would cascade to the rows that point at it. The pragma
            # takes effect only outside a transaction, so it is set before the first one.
            conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
            conn.commit()  # so that Alembic begins (and commits) a transaction of its own
        context.configure(
            connection=conn,
            target_metadata=target_metadata,
            render_as_batch=url.startswith("sqlite"),
        )
        with context.begin_transaction():
            context.run_migrations()
    engine.dispose()


run_migrations_online()
