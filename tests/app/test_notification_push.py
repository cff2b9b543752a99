"""Web Push to a push service on loopback: the payload, encrypted to the subscription's
keys (aes128gcm), is decrypted here with the private key the test's "browser" made; a
subscription the service says is gone is deleted; the service worker is served from the
site's root."""

from __future__ import annotations

import base64
import json
import os
from pathlib import Path

import http_ece
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from fastapi.testclient import TestClient
from py_vapid import Vapid

from app.config import Settings
from app.notifications import push
from tests.app.helpers import Timed
from tests.app.notifying import deliver, emit, notifying_app, table_awaiting, table_url, turn
from tests.app.receivers import http_receiver, smtp_server


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


class Browser:
    """A browser's push subscription: its keys, made here as a browser makes them."""

    def __init__(self, endpoint: str) -> None:
        self.endpoint = endpoint
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.auth = os.urandom(16)
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        self.subscription = {
            "endpoint": endpoint,
            "expirationTime": None,
            "keys": {"p256dh": b64(public), "auth": b64(self.auth)},
        }

    def subscribe(self, client: TestClient) -> None:
        answer = client.post("/api/me/push-subscriptions", json=self.subscription)
        assert answer.status_code == 201, answer.text

    def read(self, body: bytes) -> dict[str, str]:
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return dict(json.loads(plain))


def two_guests(timed: Timed) -> tuple[TestClient, TestClient]:
    return timed.client("Ann"), timed.client("Bob")


def test_a_guests_push_notification_decrypts_to_the_tables_link(
    database_url: str, tmp_path: Path
) -> None:
    with (
        smtp_server() as (_mail, port),
        http_receiver() as service,
        notifying_app(database_url, tmp_path, port) as timed,
    ):
        ann, bob = two_guests(timed)
        browser = Browser(service.url("/push/ann-1"))
        browser.subscribe(ann)
        room = table_awaiting(timed, ann, bob)
        emit(timed, turn(timed, ann, room))
        deliver(timed)

        (push,) = service.requests
        assert push.path == "/push/ann-1"
        assert push.headers["content-encoding"] == "aes128gcm"
        assert push.headers["authorization"].startswith("vapid t=")
        public_key = ann.get("/api/push/key").json()["public_key"]
        assert f"k={public_key}" in push.headers["authorization"]
        payload = browser.read(push.body)
        assert payload["url"] == table_url(room)
        assert payload["title"] == "Your turn"
        assert "Cupid" in payload["body"]
        deliver(timed)
        assert len(service.requests) == 1


def test_a_subscription_the_push_service_says_is_gone_is_deleted(
    database_url: str, tmp_path: Path
) -> None:
    with (
        smtp_server() as (_mail, port),
        http_receiver() as service,
        notifying_app(database_url, tmp_path, port) as timed,
    ):
        ann, bob = two_guests(timed)
        Browser(service.url("/push/old")).subscribe(ann)
        room = table_awaiting(timed, ann, bob)
        service.statuses = [410]
        emit(timed, turn(timed, ann, room))
        deliver(timed)
        assert len(service.requests) == 1
        emit(timed, turn(timed, ann, room))
        deliver(timed)
        assert len(service.requests) == 1  # not sent to again
        gone = ann.request(
            "DELETE", "/api/me/push-subscriptions", json={"endpoint": service.url("/push/old")}
        )
        assert gone.json() == {"removed": False}


def test_a_browser_unsubscribes(database_url: str, tmp_path: Path) -> None:
    with (
        smtp_server() as (_mail, port),
        http_receiver() as service,
        notifying_app(database_url, tmp_path, port) as timed,
    ):
        ann, bob = two_guests(timed)
        Browser(service.url("/push/a")).subscribe(ann)
        removed = ann.request(
            "DELETE", "/api/me/push-subscriptions", json={"endpoint": service.url("/push/a")}
        )
        assert removed.json() == {"removed": True}
        room = table_awaiting(timed, ann, bob)
        emit(timed, turn(timed, ann, room))
        assert deliver(timed) == 0
        assert service.requests == []


def test_push_endpoints_are_checked(database_url: str, tmp_path: Path) -> None:
    with (
        smtp_server() as (_mail, port),
        notifying_app(database_url, tmp_path, port, notify_private_addresses=False) as timed,
    ):
        ann = timed.client("Ann")
        for endpoint in ("http://127.0.0.1:9/push", "javascript:alert(1)"):
            subscription = Browser(endpoint).subscription
            answer = ann.post("/api/me/push-subscriptions", json=subscription)
            assert answer.status_code == 422
            assert answer.json()["code"] == "bad_push_endpoint"


def test_the_service_worker_is_served_for_the_whole_site(database_url: str, tmp_path: Path) -> None:
    with smtp_server() as (_mail, port), notifying_app(database_url, tmp_path, port) as timed:
        answer = timed.client().get("/sw.js")
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/javascript")
        assert "push" in answer.text and "notificationclick" in answer.text


def test_the_vapid_key_is_generated_once_or_taken_from_the_settings(tmp_path: Path) -> None:
    first = push.load_vapid(Settings(data_dir=tmp_path))
    again = push.load_vapid(Settings(data_dir=tmp_path))
    assert push.public_key(first) == push.public_key(again)
    assert (tmp_path / push.KEY_FILE).stat().st_mode & 0o077 == 0
    assert [p.name for p in tmp_path.iterdir()] == [push.KEY_FILE]  # no spare left behind

    given = Vapid()
    given.generate_keys()
    pem = given.private_pem().decode()
    chosen = push.load_vapid(Settings(data_dir=tmp_path, vapid_private_key=pem))
    assert push.public_key(chosen) == push.public_key(given) != push.public_key(first)
