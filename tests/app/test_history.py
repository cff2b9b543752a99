"""History: filters by game, player, result and date; cursor paging that visits every
match once, in order; and a finished match's downloads (its JSON record and a transcript
with every move in words, the seed and its hash).

Each test runs on SQLite and, where TEST_DATABASE_URL is set (CI), on PostgreSQL.
"""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient
from sqlalchemy import insert

from app.db import make_engine
from app.models import Match, MatchPlayer, Room
from tests.app.helpers import NewClient, account, next_of
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


def told_as_in_the_review(client: TestClient, match_id: str, names: list[str]) -> list[str]:
    """The review's account of every move as a transcript's move line: "  12. Ann played …",
    its seats named as the review page names them."""
    frames = client.get(f"/api/matches/{match_id}/review").json()["frames"]
    lines = []
    for frame in frames[1:]:
        event = frame["event"]
        text = re.sub(r"\bSeat (\d+)\b", lambda m: names[int(m.group(1)) - 1], event["text"])
        if event["timeout"]:
            text += " (time ran out: the clock played this move)"
        lines.append(f"  {frame['seq']:>3}. {text}")
    return lines


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
    # The options as players read them, the same words as the record's.
    assert record["options_text"] == ["Points to win: 10"]
    assert "Options: Points to win: 10" in text
    moves = [line for line in text.splitlines() if line[:6].strip().rstrip(".").isdigit()]
    assert len(moves) == len(record["events"])
    # Every move in the review's words: the player's name and the card's name, never its code.
    names = [seat["name"] for seat in sorted(record["seats"], key=lambda s: s["seat"])]
    assert moves == told_as_in_the_review(ann, match_id, names)
    first = record["events"][0]
    assert moves[0].split(". ", 1)[1].startswith(f"{names[first['seat']]} played the ")
    assert first["action"]["card"] not in moves[0].split()
    moves_part = text.split("\nMoves\n")[1].split("\nResult\n")[0]
    assert "Seat " not in moves_part and "Ann: " in text.split("\nResult\n")[1]

    room = ann.post("/api/rooms", json={"game": "cupid", "seats": 2}).json()
    ann.post(f"/api/rooms/{room['id']}/bots", json={"seat": 1})
    playing = ann.post(f"/api/rooms/{room['id']}/start").json()
    for kind in ("record.json", "transcript.txt"):
        error_of(ann.get(f"/api/matches/{playing['match_id']}/{kind}"), 409, "not_finished")
    error_of(ann.get("/api/matches/nope/transcript.txt"), 404, "match_not_found")


def test_the_transcript_carries_the_talk_where_the_review_shows_it(new_client: NewClient) -> None:
    ann = new_client("Ann")
    rid = ann.post("/api/rooms", json={"game": "cupid", "options": {"target": 10}}).json()["id"]
    assert ann.post(f"/api/rooms/{rid}/bots", json={"seat": 1}).status_code == 200
    said: list[tuple[str, int]] = []

    def say(text: str, version: int | None) -> None:
        ws.send_json({"type": "chat", "channel": "table", "text": text})
        next_of(ws, "chat")
        if version is not None:
            said.append((text, version))

    with ann.websocket_connect(f"/ws/rooms/{rid}") as ws:
        say("Good luck", None)  # before the match: not part of it
        assert ann.post(f"/api/rooms/{rid}/start").status_code == 200
        while True:
            message = next_of(ws, "state")
            view = message["view"]
            if view["over"]:
                break
            if not view["legal_actions"]:
                continue
            if len(said) < 3:  # the computer waits for Ann while she talks
                say(f"at move {message['version']}", message["version"])
            ws.send_json(
                {"type": "act", "version": message["version"], "action": view["legal_actions"][0]}
            )
        say("Good game", message["version"])
    match_id = ann.get(f"/api/rooms/{rid}").json()["match_id"]
    text = ann.get(f"/api/matches/{match_id}/transcript.txt").text
    review = ann.get(f"/api/matches/{match_id}/review").json()
    assert [(line["text"], line["version"]) for line in review["chat"]] == said

    moves_part = text.split("\nMoves\n")[1].split("\nResult\n")[0].splitlines()
    moves_made = 0
    heard = []
    for line in moves_part:
        if line[:6].strip().rstrip(".").isdigit():
            moves_made += 1
        else:
            # A line of talk: "<when> Ann: <text>", after the moves made before it was said.
            when, rest = line.strip().split(" ", 1)
            assert when.endswith("Z") and rest.startswith("Ann: ")
            heard.append((rest.removeprefix("Ann: "), moves_made))
    assert heard == said
    names = [seat["name"] for seat in review["match"]["seats"]]
    assert [line for line in moves_part if line[:6].strip().rstrip(".").isdigit()] == (
        told_as_in_the_review(ann, match_id, names)
    )
