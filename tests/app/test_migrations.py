"""Alembic owns the schema: after `upgrade head` the models and the database agree.

Run on SQLite and on PostgreSQL; a model change without its migration fails here.
"""

from __future__ import annotations

from datetime import datetime
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import inspect, text

from app.db import make_engine, upgrade_to_head
from app.models import Base
from app.people.cookie import CookieSigner
from tests.app.helpers import make_app, running
from tests.conftest import database_url_for


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


def test_guests_keep_their_cookies_and_old_matches_learn_who_won(
    backend: str, tmp_path: Path
) -> None:
    """Upgrading a database of guests: each one's cookie (their user id, signed) still
    names them, and the seats of finished matches know whether they won."""
    url = database_url_for(backend, tmp_path)
    upgrade_to_head(url, "0001")
    engine = make_engine(url)
    with engine.begin() as connection:
        connection.execute(
            text("INSERT INTO users (id, name, created_at) VALUES ('u1', 'Ann', :at)"),
            {"at": datetime(2026, 1, 1)},
        )
        connection.execute(
            text(
                "INSERT INTO matches (id, room_id, game, seat_count, options, seed, seed_hash,"
                " players, status, scores, winners, created_at)"
                " VALUES ('m1', 'r1', 'cupid', 2, '{}', '1', 'x', '[]', 'finished',"
                " '[5, 9]', '[1]', :at)"
            ),
            {"at": datetime(2026, 1, 1)},
        )
        connection.execute(
            text(
                "INSERT INTO match_players (match_id, seat, user_id)"
                " VALUES ('m1', 0, 'u1'), ('m1', 1, NULL)"
            )
        )
    upgrade_to_head(url)
    with engine.connect() as connection:
        won = connection.execute(text("SELECT seat, won FROM match_players ORDER BY seat")).all()
    engine.dispose()
    assert [(seat, bool(flag)) for seat, flag in won] == [(0, False), (1, True)]
    app = make_app(url, tmp_path)
    with running(app) as new_client:
        old_browser = new_client(None)
        old_browser.cookies.set("parlour_session", CookieSigner("test-secret").sign("u1"))
        assert old_browser.get("/api/session").json() == {
            "user_id": "u1",
            "name": "Ann",
            "username": None,
        }


@pytest.fixture(params=["sqlite", "postgresql"])
def backend(request: pytest.FixtureRequest) -> str:
    return str(request.param)


def test_accounts_are_found_by_their_usernames_once_look_alikes_fold(
    backend: str, tmp_path: Path
) -> None:
    """Upgrading keys every username again with the look-alike fold: an account spelt in
    small capitals is found by its username (and by its look-alikes), and one whose new key
    an older account holds keeps its own."""
    url = database_url_for(backend, tmp_path)
    upgrade_to_head(url, "0005_free_room_codes")
    engine = make_engine(url)
    accounts = [("u1", "Ann2", "ann2"), ("u2", "ᴀɴɴ3", "ᴀɴɴ3"), ("u3", "ᴀnn2", "ᴀnn2")]
    with engine.begin() as connection:
        for n, (user_id, username, key) in enumerate(accounts):
            connection.execute(
                text(
                    "INSERT INTO users (id, name, created_at, username, username_key)"
                    " VALUES (:id, :name, :at, :name, :key)"
                ),
                {"id": user_id, "name": username, "at": datetime(2026, 1, 1 + n), "key": key},
            )
    upgrade_to_head(url)
    with engine.connect() as connection:
        keys = dict(connection.execute(text("SELECT id, username_key FROM users")).all())
    engine.dispose()
    assert keys == {"u1": "ann2", "u2": "ann3", "u3": "ᴀnn2"}
    app = make_app(url, tmp_path)
    with running(app) as new_client:
        visitor = new_client(None)
        for spelling in ("ᴀɴɴ3", "ANN3", "Ann3"):
            assert visitor.get(f"/api/players/{spelling}").json()["user_id"] == "u2"
