"""What every HTTP request passes before the routes, and what every response carries.

- A state-changing request (POST, PUT, PATCH, DELETE) from a browser must come from this
  site: its ``Origin`` is this server's own (the ``Host`` it was sent to) or one of
  ``ALLOWED_ORIGINS`` — else 403 ``bad_origin``. (A request with no ``Origin`` is not a
  browser's cross-site request: browsers always send it on these methods.)
- Its body, if any, is JSON — else 415 ``unsupported_media_type`` (so no HTML form on
  another site can post to the API) — and at most ``MAX_BODY_BYTES`` — else 413
  ``body_too_large``, answered before the rest of the body is read.
- Every response carries the security headers: a Content-Security-Policy that allows no
  inline script and no framing, ``nosniff`` and a same-origin referrer policy.

The play socket checks the same ``Origin`` rule in app/routes/ws.py.

One exception: the one-click unsubscribe link of an e-mail (``SIGNED_LINKS``). Its
authority is the signed token in its URL, not a cookie, and mail programs post to it
themselves, with a form body (RFC 8058) and from anywhere; only the size limit applies.
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

import orjson
from starlette.datastructures import Headers
from starlette.requests import HTTPConnection
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.i18n.languages import COOKIE, choose
from app.i18n.marks import N_
from app.observability.metrics import REFUSALS
from app.refusal import Refusal

UNSAFE_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# Paths whose POST acts on a signed token in the URL, for whoever holds the link
# (app/routes/notification_pages.py).
SIGNED_LINKS = frozenset({"/notifications/unsubscribe"})
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'self'; "
    "form-action 'self'; frame-ancestors 'none'"
)
SECURITY_HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"same-origin"),
]


def origin_allowed(headers: Headers, allowed: frozenset[str]) -> bool:
    """Whether a request's ``Origin`` (if any) is this server or an allowed origin."""
    origin = headers.get("origin")
    if origin is None:
        return True
    if origin.rstrip("/") in allowed:
        return True
    host = headers.get("host")
    return host is not None and urlsplit(origin).netloc.lower() == host.lower()


def parse_origins(text: str) -> frozenset[str]:
    """``ALLOWED_ORIGINS``: comma-separated origins such as ``https://play.example``."""
    return frozenset(o.strip().rstrip("/") for o in text.split(",") if o.strip())


class HttpGuards:
    """ASGI middleware: the request checks and response headers above."""

    def __init__(self, app: ASGIApp, *, allowed_origins: Iterable[str], max_body: int) -> None:
        self.app = app
        self.allowed = frozenset(allowed_origins)
        self.max_body = max_body

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *SECURITY_HEADERS]
            await send(message)

        if scope["method"] in UNSAFE_METHODS:
            headers = Headers(scope=scope)
            if scope["path"] in SIGNED_LINKS:
                refusal = self._size_refusal(headers)
            else:
                refusal = self._refusal(headers)
            if refusal is not None:
                await _refuse(scope, send_with_headers, refusal)
                return
            body = await self._read_body(receive)
            if body is None:
                await _refuse(scope, send_with_headers, self._too_large())
                return
            receive = _replay(body, receive)
        await self.app(scope, receive, send_with_headers)

    def _too_large(self) -> Refusal:
        return Refusal(
            "body_too_large",
            N_("Request bodies are at most {most} bytes."),
            413,
            most=self.max_body,
        )

    def _size_refusal(self, headers: Headers) -> Refusal | None:
        length = headers.get("content-length")
        if length is not None and length.isdigit() and int(length) > self.max_body:
            return self._too_large()
        return None

    def _refusal(self, headers: Headers) -> Refusal | None:
        if not origin_allowed(headers, self.allowed):
            return Refusal("bad_origin", N_("This request came from another site."), 403)
        too_large = self._size_refusal(headers)
        if too_large is not None:
            return too_large
        length = headers.get("content-length")
        has_body = (length is not None and length != "0") or "transfer-encoding" in headers
        media = headers.get("content-type", "").split(";")[0].strip().lower()
        if has_body and media != "application/json":
            return Refusal("unsupported_media_type", N_("Send the request body as JSON."), 415)
        return None

    async def _read_body(self, receive: Receive) -> bytes | None:
        """The whole body, or None as soon as it passes the limit (the rest is not read)."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                break
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_body:
                return None
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        return b"".join(chunks)


def _replay(body: bytes, rest: Receive) -> Receive:
    """Hand the body read beforehand to the app, then whatever comes next (a disconnect)."""
    sent = False

    async def receive() -> Message:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await rest()

    return receive


async def _refuse(scope: Scope, send: Send, refusal: Refusal) -> None:
    """The refusal's JSON answer, in the request's language (no account is known yet)."""
    code, status = refusal.code, refusal.status
    # Before the app is reached (no settings yet): the address's, the cookie's or the
    # browser's language.
    asked = HTTPConnection(scope)
    language = choose(
        asked=asked.query_params.get("lang"),
        cookie=asked.cookies.get(COOKIE),
        accept_language=asked.headers.get("accept-language"),
    )
    message = refusal.text(language)
    REFUSALS.labels(code=code).inc()
    body = orjson.dumps({"code": code, "message": message, "detail": message})
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    await send({"type": "http.response.start", "status": status, "headers": headers})
    await send({"type": "http.response.body", "body": body})
