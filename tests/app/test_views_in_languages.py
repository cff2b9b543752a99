"""A view's message (what is awaited now) reaches each reader in their language: two
sockets at one table, one asking for Spanish and one for French, each get the view's
``message`` in their own, seats still named "Seat n" for the client to put names in; the
review's views and options speak the request's language.

Each test runs on SQLite and, where TEST_DATABASE_URL is set (CI), on PostgreSQL.
"""

from __future__ import annotations

from tests.app.helpers import NewClient, next_of, started_room, state_at
from tests.app.test_accounts import finished_guest_match


def test_each_socket_at_a_cupid_table_reads_the_views_message_in_its_language(
    new_client: NewClient,
) -> None:
    ann, bob, cat = new_client("Ann"), new_client("Bob"), new_client("Cat")
    room = started_room(ann, [bob], game="cupid")
    rid = room["id"]
    with (
        ann.websocket_connect(f"/ws/rooms/{rid}?lang=es") as ann_ws,
        bob.websocket_connect(f"/ws/rooms/{rid}?lang=fr") as bob_ws,
        cat.websocket_connect(f"/ws/rooms/{rid}") as cat_ws,
    ):
        views = {
            name: state_at(ws, 0)["view"]
            for name, ws in (("ann", ann_ws), ("bob", bob_ws), ("cat", cat_ws))
        }
    dealer = views["cat"]["dealer"]
    token = f"Seat {dealer + 1}"
    assert views["cat"]["message"] == f"Round 1: {token} deals and leads."
    spanish, french = views["ann"]["message"], views["bob"]["message"]
    if views["ann"]["seat"] == dealer:
        assert spanish == "Ronda 1: repartes y sales tú."
        assert french == f"Manche 1 : {token} distribue et entame."
    else:
        assert spanish == f"Ronda 1: {token} reparte y sale."
        assert french == "Manche 1 : vous distribuez et vous entamez."
    # The wire carries the words, not the data they were told from.
    assert all("message_says" not in view for view in views.values())


def test_the_reviews_views_speak_the_requests_language(new_client: NewClient) -> None:
    ann = new_client("Ann")
    match_id = finished_guest_match(ann)
    review = f"/api/matches/{match_id}/review"
    english = [f["view"]["message"] for f in ann.get(review).json()["frames"]]
    frames = ann.get(review, headers={"Accept-Language": "fr"}).json()["frames"]
    french = [f["view"]["message"] for f in frames]
    assert len(french) == len(english)
    assert english[0].startswith("Hand 1: ") and french[0].startswith("Main 1 : ")
    assert all(" the " not in text for text in french), french
    assert all("message_says" not in f["view"] for f in frames)
    # The record's options too.
    record = ann.get(review, headers={"Accept-Language": "fr"}).json()["match"]
    assert record["options_text"] == ["Points pour gagner : 10"]
    assert ann.get(review).json()["match"]["options_text"] == ["Points to win: 10"]


def test_a_refused_move_is_explained_in_the_sockets_language(new_client: NewClient) -> None:
    ann, bob = new_client("Ann"), new_client("Bob")
    room = started_room(ann, [bob], game="cupid")
    rid = room["id"]
    with (
        ann.websocket_connect(f"/ws/rooms/{rid}?lang=es") as ann_ws,
        bob.websocket_connect(f"/ws/rooms/{rid}?lang=fr") as bob_ws,
    ):
        states = {ws: state_at(ws, 0) for ws in (ann_ws, bob_ws)}
        mover_ws = (
            ann_ws if states[ann_ws]["view"]["to_act"] == [states[ann_ws]["seat"]] else bob_ws
        )
        other_ws = bob_ws if mover_ws is ann_ws else ann_ws
        # A card of the game the mover does not hold: the other player holds it.
        card = states[other_ws]["view"]["hand"][0]
        action = {"type": "play", "card": card}
        mover_ws.send_json({"type": "act", "version": 0, "action": action})
        refused = next_of(mover_ws, "error")
        mover_ws.send_json({"type": "preview", "version": 0, "action": action})
        previewed = next_of(mover_ws, "preview")
    spanish = mover_ws is ann_ws
    expected = f"No tienes {card}." if spanish else f"Vous n'avez pas {card}."
    assert refused["code"] == "illegal_action" and refused["message"] == expected
    assert previewed["ok"] is False and previewed["message"] == expected


def test_each_socket_reads_the_tables_options_in_its_language(new_client: NewClient) -> None:
    ann, bob = new_client("Ann"), new_client("Bob")
    room = started_room(ann, [bob], game="cupid", options={"target": 50})
    assert room["options_text"] == ["Points to win: 50"]
    with (
        ann.websocket_connect(f"/ws/rooms/{room['id']}?lang=es") as ann_ws,
        bob.websocket_connect(f"/ws/rooms/{room['id']}?lang=fr") as bob_ws,
    ):
        spanish = next_of(ann_ws, "room")["room"]["options_text"]
        french = next_of(bob_ws, "room")["room"]["options_text"]
    assert spanish == ["Puntos para ganar: 50"]
    assert french == ["Points pour gagner : 50"]
