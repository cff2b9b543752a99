"""E-mail notifications through a real SMTP server on loopback (aiosmtpd): a turn's
e-mail with the table's link, the digest, unsubscribing in one click, confirming an
address. The delivery worker is driven round by round on a hand-moved clock."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest

from app.config import Settings
from tests.app.notifying import (
    account,
    deliver,
    emit,
    notifying_app,
    table_awaiting,
    table_url,
    turn,
)
from tests.app.receivers import smtp_server, text_of

ANN = "ann@example.org"


def test_a_turn_is_e_mailed_with_the_tables_link(database_url: str, tmp_path: Path) -> None:
    with smtp_server() as (mail, port), notifying_app(database_url, tmp_path, port) as timed:
        ann, bob = account(timed, "ann"), account(timed, "bob")
        assert ann.put("/api/me/notifications", json={"email": ANN}).status_code == 200
        room = table_awaiting(timed, ann, bob)
        emit(timed, turn(timed, ann, room))
        assert mail.messages == []  # written to the outbox, not yet sent
        assert deliver(timed) == 1
        assert len(mail.messages) == 1
        assert mail.recipients == [[ANN]]
        message = mail.messages[0]
        assert table_url(room) in text_of(message)
        assert "Cupid" in message["Subject"]
        assert deliver(timed) == 0  # sent once
        assert len(mail.messages) == 1


def test_turns_within_the_digest_interval_make_one_e_mail(
    database_url: str, tmp_path: Path
) -> None:
    with smtp_server() as (mail, port), notifying_app(database_url, tmp_path, port) as timed:
        ann, bob = account(timed, "ann"), account(timed, "bob")
        ann.put("/api/me/notifications", json={"email": ANN})
        rooms = [table_awaiting(timed, ann, bob) for _ in range(4)]
        for room in rooms[:3]:
            emit(timed, turn(timed, ann, room))
            timed.advance(60)
        deliver(timed)
        assert len(mail.messages) == 1
        text = text_of(mail.messages[0])
        assert all(table_url(room) in text for room in rooms[:3])
        assert "3 updates" in mail.messages[0]["Subject"]

        timed.advance(60)
        emit(timed, turn(timed, ann, rooms[3]))
        deliver(timed)
        assert len(mail.messages) == 1  # under ten minutes since the last: it waits
        timed.advance(600 - 60 - 1)
        deliver(timed)
        assert len(mail.messages) == 1
        timed.advance(1)
        deliver(timed)
        assert len(mail.messages) == 2
        assert table_url(rooms[3]) in text_of(mail.messages[1])
        assert table_url(rooms[0]) not in text_of(mail.messages[1])


def test_one_click_unsubscribes_without_logging_in(database_url: str, tmp_path: Path) -> None:
    with smtp_server() as (mail, port), notifying_app(database_url, tmp_path, port) as timed:
        ann, bob = account(timed, "ann"), account(timed, "bob")
        ann.put("/api/me/notifications", json={"email": ANN})
        room = table_awaiting(timed, ann, bob)
        emit(timed, turn(timed, ann, room))
        deliver(timed)
        (message,) = mail.messages
        assert message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
        link = message["List-Unsubscribe"].strip("<>")
        assert link in text_of(message)
        parts = urlsplit(link)
        assert f"{parts.scheme}://{parts.netloc}" == "https://parlour.test"
        path = f"{parts.path}?{parts.query}"

        stranger = timed.client()  # no session, no cookie: only the link's token counts
        page = stranger.get(path)
        assert page.status_code == 200
        assert "Unsubscribe" in page.text and ANN in page.text
        assert ann.get("/api/me/notifications").json()["email_turns"] is True  # GET asks only

        tampered = stranger.post(path[:-2] + "xx", content=b"List-Unsubscribe=One-Click")
        assert tampered.status_code == 404
        done = stranger.post(
            path,
            content=b"List-Unsubscribe=One-Click",
            headers={
                "Content-Type": "application/x-www-form-urlencoded",
                "Origin": "https://mail.example",
            },
        )
        assert done.status_code == 200, done.text
        assert "Unsubscribed" in done.text
        settings = ann.get("/api/me/notifications").json()
        assert not (settings["email_turns"] or settings["email_reminders"])

        timed.advance(3600)
        emit(timed, turn(timed, ann, room))
        deliver(timed)
        assert len(mail.messages) == 1


def test_nothing_but_the_confirmation_goes_to_an_unconfirmed_address(
    database_url: str, tmp_path: Path
) -> None:
    with (
        smtp_server() as (mail, port),
        notifying_app(database_url, tmp_path, port, email_confirmation="on") as timed,
    ):
        ann, bob = account(timed, "ann"), account(timed, "bob")
        answer = ann.put("/api/me/notifications", json={"email": ANN, "email_turns": True})
        assert answer.status_code == 200
        assert answer.json()["email_confirmed"] is False
        room = table_awaiting(timed, ann, bob)
        emit(timed, turn(timed, ann, room))
        deliver(timed)
        (confirmation,) = mail.messages
        assert mail.recipients == [[ANN]]
        assert "confirm" in confirmation["Subject"].lower()
        link = next(w for w in text_of(confirmation).split() if "/notifications/confirm" in w)
        parts = urlsplit(link)
        path = f"{parts.path}?{parts.query}"

        assert "Confirm the address" in timed.client().get(path).text
        assert ann.get("/api/me/notifications").json()["email_confirmed"] is False
        assert ann.post(path).status_code == 200
        assert ann.get("/api/me/notifications").json()["email_confirmed"] is True

        emit(timed, turn(timed, ann, room))
        deliver(timed)
        assert len(mail.messages) == 2
        assert table_url(room) in text_of(mail.messages[1])

        # A new address is unconfirmed again, and the old link no longer confirms anything.
        ann.put("/api/me/notifications", json={"email": "ann@example.net"})
        assert ann.get("/api/me/notifications").json()["email_confirmed"] is False
        assert ann.post(path).status_code == 404


def test_confirmation_may_be_off_only_outside_production() -> None:
    with pytest.raises(ValueError, match="EMAIL_CONFIRMATION"):
        Settings(environment="production", secret_key="x" * 40, email_confirmation="off")
    assert Settings(environment="production", secret_key="x" * 40).notify_private_addresses is False
    assert Settings(email_confirmation="off").email_confirmation == "off"


def test_the_settings_api_refuses_guests_and_bad_input(database_url: str, tmp_path: Path) -> None:
    with smtp_server() as (_mail, port), notifying_app(database_url, tmp_path, port) as timed:
        guest = timed.client("Guest")
        refused = guest.put("/api/me/notifications", json={"email": ANN})
        assert refused.status_code == 403
        assert refused.json()["code"] == "not_an_account"
        assert "push" in refused.json()["message"]
        ann = account(timed, "ann")
        for body, code in (
            ({"email": "not an address"}, "bad_email"),
            ({"webhook_url": "ftp://example.org/hook"}, "bad_webhook_url"),
            ({"webhook_url": "http://user:pw@example.org/"}, "bad_webhook_url"),
            ({"email_turns": "yes please"}, "bad_request"),
            ({"surprise": True}, "bad_request"),
        ):
            answer = ann.put("/api/me/notifications", json=body)
            assert answer.status_code == 422, body
            assert answer.json()["code"] == code, body
        settings = ann.get("/api/me/notifications").json()
        assert settings["email"] is None and settings["webhook_url"] is None
        assert settings["email_turns"] is True and settings["email_available"] is True


def test_the_settings_page_offers_each_channel(database_url: str, tmp_path: Path) -> None:
    with smtp_server() as (_mail, port), notifying_app(database_url, tmp_path, port) as timed:
        guest_page = timed.client("Guest").get("/notifications")
        assert guest_page.status_code == 200
        assert 'id="push-toggle"' in guest_page.text
        assert 'id="notify-form"' not in guest_page.text  # e-mail and webhooks: accounts
        account_page = account(timed, "ann").get("/notifications")
        assert 'id="notify-form"' in account_page.text
        assert 'id="notify-email"' in account_page.text
        assert 'id="notify-webhook"' in account_page.text
        assert 'href="/notifications"' in account_page.text
