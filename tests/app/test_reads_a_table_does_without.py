"""What opening a table and its sockets need not read from the database.

A table made in this process has said nothing yet, so its first socket is sent an empty
chat log without reading one; a guest blocks nobody (blocking is for accounts, and a guest
who signs up gets a new session, which closes their sockets), so a guest's socket reads no
blocks; and a rematch that starts with every seat taken was never open to invitations, so
its start reads none to close. Each read is still made where it can find something: an
account's socket reads its blocks, and a table that was open to invitations reads them
when it starts.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from app import store
from app.store import social
from tests.app.helpers import NewClient, account, next_of, play_out, room_of, started_room
from tests.app.test_invitations import invite, table
from tests.app.test_rematch_offers import offer_is, room_update


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Counter[str]:
    """How many times each of the reads in question was made."""
    made: Counter[str] = Counter()

    def counted(module: Any, name: str) -> None:
        real: Callable[..., Any] = getattr(module, name)

        def read(**kwargs: Any) -> Any:
            made[name] += 1
            return real(**kwargs)

        monkeypatch.setattr(module, name, read)

    counted(store, "recent_messages")
    counted(social, "blocked_by")
    counted(social, "invitations_of_room")
    return made


def test_a_new_tables_first_socket_gets_an_empty_chat_log_without_a_read(
    new_client: NewClient, reads: Counter[str]
) -> None:
    ann = new_client("Ann")
    room = ann.post("/api/rooms", json={"game": "cupid"}).json()
    with ann.websocket_connect(f"/ws/rooms/{room['id']}") as ws:
        assert next_of(ws, "chat_log")["messages"] == []
        ws.send_json({"type": "chat", "channel": "table", "text": "hello"})
        next_of(ws, "chat")
    with ann.websocket_connect(f"/ws/rooms/{room['id']}") as again:
        assert [m["text"] for m in next_of(again, "chat_log")["messages"]] == ["hello"]
    assert reads["recent_messages"] == 0


def test_a_guests_socket_reads_no_blocks_and_an_accounts_does(
    new_client: NewClient, reads: Counter[str]
) -> None:
    guest = new_client("Gus")
    room = guest.post("/api/rooms", json={"game": "cupid"}).json()
    with guest.websocket_connect(f"/ws/rooms/{room['id']}") as ws:
        ws.receive_json()
    assert reads["blocked_by"] == 0
    ada = account(new_client, "Ada")
    with ada.websocket_connect(f"/ws/rooms/{room['id']}") as ws:
        ws.receive_json()
    assert reads["blocked_by"] == 1


def test_a_rematch_started_with_every_seat_taken_reads_no_invitations(
    new_client: NewClient, reads: Counter[str]
) -> None:
    ann, bob = new_client("Ann"), new_client("Bob")
    room = started_room(ann, [bob], "cupid", options={"target": 10})
    play_out([ann, bob], room["id"])
    before = reads["invitations_of_room"]
    with (
        ann.websocket_connect(f"/ws/rooms/{room['id']}") as ann_ws,
        bob.websocket_connect(f"/ws/rooms/{room['id']}") as bob_ws,
    ):
        ann_ws.send_json({"type": "rematch", "accept": True})
        room_update(bob_ws, offer_is(by=0))
        bob_ws.send_json({"type": "rematch", "accept": True})
        started = room_update(ann_ws, offer_is(started=True))
    assert room_of(ann, started["rematch_id"])["status"] == "playing"
    assert reads["invitations_of_room"] == before


def test_a_table_open_to_invitations_reads_them_when_it_fills(
    new_client: NewClient, reads: Counter[str]
) -> None:
    ada, bob = account(new_client, "Ada"), account(new_client, "Bob")
    room_id = table(ada)
    with bob.websocket_connect("/ws/me") as bob_page:
        sent = invite(ada, room_id, "Bob").json()
        assert bob_page.receive_json()["type"] == "invitation"
        assert ada.post(f"/api/rooms/{room_id}/bots", json={"seat": 1}).status_code == 200
        assert bob_page.receive_json() == {"type": "invitation_closed", "id": sent["id"]}
    assert reads["invitations_of_room"] == 1
