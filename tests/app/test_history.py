"""History: filters by game, player, result and date; cursor paging that visits every
match once, in order; and a finished match's downloads (its JSON record and a transcript
with every move in words, the seed and its hash).

Each test runs on SQLite and, where TEST_DATABASE_URL is set (CI), on PostgreSQL.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import insert

from app.db import make_engine
from app.models import Match, MatchPlayer, Room
from tests.app.helpers import NewClient, account
from tests.app.test_accounts import finished_guest_match
from tests.app.test_api import error_of

DAY0 = datetime(2026, 3, 1, 12, 0)


def record_matches(url: str, players: dict[str, str]) -> list[dict[str, Any]]:
    """Finished public matches written straight to the database: Ann and Bob play Cupid
    and Coins on different days, Ann winning every other one."""
    made = []
    engine = make_engine(url)
    with engine.begin() as connection:
        for n in range(7):
            game = "cupid" if n % 3 else "coins"
            seats = [players["Ann"], players["Bob"]] + (
                [players["Cleo"]] if game == "coins" else []
            )
            winner = 0 if n % 2 == 0 else 1
            match_id, room_id = f"m{n:02d}", f"r{n:02d}"
            connection.execute(
                insert(Match),
                [
                    {
                        "id": match_id,
                        "room_id": room_id,
                        "game": game,
                        "seat_count": len(seats),
                        "options": {},
                        "seed": "1",
                        "seed_hash": hashlib.sha256(b"1").hexdigest(),
                        "players": [
                            {"seat": i, "name": name, "user_id": uid, "bot": None}
                            for i, (name, uid) in enumerate(zip(players, seats, strict=False))
                        ],
                        "status": "finished",
                        "scores": [10 if i == winner else 0 for i in range(len(seats))],
                        "winners": [winner],
                        "created_at": DAY0 + timedelta(days=n),
                        # Two matches finish at the same moment: the id breaks the tie.
                        "finished_at": DAY0 + timedelta(days=min(n, 5), hours=1),
                    }
                ],
            )
            connection.execute(
                insert(MatchPlayer),
                [
                    {"match_id": match_id, "seat": i, "user_id": uid, "won": i == winner}
                    for i, uid in enumerate(seats)
                ],
            )
            connection.execute(
                insert(Room),
                [
                    {
                        "id": room_id,
                        "code": f"CODE{n:02d}",
                        "game": game,
                        "seat_count": len(seats),
                        "options": {},
                        "visibility": "public",
                        "status": "finished",
                        "host_id": seats[0],
                        "match_id": match_id,
                        "created_at": DAY0,
                    }
                ],
            )
            made.append({"id": match_id, "game": game, "ann_won": winner == 0, "day": n})
    engine.dispose()
    return made


def ids(client: TestClient, **params: Any) -> list[str]:
    response = client.get("/api/matches", params=params)
    assert response.status_code == 200, response.text
    return [m["id"] for m in response.json()["matches"]]


def test_history_filters_and_cursor_paging(new_client: NewClient, database_url: str) -> None:
    ann, bob, cleo = (
        account(new_client, "Ann"),
        account(new_client, "Bob"),
        account(new_client, "Cleo"),
    )
    who = {
        name: c.get("/api/session").json()["user_id"]
        for name, c in zip(["Ann", "Bob", "Cleo"], [ann, bob, cleo], strict=True)
    }
    made = record_matches(database_url, who)
    newest_first = [m["id"] for m in sorted(made, key=lambda m: (-min(m["day"], 5), m["id"]))]
    viewer = new_client("Dee")
    assert ids(viewer, limit=50) == newest_first

    # Filters: game, player, result (of that player), dates (inclusive), and together.
    assert ids(viewer, game="coins") == [m for m in newest_first if m in {"m00", "m03", "m06"}]
    assert ids(viewer, player="Cleo") == ids(viewer, game="coins")
    won = {m["id"] for m in made if m["ann_won"]}
    assert ids(viewer, player="ann", result="won") == [m for m in newest_first if m in won]
    assert ids(viewer, player="Ann", result="lost") == [m for m in newest_first if m not in won]
    assert ids(bob, user="me", result="won") == [m for m in newest_first if m not in won]
    assert ids(viewer, since="2026-03-02", until="2026-03-03") == ["m02", "m01"]
    assert ids(viewer, game="cupid", player="Ann", result="won", since="2026-03-04") == ["m04"]

    # Paging: a cursor at a time, every match once, in order, the same as one long page.
    seen: list[str] = []
    cursor: str | None = None
    pages = 0
    while pages < 10:
        params: dict[str, Any] = {"limit": 2, **({"cursor": cursor} if cursor else {})}
        page = viewer.get("/api/matches", params=params).json()
        seen += [m["id"] for m in page["matches"]]
        pages += 1
        cursor = page["next_cursor"]
        if cursor is None:
            break
    assert cursor is None, "the pages never ended"
    assert seen == newest_first and pages == 4
    filtered = viewer.get("/api/matches", params={"player": "Ann", "result": "won", "limit": 1})
    second = viewer.get(
        "/api/matches",
        params={
            "player": "Ann",
            "result": "won",
            "limit": 1,
            "cursor": filtered.json()["next_cursor"],
        },
    )
    assert [m["id"] for m in second.json()["matches"]] == [m for m in newest_first if m in won][1:2]

    # Each row: players with their usernames, the result, the rating change (none here).
    row = viewer.get("/api/matches", params={"limit": 1}).json()["matches"][0]
    assert [s["username"] for s in row["seats"]][:2] == ["Ann", "Bob"]
    assert row["winners"] and row["scores"] and row["ratings"] == [] and row["rated"] is False

    error_of(viewer.get("/api/matches", params={"cursor": "not-a-cursor"}), 422, "bad_cursor")
    error_of(viewer.get("/api/matches", params={"result": "won"}), 422, "bad_request")
    error_of(
        viewer.get("/api/matches", params={"result": "drawn", "user": "me"}), 422, "bad_request"
    )
    error_of(viewer.get("/api/matches", params={"since": "March"}), 422, "bad_request")
    error_of(viewer.get("/api/matches", params={"player": "Nobody"}), 404, "player_not_found")
    error_of(viewer.get("/api/matches", params={"game": "chess"}), 422, "unknown_game")


def test_a_finished_match_downloads_as_its_record_and_a_transcript(
    new_client: NewClient,
) -> None:
    ann = new_client("Ann")
    match_id = finished_guest_match(ann)
    record = ann.get(f"/api/matches/{match_id}").json()

    download = ann.get(f"/api/matches/{match_id}/record.json")
    assert download.status_code == 200
    assert download.headers["content-disposition"].startswith("attachment;")
    assert download.json() == record

    text_file = ann.get(f"/api/matches/{match_id}/transcript.txt")
    assert text_file.status_code == 200
    assert text_file.headers["content-type"].startswith("text/plain")
    assert f"parlour-coins-{match_id}.txt" in text_file.headers["content-disposition"]
    text = text_file.text
    assert record["seed"] in text and record["seed_hash"] in text
    moves = [line for line in text.splitlines() if line[:6].strip().rstrip(".").isdigit()]
    assert len(moves) == len(record["events"])
    first = record["events"][0]
    # Every move in words: the player's name and the card's name, never its code.
    assert f"{['Ann', 'Ada', 'Babbage'][first['seat']]} plays the " in moves[0]
    assert first["action"]["card"] not in moves[0].split()
    moves_part = text.split("\nMoves\n")[1].split("\nResult\n")[0]
    assert "Seat " not in moves_part and "Ann: " in text.split("\nResult\n")[1]

    room = ann.post("/api/rooms", json={"game": "cupid", "seats": 2}).json()
    ann.post(f"/api/rooms/{room['id']}/bots", json={"seat": 1})
    playing = ann.post(f"/api/rooms/{room['id']}/start").json()
    for kind in ("record.json", "transcript.txt"):
        error_of(ann.get(f"/api/matches/{playing['match_id']}/{kind}"), 409, "not_finished")
    error_of(ann.get("/api/matches/nope/transcript.txt"), 404, "match_not_found")
