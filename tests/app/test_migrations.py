"""Alembic owns the schema: after `upgrade head` the models and the database agree.

Run on SQLite and on PostgreSQL; a model change without its migration fails here.
"""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect

from app.db import make_engine
from app.models import Base


def test_models_and_migrations_agree(database_url: str) -> None:
    engine = make_engine(database_url)
    with engine.connect() as connection:
        context = MigrationContext.configure(connection)
        diff = compare_metadata(context, Base.metadata)
        tables = set(inspect(connection).get_table_names())
    engine.dispose()
    assert diff == [], f"models and migrations differ: {diff}"
    assert set(Base.metadata.tables) <= tables


def test_a_model_change_without_a_migration_is_caught(database_url: str) -> None:
    from sqlalchemy import Column, Integer, MetaData, Table

    changed = MetaData()
    for table in Base.metadata.tables.values():
        table.to_metadata(changed)
    Table("surprise", changed, Column("id", Integer, primary_key=True))
    engine = make_engine(database_url)
    with engine.connect() as connection:
        diff = compare_metadata(MigrationContext.configure(connection), changed)
    engine.dispose()
    assert any(entry[0] == "add_table" for entry in diff)
