"""The baseline for the load benchmark (bench/load/): the bare transport on Parlour's own stack.

``uvicorn bench.echo_server:app`` (FastAPI + uvicorn + the same ``--ws`` implementation
and flags as the real server) accepts WebSockets on ``/ws/rooms/{room}`` and sends every
text message it receives to every connection of that room, the sender included: an echo
plus the fan-out a real table does. No game, no database, no rendering, no validation.
What the real server does beyond this, per action, is the cost of our own code.
"""

from __future__ import annotations

from fastapi import FastAPI, WebSocket, WebSocketDisconnect

app = FastAPI(title="Parlour echo baseline")
ROOMS: dict[str, list[WebSocket]] = {}


@app.websocket("/ws/rooms/{room_id}")
async def echo(websocket: WebSocket, room_id: str) -> None:
    await websocket.accept()
    members = ROOMS.setdefault(room_id, [])
    members.append(websocket)
    try:
        while True:
            text = await websocket.receive_text()
            for member in members:
                await member.send_text(text)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        members.remove(websocket)
        if not members:
            ROOMS.pop(room_id, None)
