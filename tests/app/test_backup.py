"""Backups: ``python -m app.backup backup`` copies a live database, ``restore`` puts it into
a fresh one, and the restored server tells every match, review and rating exactly as the
first did — on SQLite (the online backup API) and on PostgreSQL (pg_dump, pg_restore)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.backup import BackupError, backup, restore
from tests.app.helpers import NewClient, account, make_app, play_out, running
from tests.app.test_ratings import rated_room, snapshot
from tests.conftest import ROOT, postgres_base_url, recreate_postgres, worker_database

PLAYERS = ("Ann", "Bob", "Cleo")


def play_matches(new_client: NewClient) -> None:
    """Two rated matches among accounts and one of a guest against a computer."""
    ann, bob, cleo = (account(new_client, name) for name in PLAYERS)
    for players in ([ann, bob], [bob, cleo]):
        play_out(players, rated_room(players[0], players[1:])["id"])
    dan = new_client("Dan")
    body = {"game": "cupid", "seats": 2, "options": {"target": 10}}
    room = dan.post("/api/rooms", json=body).json()
    assert dan.post(f"/api/rooms/{room['id']}/bots", json={"seat": 1}).status_code == 200
    assert dan.post(f"/api/rooms/{room['id']}/start").status_code == 200
    play_out([dan], room["id"])


def told(client: TestClient) -> dict[str, Any]:
    """Everything the server tells of the finished matches and the ratings."""
    listed = client.get("/api/matches", params={"limit": 200}).json()["matches"]
    ids = [match["id"] for match in listed]
    return {
        "list": listed,
        "records": {i: client.get(f"/api/matches/{i}").json() for i in ids},
        "reviews": {i: client.get(f"/api/matches/{i}/review").json() for i in ids},
        "players": {p: client.get(f"/api/players/{p}").json() for p in PLAYERS},
        "leaderboard": client.get("/api/leaderboard", params={"game": "cupid"}).json(),
    }


def fresh_database(database_url: str, tmp_path: Path) -> str:
    """An empty database (no tables) on the same backend, for the restore."""
    if database_url.startswith("sqlite"):
        return f"sqlite:///{tmp_path / 'restored' / 'parlour.db'}"
    url = worker_database(postgres_base_url(), "_restored")
    recreate_postgres(url)
    return url


def test_a_restored_backup_tells_every_match_review_and_rating_alike(
    new_client: NewClient, database_url: str, tmp_path: Path
) -> None:
    play_matches(new_client)
    viewer = new_client(None)
    before = told(viewer)
    assert len(before["list"]) == 3
    assert all(review["frames"] for review in before["reviews"].values())
    # Taken while the server runs.
    command = ["backup", f"--database-url={database_url}", f"--into={tmp_path / 'backups'}"]
    made = subprocess.run(
        [sys.executable, "-m", "app.backup", *command],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    (file,) = (tmp_path / "backups").iterdir()
    assert file.name.startswith("parlour-")
    fresh = fresh_database(database_url, tmp_path)
    restore(fresh, file)
    with running(make_app(fresh, tmp_path)) as restored:
        assert told(restored(None)) == before
    assert snapshot(fresh) == snapshot(database_url)
    assert len(snapshot(fresh)[1]) == 4  # two rated matches of two players


def test_a_restore_refuses_what_is_not_a_backup_of_its_kind(
    sqlite_url: str, tmp_path: Path
) -> None:
    made = backup(sqlite_url, tmp_path / "backups")
    assert made.suffix == ".sqlite3"
    with pytest.raises(BackupError, match="not a PostgreSQL backup"):
        restore("postgresql+psycopg://nobody@127.0.0.1:1/none", made)
    with pytest.raises(BackupError, match="there is no backup"):
        restore(sqlite_url, tmp_path / "missing.sqlite3")


def test_an_older_pg_dump_than_the_server_is_refused_with_what_to_install(
    postgres_url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    old = tmp_path / "bin" / "pg_dump"
    old.parent.mkdir()
    old.write_text("#!/bin/sh\necho 'pg_dump (PostgreSQL) 9.6.24'\n")
    old.chmod(0o755)
    monkeypatch.setenv("PATH", f"{old.parent}:{os.environ['PATH']}")
    with pytest.raises(BackupError, match=r"pg_dump is from PostgreSQL 9, the server runs \d+"):
        backup(postgres_url, tmp_path / "backups")
