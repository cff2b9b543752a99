"""The application factory: ``create_app()`` wires settings, database, rooms and routes.

Run it with ``uvicorn app.main:create_app --factory`` (`make run` does, after migrating).
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.staticfiles import StaticFiles

from app.config import Settings, get_settings
from app.db import make_engine
from app.hub import Hub
from app.identity import CookieSigner
from app.rooms import RoomError, RoomService
from app.routes import api, pages, ws

ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger("parlour")


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or get_settings()
    engine = make_engine(settings.database_url)
    hub = Hub()
    rooms = RoomService(engine, hub, bot_delay=settings.bot_delay)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        resumed = await rooms.resume_all()
        if resumed:
            log.info("resumed %d unfinished matches from their event logs", resumed)
        yield
        for room in list(rooms.rooms.values()):
            if room.bot_task is not None:
                room.bot_task.cancel()
        engine.dispose()

    app = FastAPI(
        title="Parlour",
        summary="Five original card games to play with friends.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.engine = engine
    app.state.sessions = rooms.sessions
    app.state.signer = CookieSigner(settings.resolved_secret_key())
    app.state.hub = hub
    app.state.rooms = rooms

    app.add_exception_handler(RoomError, _room_error)  # type: ignore[arg-type]
    app.add_exception_handler(RequestValidationError, _validation_error)  # type: ignore[arg-type]
    app.include_router(api.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    return app


async def _room_error(_request: Request, error: RoomError) -> JSONResponse:
    return JSONResponse(
        {"code": error.code, "message": error.message, "detail": error.message},
        status_code=error.status,
    )


async def _validation_error(_request: Request, error: RequestValidationError) -> JSONResponse:
    first = error.errors()[0] if error.errors() else {"loc": (), "msg": "bad request"}
    where = ".".join(str(p) for p in first["loc"] if p != "body")
    message = f"{where}: {first['msg']}" if where else str(first["msg"])
    return JSONResponse(
        {"code": "bad_request", "message": message, "detail": message},
        status_code=422,
    )
