"""Webhooks through a real HTTP receiver on loopback: the signed JSON body Discord and
Slack read, retries with backoff, disabling after repeated failures (and the note saying
so), and turning back on when the URL is saved again."""

from __future__ import annotations

import hashlib
import hmac
import json
from datetime import UTC, datetime
from pathlib import Path

from prometheus_client import REGISTRY

from app.rooms.signals import DeadlineNear, MatchEnded
from tests.app.notifying import (
    account,
    deliver,
    emit,
    notifying_app,
    table_awaiting,
    table_url,
    turn,
)
from tests.app.receivers import http_receiver, smtp_server, text_of


def sent(channel: str) -> float:
    """parlour_notifications_sent_total for one channel, as /metrics would report it."""
    value = REGISTRY.get_sample_value("parlour_notifications_sent_total", {"channel": channel})
    return value or 0.0


def failed(channel: str) -> float:
    value = REGISTRY.get_sample_value("parlour_notifications_failed_total", {"channel": channel})
    return value or 0.0


def test_a_turn_reaches_the_smtp_server_and_the_webhook(database_url: str, tmp_path: Path) -> None:
    """The contract: one e-mail whose body has the table's URL, and one POST whose JSON
    has it, signed with the account's secret."""
    with (
        smtp_server() as (mail, port),
        http_receiver() as hook,
        notifying_app(database_url, tmp_path, port) as timed,
    ):
        ann, bob = account(timed, "ann"), account(timed, "bob")
        body = {
            "email": "ann@example.org",
            "email_turns": True,
            "webhook_url": hook.url("/hook"),
            "webhook_turns": True,
        }
        saved = ann.put("/api/me/notifications", json=body)
        assert saved.status_code == 200, saved.text
        secret = ann.get("/api/me/notifications").json()["webhook_secret"]
        assert secret and saved.json()["webhook_secret"] == secret
        room = table_awaiting(timed, ann, bob)
        sent_before = {channel: sent(channel) for channel in ("email", "webhook")}
        emit(timed, turn(timed, ann, room))
        deliver(timed)

        assert {channel: sent(channel) - sent_before[channel] for channel in sent_before} == {
            "email": 1,
            "webhook": 1,
        }
        assert len(mail.messages) == 1 and table_url(room) in text_of(mail.messages[0])
        (post,) = hook.requests
        assert post.path == "/hook"
        payload = json.loads(post.body)
        assert payload["url"] == table_url(room)
        assert payload["event"] == "turn" and payload["room_id"] == room
        assert table_url(room) in payload["content"] and payload["text"] == payload["content"]
        expected = hmac.new(secret.encode(), post.body, hashlib.sha256).hexdigest()
        assert post.headers["x-parlour-signature"] == f"sha256={expected}"
        assert post.headers["content-type"] == "application/json"
        deliver(timed)
        assert len(hook.requests) == 1


def test_a_failing_webhook_is_retried_with_backoff_then_disabled(
    database_url: str, tmp_path: Path
) -> None:
    with (
        smtp_server() as (_mail, port),
        http_receiver() as hook,
        notifying_app(database_url, tmp_path, port, webhook_max_failures=4) as timed,
    ):
        ann, bob = account(timed, "ann"), account(timed, "bob")
        ann.put("/api/me/notifications", json={"webhook_url": hook.url("/hook")})
        room = table_awaiting(timed, ann, bob)
        hook.statuses = [500] * 10
        failed_before = failed("webhook")
        emit(timed, turn(timed, ann, room))
        deliver(timed)
        assert len(hook.requests) == 1
        assert failed("webhook") == failed_before + 1
        # Each retry waits twice as long as the one before: 30 s, 60 s, 120 s.
        for wait in (30, 60, 120):
            timed.advance(wait - 1)
            deliver(timed)
            assert len(hook.requests) == 1 + (30, 60, 120).index(wait)
            timed.advance(1)
            deliver(timed)
            assert len(hook.requests) == 2 + (30, 60, 120).index(wait)
        settings = ann.get("/api/me/notifications").json()
        assert settings["webhook_disabled"] is True
        assert "4 failed deliveries" in settings["webhook_note"]
        assert "HTTP 500" in settings["webhook_note"]

        timed.advance(3600)
        emit(timed, turn(timed, ann, room))
        deliver(timed)
        assert len(hook.requests) == 4  # disabled: nothing more is sent

        # Saving the URL again turns it back on.
        hook.statuses.clear()
        ann.put("/api/me/notifications", json={"webhook_url": hook.url("/hook")})
        settings = ann.get("/api/me/notifications").json()
        assert settings["webhook_disabled"] is False and settings["webhook_note"] is None
        emit(timed, turn(timed, ann, room))
        deliver(timed)
        assert len(hook.requests) == 5


def test_a_success_resets_the_count_of_failures(database_url: str, tmp_path: Path) -> None:
    with (
        smtp_server() as (_mail, port),
        http_receiver() as hook,
        notifying_app(database_url, tmp_path, port, webhook_max_failures=2) as timed,
    ):
        ann, bob = account(timed, "ann"), account(timed, "bob")
        ann.put("/api/me/notifications", json={"webhook_url": hook.url("/hook")})
        room = table_awaiting(timed, ann, bob)
        hook.statuses = [500, 200, 500, 200]
        for _ in range(2):
            emit(timed, turn(timed, ann, room))
            deliver(timed)
            timed.advance(30)
            deliver(timed)
        assert len(hook.requests) == 4
        assert ann.get("/api/me/notifications").json()["webhook_disabled"] is False


def test_private_addresses_are_refused_where_the_setting_says(
    database_url: str, tmp_path: Path
) -> None:
    with (
        smtp_server() as (_mail, port),
        notifying_app(database_url, tmp_path, port, notify_private_addresses=False) as timed,
    ):
        ann = account(timed, "ann")
        for url in (
            "http://127.0.0.1:9/hook",
            "http://[::1]/hook",
            "http://10.1.2.3/",
            "http://169.254.169.254/latest/meta-data",
            "http://localhost/",
        ):
            answer = ann.put("/api/me/notifications", json={"webhook_url": url})
            assert answer.status_code == 422, url
            assert answer.json()["code"] == "bad_webhook_url"
            assert "private or local" in answer.json()["message"]


def test_reminders_and_match_ends_are_told_too(database_url: str, tmp_path: Path) -> None:
    """A reminder while the person is awaited; a match's end, awaited or not; each as the
    account chose (here: no reminders by webhook)."""
    with (
        smtp_server() as (mail, port),
        http_receiver() as hook,
        notifying_app(database_url, tmp_path, port) as timed,
    ):
        ann, bob = account(timed, "ann"), account(timed, "bob")
        body = {
            "email": "ann@example.org",
            "webhook_url": hook.url("/h"),
            "webhook_reminders": False,
        }
        assert ann.put("/api/me/notifications", json=body).json()["webhook_reminders"] is False
        room = table_awaiting(timed, ann, bob)
        ann_id = turn(timed, ann, room).user_id
        deadline = datetime(2026, 12, 1, 9, 30, tzinfo=UTC)
        emit(timed, DeadlineNear(ann_id, room, "cupid", deadline))
        deliver(timed)
        assert hook.requests == []
        (reminder,) = mail.messages
        assert "runs out at Tue 01 Dec, 09:30 UTC" in text_of(reminder)
        assert table_url(room) in text_of(reminder)

        emit(timed, MatchEnded(ann_id, room, "cupid", "Bob won 100 to 64"))
        deliver(timed)
        (ended,) = hook.requests
        payload = json.loads(ended.body)
        assert payload["event"] == "ended" and "Bob won 100 to 64" in payload["content"]
        assert payload["url"] == table_url(room)
