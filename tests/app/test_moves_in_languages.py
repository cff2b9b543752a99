"""The accounts of moves reach each reader in their language: at a live table each socket
gets the last move told in its own (``?lang=``, else the cookie or the browser's), two
readers of one table in two languages each get theirs; the review, the transcript and the
analysis of a finished match speak the request's language.

Each test runs on SQLite and, where TEST_DATABASE_URL is set (CI), on PostgreSQL.
"""

from __future__ import annotations

import re
from typing import Any

import games
from app.records.analysis import told_decision
from app.rooms.thinking import judge_decision
from tests.app.helpers import NewClient, started_room, state_at
from tests.app.test_accounts import finished_guest_match

SPANISH_SUITS = re.compile(r"\b(oros|copas|espadas|bastos)\b")
FRENCH_SUITS = re.compile(r"\b(Oros|Copas|Espadas|Bastos)\b")
ENGLISH_SUITS = re.compile(r"\b(coins|cups|swords|clubs)\b")


def test_each_socket_at_a_coins_table_reads_the_moves_in_its_language(
    new_client: NewClient,
) -> None:
    ann, bob, cat = new_client("Ann"), new_client("Bob"), new_client("Cat")
    dan, eve = new_client("Dan"), new_client("Eve")
    room = started_room(ann, [bob, cat], game="coins")
    rid = room["id"]
    players = {"Ann": ann, "Bob": bob, "Cat": cat}
    seats = {s["seat"]: players[s["name"]] for s in room["seats"]}
    with (
        ann.websocket_connect(f"/ws/rooms/{rid}?lang=es") as ann_ws,
        bob.websocket_connect(f"/ws/rooms/{rid}?lang=fr") as bob_ws,
        cat.websocket_connect(f"/ws/rooms/{rid}") as cat_ws,
        # Two watchers, one seat (none) between them, in two languages.
        dan.websocket_connect(f"/ws/rooms/{rid}?lang=es") as dan_ws,
        eve.websocket_connect(f"/ws/rooms/{rid}", headers={"Accept-Language": "fr"}) as eve_ws,
    ):
        sockets = {ann: ann_ws, bob: bob_ws, cat: cat_ws}
        opening = {ws: state_at(ws, 0) for ws in (ann_ws, bob_ws, cat_ws, dan_ws, eve_ws)}
        mover = opening[ann_ws]["view"]["to_act"][0]
        mover_ws = sockets[seats[mover]]
        action = opening[mover_ws]["view"]["legal_actions"][0]
        mover_ws.send_json({"type": "act", "version": 0, "action": action})
        told = {
            name: state_at(ws, 1)["event"]
            for name, ws in (
                ("ann", ann_ws),
                ("bob", bob_ws),
                ("cat", cat_ws),
                ("dan", dan_ws),
                ("eve", eve_ws),
            )
        }
    token = f"Seat {mover + 1}"
    assert told["cat"]["text"].startswith(f"{token} played the ")
    assert ENGLISH_SUITS.search(told["cat"]["text"]), told["cat"]
    for reader in ("ann", "dan"):
        text = told[reader]["text"]
        assert text.startswith(f"{token} jugó "), text
        assert SPANISH_SUITS.search(text) and not ENGLISH_SUITS.search(text), text
    for reader in ("bob", "eve"):
        text = told[reader]["text"]
        assert text.startswith(f"{token} a joué "), text
        assert FRENCH_SUITS.search(text) and not ENGLISH_SUITS.search(text), text
    # The wire carries the words, not the data they were told from.
    assert all("says" not in event for event in told.values())
    assert {event["seq"] for event in told.values()} == {1}


def _moves(frames: list[dict[str, Any]]) -> list[str]:
    return [frame["event"]["text"] for frame in frames[1:]]


def test_the_review_and_the_transcript_speak_the_requests_language(
    new_client: NewClient,
) -> None:
    ann = new_client("Ann")
    match_id = finished_guest_match(ann)
    review = f"/api/matches/{match_id}/review"
    english = _moves(ann.get(review).json()["frames"])
    spanish = _moves(
        ann.get(review, headers={"Accept-Language": "es-ES,es;q=0.9"}).json()["frames"]
    )
    assert len(spanish) == len(english)
    assert all(text.startswith("Seat ") and " played the " in text for text in english)
    assert all(" jugó " in text and " played " not in text for text in spanish), spanish[:3]
    assert any(SPANISH_SUITS.search(text) for text in spanish)
    assert (
        "says"
        not in ann.get(review, headers={"Accept-Language": "es"}).json()["frames"][1]["event"]
    )

    transcript = ann.get(f"/api/matches/{match_id}/transcript.txt?lang=fr").text
    # Its headings are French too.
    moves = transcript.split("\nCoups\n")[1].split("\nRésultat\n")[0]
    assert " a joué " in moves and " played " not in moves
    assert "Seat " not in moves and "Ann a joué " in moves


def test_the_best_move_of_an_analysis_is_told_in_the_readers_language() -> None:
    rules = games.get("coins")
    state = rules.new_game(3, 7, {"target": 10}, None)
    seat = rules.to_act(state)[0]
    played = rules.legal_actions(state, seat)[-1]
    judged = judge_decision("coins", state, seat, played, 1, "7")
    assert "best_says" in judged and judged["best_text"].startswith(f"Seat {seat + 1} played ")
    spanish = told_decision(judged, "es")
    assert spanish["best_text"].startswith(f"Seat {seat + 1} jugó ")
    assert "best_says" not in spanish
    # One stored before the accounts were kept as data keeps its English.
    stored = {key: value for key, value in judged.items() if key != "best_says"}
    assert told_decision(stored, "fr")["best_text"] == judged["best_text"]
