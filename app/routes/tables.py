"""The caller's tables: ``GET /api/me/tables``, their unfinished tables (live and
turn-based), those awaiting them first, then by deadline (app/rooms/your_tables.py)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from app import store
from app.http.deps import CurrentUser, LiveRooms
from app.rooms.your_tables import your_tables

router = APIRouter(prefix="/api/me")


@router.get("/tables")
async def my_tables(user: CurrentUser, rooms: LiveRooms) -> dict[str, Any]:
    rows = await rooms.storage.call(store.unfinished_tables, user_id=user.id)
    return {"tables": your_tables(rows, user.id, rooms.registry.held)}
