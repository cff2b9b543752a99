"""The application factory: ``create_app()`` wires settings, database, rooms and routes.

Run it with ``uvicorn app.main:create_app --factory`` (`make run` does, after migrating).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, WebSocket
from fastapi.staticfiles import StaticFiles
from starlette.types import Receive, Scope, Send

from app.chat.service import Chat
from app.cluster.cluster import Cluster
from app.cluster.redis_clients import event_loop_client, lease_keeper_client
from app.config import Settings, get_settings
from app.connections.hub import Hub
from app.db import make_engine
from app.http import errors as http_errors
from app.http.guards import HttpGuards, parse_origins
from app.limits.quotas import Limiter, MemoryQuotas, Quotas, RedisQuotas, SiteQuotas
from app.people.cookie import CookieSigner
from app.people.sessions import Authenticator
from app.rooms import Rooms
from app.rooms.notifier import Notifiers
from app.rooms.storage import RoomStorage
from app.rooms.thinking import Thinkers
from app.rooms.time_source import TimeSource
from app.routes import accounts as accounts_api
from app.routes import games as games_api
from app.routes import matches as matches_api
from app.routes import pages, ws
from app.routes import players as players_api
from app.routes import rooms as rooms_api
from app.routes import sessions as sessions_api

ROOT = Path(__file__).resolve().parent.parent
log = logging.getLogger("parlour")


WS_PATH = re.compile(r"/ws/rooms/(?P<room_id>[^/]+)")


class ParlourApp:
    """The ASGI app: the play socket first, then FastAPI for everything else.

    A WebSocket to /ws/rooms/{id} is served before FastAPI's middleware and router: those
    layers hold memory for as long as a connection lives (about a third of an idle
    connection's cost, bench/results/2026-11-22-load-findings.md) and do nothing for it.
    Attributes (``state``, ``routes``...) are the FastAPI app's.
    """

    def __init__(self, app: FastAPI, settings: Settings) -> None:
        self.app = app
        self.guarded = HttpGuards(
            app, allowed_origins=app.state.allowed_origins, max_body=settings.max_body_bytes
        )

    def __getattr__(self, name: str) -> Any:
        return getattr(self.app, name)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            match = WS_PATH.fullmatch(scope["path"])
            if match is not None:
                scope["app"] = self.app
                await ws.play(WebSocket(scope, receive, send), match["room_id"])
                return
        await self.guarded(scope, receive, send)


def create_app(
    settings: Settings | None = None,
    *,
    storage: RoomStorage | None = None,
    clock: TimeSource | None = None,
) -> ParlourApp:
    """The app; ``storage`` replaces the rooms' database transactions and ``clock`` is the
    time source they keep time by (tests inject both)."""
    settings = settings or get_settings()
    storage = storage or RoomStorage(make_engine(settings.database_url))
    signer = CookieSigner(settings.resolved_secret_key())
    auth = Authenticator(storage.sessions, signer, cache_seconds=settings.session_cache_seconds)
    quotas: Quotas = MemoryQuotas()
    timing: dict[str, Any] = {
        "bot_delay": settings.bot_delay,
        "time_source": clock,
        "absence_grace": settings.absence_grace,
        "stale_after": settings.stale_after,
        "presence_delay": settings.presence_delay,
        "thinkers": Thinkers(settings.bot_workers),
    }
    hub = Hub()
    cluster: Cluster | None = None
    if settings.redis_url:
        # Several processes share the rooms: leases, notices and forwarding over Redis.
        redis = event_loop_client(settings.redis_url)
        keeper = lease_keeper_client(settings.redis_url, settings.lease_seconds)
        cluster = Cluster(
            redis, keeper, hub, lease_seconds=settings.lease_seconds, prefix=settings.redis_prefix
        )
        # Sessions ended or users changed in one process are forgotten in every other (the
        # word is sent from the event loop: some of it comes from worker threads).
        cluster.on_forget_user = auth.forget_here
        cluster.on_forget_all = auth.forget_all
        quotas = RedisQuotas(redis, settings.redis_prefix)
        rooms = Rooms(
            storage,
            notifier=Notifiers([hub, cluster]),
            presence=cluster.presence,
            ownership=cluster,
            **timing,
        )
    else:
        rooms = Rooms(storage, notifier=hub, presence=hub, **timing)
    chat = Chat(
        storage,
        hub,
        others=cluster,
        rate=settings.chat_rate_per_second,
        burst=settings.chat_burst,
    )
    if cluster is not None:
        cluster.attach(rooms, chat)

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if cluster is not None:
            await cluster.start()
            loop, publish = asyncio.get_running_loop(), cluster.forget_user

            def tell_others(user_id: str) -> None:
                loop.call_soon_threadsafe(publish, user_id)

            auth.tell_others = tell_others
        watchdog = asyncio.get_running_loop().create_task(hub.watch_for_stuck_clients())
        resumed = await rooms.registry.resume_all()
        if resumed:
            log.info("loaded %d open rooms (unfinished matches from their logs)", resumed)
        # Everything loaded so far lives as long as the process: keep it out of the
        # collector's sight, and collect the rest less eagerly. Under load, full
        # collections of the start-up heap were the main cause of latency spikes
        # (bench/results/2026-11-22-load-findings.md).
        gc.collect()
        gc.freeze()
        gc.set_threshold(7000, 50, 1000)
        yield
        watchdog.cancel()
        if cluster is not None:
            await cluster.close()
        await rooms.close()

    app = FastAPI(
        title="Parlour",
        summary="Five original card games to play with friends.",
        lifespan=lifespan,
    )
    app.state.settings = settings
    app.state.allowed_origins = parse_origins(settings.allowed_origins)
    app.state.sessions = storage.sessions
    app.state.signer = signer
    app.state.auth = auth
    app.state.limiter = Limiter(quotas, SiteQuotas.from_settings(settings))
    app.state.hub = hub
    app.state.rooms = rooms
    app.state.chat = chat

    http_errors.install(app)
    api = (sessions_api, accounts_api, games_api, rooms_api, matches_api, players_api)
    for routes in (*api, pages):
        app.include_router(routes.router)
    app.mount("/static", StaticFiles(directory=ROOT / "static"), name="static")
    return ParlourApp(app, settings)
