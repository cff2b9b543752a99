"""A live server whose matches are all dealt from one seed (tests/e2e/seeded_serve.py), for
the browser tests whose scenario depends on the cards."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from playwright.sync_api import Page

from tests.conftest import LiveServer, migrated_sqlite
from tests.e2e.flows import api_json


class SeededServer(LiveServer):
    module = "tests.e2e.seeded_serve"


@contextmanager
def seeded_server(
    tmp_path: Path, sqlite_template: Path, seed: int, **env: str
) -> Iterator[LiveServer]:
    """A server on a fresh migrated SQLite database whose every match is dealt from
    ``seed``; stopped afterwards."""
    url = migrated_sqlite(sqlite_template, tmp_path / "live.db")
    server = SeededServer(url, tmp_path, PARLOUR_TEST_SEED=str(seed), **env).start()
    try:
        yield server
    finally:
        server.stop()


def assert_dealt_from(page: Page, room_id: str, seed: int) -> None:
    """The room's match, over now, was dealt from ``seed`` (its review reveals the seed)."""
    room = api_json(page, f"/api/rooms/{room_id}")
    record = api_json(page, f"/api/matches/{room['match_id']}")
    assert record["seed"] is not None and int(record["seed"]) == seed, record["seed"]
