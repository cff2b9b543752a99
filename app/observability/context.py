"""What a log line is about: the request or socket, the room and the person, bound once in
context variables and added to every line written meanwhile (app/observability/logs.py).

``with_request_context`` wraps the ASGI app: each HTTP request and socket gets a
``request_id`` (the caller's ``X-Request-ID`` when it is a sane token, so a proxy's id
follows the request, else a fresh one; sent back in the response's ``X-Request-ID``) and,
on a room's paths, its ``room_id``. ``person`` adds the ``user_id`` once the session is
known. ``room_task`` starts the context of a task that works on a room by itself (the
computer players, the room's timers): a task inherits the context of whoever created it,
and a move played because of someone's request is not that person's doing.
"""

from __future__ import annotations

import itertools
import os
import re
import secrets

from starlette.types import ASGIApp, Message, Receive, Scope, Send
from structlog.contextvars import bind_contextvars, clear_contextvars

REQUEST_ID_HEADER = b"x-request-id"
# A request id passed on from a proxy: short, and nothing that could forge a log line.
SANE_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
# The room a path is about: the play socket, and the room routes of the API.
ROOM_PATH = re.compile(r"/(?:ws|api)/rooms/(?P<room_id>[A-Za-z0-9_-]+)")


class RequestIds:
    """Fresh request ids: 32 hex digits, this process's random half and a count. Unique
    across processes without asking the kernel for fresh randomness on every request and
    socket, as a random id would (a system call each time, slow on virtual machines); a
    process forked from this one draws a half of its own."""

    def __init__(self) -> None:
        self._fresh()
        os.register_at_fork(after_in_child=self._fresh)

    def _fresh(self) -> None:
        self._half = secrets.token_hex(8)
        self._count = itertools.count(1)

    def next(self) -> str:
        return f"{self._half}{next(self._count):016x}"


REQUEST_IDS = RequestIds()


def request_id_of(scope: Scope) -> str:
    for name, value in scope.get("headers", ()):
        if name == REQUEST_ID_HEADER:
            given: str = value.decode("latin-1")
            if SANE_REQUEST_ID.fullmatch(given):
                return given
    return REQUEST_IDS.next()


def with_request_context(app: ASGIApp) -> ASGIApp:
    """``app`` with each request's and socket's context bound for the log."""

    async def in_context(scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await app(scope, receive, send)
            return
        # uvicorn serves each request in a task of its own: this context is the request's.
        clear_contextvars()
        request_id = request_id_of(scope)
        room = ROOM_PATH.match(scope["path"])
        bind_contextvars(request_id=request_id, **({"room_id": room["room_id"]} if room else {}))
        if scope["type"] == "websocket":
            await app(scope, receive, send)
            return

        async def send_with_id(message: Message) -> None:
            if message["type"] == "http.response.start":
                header = (REQUEST_ID_HEADER, request_id.encode())
                message["headers"] = [*message.get("headers", []), header]
            await send(message)

        await app(scope, receive, send_with_id)

    return in_context


def person(user_id: str) -> None:
    """The rest of this request or socket acts for ``user_id``."""
    bind_contextvars(user_id=user_id)


def room_task(room_id: str) -> None:
    """Start the context of a task working on ``room_id`` for nobody in particular."""
    clear_contextvars()
    bind_contextvars(room_id=room_id)
