"""The WebSocket endpoint /ws/rooms/{id}, served by app.main.ParlourApp.

A player's connection acts for their seat; anyone else's watches. Every incoming message
is bounded in size and rate and validated before it reaches the room; a refused message
gets a specific error and changes nothing. A preview (what an action would do) is answered
with a "preview" message, whether the rules accept the action or not.
"""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
from fastapi import WebSocket
from pydantic import ValidationError

from app.config import Settings
from app.hub import Connection, Hub
from app.ratelimit import TokenBucket
from app.rooms import LiveRoom, RoomError, Rooms
from app.schemas import ActMessage, ClientMessage, PreviewMessage

POLICY_VIOLATION = 1008
ROOM_NOT_FOUND_CLOSE = 4404


def error_message(code: str, message: str) -> str:
    return orjson.dumps({"type": "error", "code": code, "message": message}).decode()


def describe_validation(error: ValidationError) -> str:
    first = error.errors()[0]
    skip = ("act", "preview", "ping")
    where = ".".join(str(part) for part in first["loc"] if part not in skip)
    if first["type"] in ("union_tag_invalid", "union_tag_not_found"):
        return "A message needs a 'type' of 'act', 'preview' or 'ping'."
    if first["type"] == "json_invalid":
        return "That message is not valid JSON."
    return f"Bad message: {where or 'message'}: {first['msg']}."


def preview_reply(
    rooms: Rooms, room: LiveRoom, user_id: str | None, message: PreviewMessage
) -> str:
    """The answer to a preview: a refusal is an answer too (``ok: false``), not an error."""
    reply: dict[str, Any] = {"type": "preview", "version": message.version}
    try:
        result = rooms.preview(
            room, user_id=user_id, version=message.version, action=message.action
        )
    except RoomError as error:
        reply.update(ok=False, code=error.code, message=error.message)
    else:
        reply.update(ok=True, result=result)
    return orjson.dumps(reply).decode()


async def play(websocket: WebSocket, room_id: str) -> None:
    """Serve one connection to a room until it closes (mounted by app.main.ParlourApp)."""
    state = websocket.app.state
    settings: Settings = state.settings
    rooms: Rooms = state.rooms
    hub: Hub = state.hub
    user_id = state.signer.read(websocket.cookies.get(settings.cookie_name))
    await websocket.accept()
    try:
        room = await rooms.get(room_id)
    except RoomError as error:
        await websocket.send_text(error_message(error.code, error.message))
        await websocket.close(code=ROOM_NOT_FOUND_CLOSE)
        return

    connection = Connection(
        websocket,
        user_id,
        room,
        rooms.presence,
        settings.max_send_queue,
        clock=rooms.clock,
        grace=rooms.absence_grace,
    )
    hub.add(connection)
    rooms.presence_changed(room)
    connection.start()
    try:
        await serve(websocket, connection, rooms, settings)
    except asyncio.CancelledError:
        if not connection.dropped:
            raise
        # The hub's watchdog dropped a client that stopped reading.
    finally:
        hub.remove(connection)
        rooms.presence_changed(room)
        rooms.registry.release_if_idle(room)
        await connection.finish()


async def serve(
    websocket: WebSocket, connection: Connection, rooms: Rooms, settings: Settings
) -> None:
    """Answer one connection's messages until it closes."""
    room, user_id = connection.room, connection.user_id
    loop = asyncio.get_running_loop()
    bucket = TokenBucket(settings.rate_per_second, settings.rate_burst)
    violations = 0
    while not connection.closed:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            break
        text: Any = message.get("text")
        if text is None:
            connection.send(error_message("bad_message", "Send JSON text frames, not binary."))
            continue
        if len(text) > settings.max_message_bytes:
            connection.send(
                error_message(
                    "message_too_large",
                    f"Messages are at most {settings.max_message_bytes} bytes.",
                )
            )
            continue
        if not bucket.allow(loop.time()):
            violations += 1
            if violations > settings.max_rate_violations:
                await websocket.close(code=POLICY_VIOLATION, reason="flooding")
                break
            connection.send(error_message("rate_limited", "Too many messages; slow down."))
            continue
        try:
            parsed = ClientMessage.validate_json(text)
        except ValidationError as error:
            connection.send(error_message("bad_message", describe_validation(error)))
            continue
        if isinstance(parsed, PreviewMessage):
            connection.send(preview_reply(rooms, room, user_id, parsed))
            continue
        if not isinstance(parsed, ActMessage):
            connection.send('{"type":"pong"}')
            continue
        try:
            await rooms.act(room, user_id=user_id, version=parsed.version, action=parsed.action)
        except RoomError as error:
            connection.send(error_message(error.code, error.message))
