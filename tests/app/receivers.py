"""Real servers on loopback that notifications are delivered to in tests: an SMTP server
(aiosmtpd) keeping every message it accepts, and an HTTP server keeping every request
(webhooks, push services) and answering with the statuses the test chooses."""

from __future__ import annotations

import email
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.policy import default
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

from aiosmtpd.controller import Controller

from tests.conftest import free_port


class MailStore:
    """aiosmtpd's handler: every message accepted, parsed."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []
        self.recipients: list[list[str]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = email.message_from_bytes(envelope.content, policy=default)
        assert isinstance(message, EmailMessage)
        self.messages.append(message)
        self.recipients.append(list(envelope.rcpt_tos))
        return "250 Message accepted"


@contextmanager
def smtp_server() -> Iterator[tuple[MailStore, int]]:
    """An SMTP server on 127.0.0.1 in a thread of its own; its store and port."""
    store = MailStore()
    port = free_port()
    controller = Controller(store, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield store, port
    finally:
        controller.stop()


def text_of(message: EmailMessage) -> str:
    body = message.get_body(preferencelist=("plain",))
    assert body is not None
    return str(body.get_content())


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes


@dataclass
class HttpReceiver:
    """What the HTTP server got, and how it answers: ``statuses`` in turn (then 200);
    while ``hold`` is clear, it waits before answering."""

    port: int
    requests: list[Received] = field(default_factory=list)
    statuses: list[int] = field(default_factory=list)
    hold: threading.Event = field(default_factory=threading.Event)
    arrived: threading.Event = field(default_factory=threading.Event)

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"


@contextmanager
def http_receiver() -> Iterator[HttpReceiver]:
    """An HTTP server on 127.0.0.1 in a thread of its own."""
    port = free_port()
    receiver = HttpReceiver(port)
    receiver.hold.set()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length", "0"))
            body = self.rfile.read(length)
            headers = {key.lower(): value for key, value in self.headers.items()}
            receiver.requests.append(Received(self.path, headers, body))
            receiver.arrived.set()
            receiver.hold.wait(30)
            status = receiver.statuses.pop(0) if receiver.statuses else 200
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args: Any) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield receiver
    finally:
        receiver.hold.set()
        server.shutdown()
        server.server_close()
