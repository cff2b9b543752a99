"""Ratings: a rated match changes its players' ratings once, in the transaction that
finishes it — a finish sent again, a retried write or a second settling changes nothing —
and ``python -m app.ratings rebuild`` gives the same numbers from the match records.
Rated tables are for accounts, without computer players of the host's choosing.

Each test runs on SQLite and, where TEST_DATABASE_URL is set (CI), on PostgreSQL.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import select, update

from app.db import make_engine
from app.models import Match, Rating, RatingChange
from app.ratings import settle_match
from app.ratings.model import ranks
from app.rooms.event_log import Event, EventLog, SeqTaken
from tests.app.helpers import NewClient, account, make_app, next_of, play_out, running, state_at
from tests.app.test_api import error_of
from tests.conftest import ROOT


def rated_room(host: TestClient, guests: list[TestClient], game: str = "cupid") -> dict[str, Any]:
    body = {"game": game, "seats": 1 + len(guests), "options": {"target": 10}, "rated": True}
    room = host.post("/api/rooms", json=body).json()
    assert room["rated"] is True
    for guest in guests:
        assert guest.post(f"/api/rooms/{room['id']}/join", json={}).status_code == 200
    started = host.post(f"/api/rooms/{room['id']}/start")
    assert started.status_code == 200, started.text
    return dict(started.json())


def snapshot(url: str) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """Every rating and every rating change, in a fixed order."""
    engine = make_engine(url)
    with engine.connect() as connection:
        ratings = connection.execute(
            select(Rating.user_id, Rating.game, Rating.mu, Rating.sigma, Rating.rating).order_by(
                Rating.user_id, Rating.game
            )
        ).all()
        changes = connection.execute(
            select(
                RatingChange.match_id,
                RatingChange.seat,
                RatingChange.mu_before,
                RatingChange.mu_after,
                RatingChange.sigma_after,
                RatingChange.rating_after,
            ).order_by(RatingChange.match_id, RatingChange.seat)
        ).all()
    engine.dispose()
    return [tuple(r) for r in ratings], [tuple(c) for c in changes]


def test_a_rated_match_changes_ratings_once(new_client: NewClient, database_url: str) -> None:
    ann, bob = account(new_client, "Ann"), account(new_client, "Bob")
    room = rated_room(ann, [bob])
    last = play_out([ann, bob], room["id"])
    winner = last["view"]["winners"][0]
    record = ann.get(f"/api/matches/{room['match_id']}").json()
    assert record["rated"] is True
    changes = {c["seat"]: c for c in record["ratings"]}
    assert set(changes) == {0, 1}
    assert changes[winner]["change"] > 0 > changes[1 - winner]["change"]
    assert all(c["before"] == 1000 for c in changes.values())
    after_finish = snapshot(database_url)
    assert len(after_finish[0]) == 2 and len(after_finish[1]) == 2

    # The finishing move sent again (a double submit, a replayed message) is refused...
    with ann.websocket_connect(f"/ws/rooms/{room['id']}") as ws:
        state_at(ws, last["version"])
        ws.send_json({"type": "act", "version": last["version"] - 1, "action": {"type": "pass"}})
        assert next_of(ws, "error")["code"] == "match_over"
    # ...the last event written again (a retry after an unknown outcome) is a taken seq...
    engine = make_engine(database_url)
    log = EventLog(engine, [settle_match])
    events = ann.get(f"/api/matches/{room['match_id']}").json()["events"]
    final = events[-1]
    again = Event(
        room["match_id"],
        final["seq"],
        final["seat"],
        final["action"],
        room["id"],
        (record["scores"], record["winners"]),
    )

    async def write_again() -> None:
        try:
            await log.append(again)
        finally:
            await log.close()

    try:
        asyncio.run(write_again())
        raise AssertionError("the same seq was written twice")
    except SeqTaken:
        pass
    # ...and settling the match once more, in a transaction of its own, does nothing.
    with engine.begin() as connection:
        settle_match(connection, room["match_id"], record_time(connection, room["match_id"]))
    engine.dispose()
    assert snapshot(database_url) == after_finish

    # The leaderboard and the player pages show the new ratings.
    board = ann.get("/api/leaderboard", params={"game": "cupid"}).json()["players"]
    assert [p["username"] for p in board] == [["Ann", "Bob"][winner], ["Ann", "Bob"][1 - winner]]
    assert board[0]["rating"] == changes[winner]["after"]
    page = bob.get("/api/players/Bob").json()
    cupid = next(g for g in page["games"] if g["game"] == "cupid")
    assert cupid["played"] == 1 and cupid["won"] == (1 if winner == 1 else 0)
    assert cupid["rating"] == changes[1]["after"]
    assert [h["rating"] for h in cupid["history"]] == [changes[1]["after"]]
    listed = bob.get("/api/matches", params={"player": "Ann"}).json()["matches"]
    assert listed[0]["ratings"] == record["ratings"]


def record_time(connection: Any, match_id: str) -> Any:
    return connection.execute(select(Match.finished_at).where(Match.id == match_id)).scalar_one()


def test_the_rebuild_command_reproduces_every_rating(
    new_client: NewClient, database_url: str
) -> None:
    ann, bob, cleo = (
        account(new_client, "Ann"),
        account(new_client, "Bob"),
        account(new_client, "Cleo"),
    )
    # Matches that share players, so that the order they are rated in matters.
    for players in ([ann, bob], [bob, cleo], [ann, bob], [cleo, ann]):
        room = rated_room(players[0], players[1:])
        play_out(players, room["id"])
    three = rated_room(ann, [bob, cleo], game="coins")
    play_out([ann, bob, cleo], three["id"])
    before = snapshot(database_url)
    assert len(before[1]) == 11
    # Spoil every rating, then rebuild them from the match records.
    engine = make_engine(database_url)
    with engine.begin() as connection:
        connection.execute(update(Rating).values(mu=0.0, sigma=1.0, rating=0))
    engine.dispose()
    assert snapshot(database_url) != before
    rebuilt = subprocess.run(
        [sys.executable, "-m", "app.ratings", "rebuild", "--database-url", database_url],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert rebuilt.returncode == 0, rebuilt.stderr
    assert "5 rated matches" in rebuilt.stdout
    assert snapshot(database_url) == before


def test_rated_tables_are_for_accounts_without_computers(database_url: str, tmp_path: Path) -> None:
    # No absence grace: a seat whose person is gone may be given to a computer at once.
    app = make_app(
        database_url, tmp_path, rate_per_second=1000.0, rate_burst=1000, absence_grace=0.0
    )
    with running(app) as new_client:
        _rated_tables_are_for_accounts_without_computers(new_client)


def _rated_tables_are_for_accounts_without_computers(new_client: NewClient) -> None:
    guest = new_client("Gus")
    body = {"game": "cupid", "seats": 2, "rated": True}
    error_of(guest.post("/api/rooms", json=body), 403, "account_needed")
    ann, bob = account(new_client, "Ann"), account(new_client, "Bob")
    room = ann.post("/api/rooms", json={**body, "options": {"target": 10}}).json()
    error_of(guest.post(f"/api/rooms/{room['id']}/join", json={}), 403, "account_needed")
    error_of(ann.post(f"/api/rooms/{room['id']}/bots", json={"seat": 1}), 409, "rated_table")
    assert bob.post(f"/api/rooms/{room['id']}/join", json={}).status_code == 200
    assert ann.post(f"/api/rooms/{room['id']}/start").status_code == 200
    # During the match a computer may stand in for a person who left; the table stays rated
    # (tests/app/test_leaving_a_rated_match.py: the one who left is rated last).
    replaced = ann.post(f"/api/rooms/{room['id']}/bots", json={"seat": 1}).json()
    assert replaced["rated"] is True and replaced["seats"][1]["stand_in_for"]["name"] == "Bob"
    error_of(ann.get("/api/leaderboard", params={"game": "chess"}), 422, "unknown_game")


def test_places_put_winners_first_then_scores_with_ties_shared() -> None:
    assert ranks([121, 87], [0], lower_scores_win=False) == [0, 1]
    assert ranks([3, 9, 3, 0], [3], lower_scores_win=True) == [1, 2, 1, 0]
    assert ranks([50, 50, 20], [0, 1], lower_scores_win=False) == [0, 0, 1]
