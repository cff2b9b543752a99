"""A player's page shows only the matches its visitor may see, by the rule a match's own
record follows: a private table's match — who played whom, when, who won, what it did to a
rating — is its players' alone, while the player's totals (played, won, rating) still
count it.

Each test runs on SQLite and, where TEST_DATABASE_URL is set (CI), on PostgreSQL.
"""

from __future__ import annotations

from typing import Any

from fastapi.testclient import TestClient

from tests.app.helpers import NewClient, account, play_out


def rated_match(host: TestClient, guest: TestClient, visibility: str) -> str:
    """A rated Cupid match between ``host`` and ``guest``, played out; its id."""
    body = {
        "game": "cupid",
        "seats": 2,
        "options": {"target": 10},
        "rated": True,
        "visibility": visibility,
    }
    room = host.post("/api/rooms", json=body).json()
    assert guest.post(f"/api/rooms/{room['id']}/join", json={}).status_code == 200
    started = host.post(f"/api/rooms/{room['id']}/start")
    assert started.status_code == 200, started.text
    play_out([host, guest], room["id"])
    return str(started.json()["match_id"])


def seen_on_page(page: dict[str, Any]) -> tuple[set[str], set[str]]:
    """The match ids a player page names: in its match list, and in its rating history."""
    listed = {m["id"] for m in page["matches"]}
    charted = {point["match_id"] for game in page["games"] for point in game["history"]}
    return listed, charted


def test_a_player_page_names_a_private_match_only_to_its_players(new_client: NewClient) -> None:
    ann, bob, cleo = (account(new_client, name) for name in ("Ann", "Bob", "Cleo"))
    open_match = rated_match(ann, bob, "public")
    hidden = rated_match(ann, bob, "private")
    nobody = new_client(None)

    for visitor in (nobody, cleo):
        # The match's own record is refused them...
        assert visitor.get(f"/api/matches/{hidden}").status_code == 404
        # ...and Ann's page names only the public one, in its list and in its chart...
        page = visitor.get("/api/players/Ann").json()
        assert seen_on_page(page) == ({open_match}, {open_match})
        listed = visitor.get("/api/matches", params={"player": "Ann"}).json()["matches"]
        assert [m["id"] for m in listed] == [open_match]
        # ...while her totals count both.
        cupid = next(g for g in page["games"] if g["game"] == "cupid")
        assert cupid["played"] == 2 and cupid["rated_matches"] == 2

    # Its players see it, on their own page and on each other's.
    for player in (ann, bob):
        for name in ("Ann", "Bob"):
            page = player.get(f"/api/players/{name}").json()
            assert seen_on_page(page) == ({open_match, hidden}, {open_match, hidden})
