"""The live channel's socket, /ws/me (served by app.main.ParlourApp): every open page of a
person holds one, and is told what concerns them wherever it happens (invitations, asks of
friendship, a moderator's word; docs/protocol.md, "The live channel").

The server speaks; the page only pings (``{"type": "ping"}`` → ``{"type": "pong"}``).
It needs a session; the socket closes when that session ends. A person holds at most
``sockets_per_person`` of them, and what a page sends is bounded in rate and size as on the
play socket (``Intake``, app/routes/ws.py): anything but a ping is refused and changes
nothing, and a flood closes the socket.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import WebSocket
from pydantic import ValidationError

from app.config import Settings
from app.http.guards import origin_allowed
from app.http.schemas import PingMessage
from app.i18n.catalogues import words
from app.i18n.marks import N_
from app.observability.context import person
from app.refusal import Refusal
from app.routes.ws import (
    FLOODING,
    FOREIGN_ORIGIN_CLOSE,
    POLICY_VIOLATION,
    TRY_AGAIN_LATER,
    Intake,
    check_socket_counts,
    error_message,
    socket_language,
)
from app.social.live import SIGNED_OUT_CLOSE, LiveSocket
from app.social.service import Social
from app.store.outage import is_outage

PONG = '{"type":"pong"}'
NOT_A_PING = N_("The live channel takes only pings: {ping}.")
PING = '{"type": "ping"}'


async def listen(websocket: WebSocket) -> None:
    """Serve one page's live socket until it closes."""
    state = websocket.app.state
    settings: Settings = state.settings
    social: Social = state.social
    if not origin_allowed(websocket.headers, state.allowed_origins):
        await websocket.close(code=FOREIGN_ORIGIN_CLOSE)
        return
    try:
        identity = await state.auth.identify(websocket.cookies.get(settings.cookie_name))
    except Exception as error:
        if not is_outage(error):
            raise
        await websocket.accept()
        await websocket.close(code=TRY_AGAIN_LATER)
        return
    language = socket_language(websocket, identity)
    if identity is None:
        await websocket.accept()
        said = words(language).gettext(N_("Start a session first (POST /api/session)."))
        await websocket.send_text(error_message("no_session", said))
        await websocket.close(code=SIGNED_OUT_CLOSE)
        return
    person(identity.id)
    try:
        check_socket_counts(settings, len(social.live.sockets(identity.id)))
    except Refusal as error:
        await websocket.accept()
        await websocket.send_text(error_message(error.code, error.text(language)))
        await websocket.close(code=POLICY_VIOLATION)
        return
    socket = LiveSocket(websocket, identity.id, identity.session_id)
    social.live.add(socket)
    try:
        await websocket.accept()
        socket.start()
        await serve(websocket, socket, settings, language)
    except asyncio.CancelledError:
        raise
    finally:
        social.live.remove(socket)
        await socket.finish()


async def serve(
    websocket: WebSocket, socket: LiveSocket, settings: Settings, language: str
) -> None:
    """Answer pings until the page goes; anything else is refused (and a flood closes)."""
    loop = asyncio.get_running_loop()
    intake = Intake(settings)
    while not socket.closed:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            break
        text: Any = message.get("text")  # None (a binary frame) is refused by the intake
        refused = intake.refusal(text, loop.time())
        if refused is FLOODING:
            socket.close(POLICY_VIOLATION, "flooding")
            break
        if refused is not None:
            socket.send(error_message(refused.code, refused.text(language)))
            continue
        try:
            PingMessage.model_validate_json(text)
        except ValidationError:
            said = words(language).gettext(NOT_A_PING, ping=PING)
            socket.send(error_message("bad_message", said))
            continue
        socket.send(PONG)
