"""An invitation to someone with no Parlour page open goes out on the notification
channels that tell turns (here a webhook), with the table's link; one answered before it
goes, or whose table filled up meanwhile, is not sent."""

from __future__ import annotations

import json
from pathlib import Path

from fastapi.testclient import TestClient

from tests.app.helpers import Timed
from tests.app.notifying import account, deliver, notifications, notifying_app, table_url
from tests.app.receivers import http_receiver


def written(timed: Timed) -> None:
    portal = timed.main.portal
    assert portal is not None
    portal.call(notifications(timed).written)


def with_webhook(client: TestClient, url: str) -> None:
    settings = {"webhook_url": url, "webhook_turns": True}
    assert client.put("/api/me/notifications", json=settings).is_success


def test_an_invitation_reaches_the_webhook_of_an_invitee_away(
    database_url: str, tmp_path: Path
) -> None:
    with http_receiver() as hook, notifying_app(database_url, tmp_path, 1) as timed:
        ada, bob = account(timed, "Ada"), account(timed, "Bob")
        with_webhook(bob, hook.url("/hook"))
        room = ada.post("/api/rooms", json={"game": "cupid", "seats": 2}).json()
        sent = ada.post(f"/api/rooms/{room['id']}/invitations", json={"username": "Bob"})
        assert sent.status_code == 201
        written(timed)
        deliver(timed)
        (post,) = hook.requests
        body = json.loads(post.body)
        assert body["event"] == "invited"
        assert body["url"] == table_url(room["id"])
        assert body["text"].startswith("Ada invites you to a seat at Cupid.")


def test_an_invitation_answered_or_gone_stale_before_delivery_is_not_sent(
    database_url: str, tmp_path: Path
) -> None:
    with http_receiver() as hook, notifying_app(database_url, tmp_path, 1) as timed:
        ada, bob, cat = account(timed, "Ada"), account(timed, "Bob"), account(timed, "Cat")
        with_webhook(bob, hook.url("/hook"))
        first = ada.post("/api/rooms", json={"game": "cupid", "seats": 2}).json()
        declined = ada.post(f"/api/rooms/{first['id']}/invitations", json={"username": "Bob"})
        assert bob.post(f"/api/me/invitations/{declined.json()['id']}/decline").is_success
        second = ada.post("/api/rooms", json={"game": "cupid", "seats": 2}).json()
        ada.post(f"/api/rooms/{second['id']}/invitations", json={"username": "Bob"})
        assert cat.post(f"/api/rooms/{second['id']}/join", json={}).is_success  # now full
        written(timed)
        assert deliver(timed) == 2  # both claimed, neither worth sending
        assert hook.requests == []
