"""The application factory: ``create_app()`` wires settings, database, rooms and routes.

Run it with ``python -m app.serve`` (`make run` does, after migrating), or with
``uvicorn app.main:create_app --factory --no-proxy-headers``: the app reads
``X-Forwarded-For`` itself, from the proxies TRUSTED_PROXIES names (app/http/forwarded.py).
Run by uvicorn itself it keeps uvicorn's own log format and its metrics in one process;
``app.serve`` sets up the structured logs and the metrics of several processes.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager, asynccontextmanager
from dataclasses import dataclass
from functools import partial
from typing import Any

from fastapi import FastAPI, WebSocket
from sqlalchemy import text
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import Receive, Scope, Send

from app.chat.service import Chat
from app.cluster.cluster import Cluster
from app.cluster.redis_clients import event_loop_client, lease_keeper_client
from app.config import Settings, get_settings
from app.connections.hub import SERVICE_RESTART, Hub
from app.connections.session_ends import SessionEnds
from app.db import make_engine, make_session_factory
from app.departure import Departure
from app.heap import collector_paced
from app.http import errors as http_errors
from app.http.assets import site_assets
from app.http.forwarded import behind_proxies
from app.http.guards import HttpGuards, parse_origins
from app.i18n.requests import LanguageCookie
from app.limits.quotas import Limiter, MemoryQuotas, Quotas, RedisQuotas, SiteQuotas
from app.moderation.actions import Moderation
from app.moderation.sanctions import banned_users
from app.notifications.outbox import Notifications, build_notifications
from app.observability import logs
from app.observability.context import with_request_context
from app.observability.health import Probe
from app.people.browser_mark import BrowserMarks
from app.people.cookie import CookieSigner
from app.people.hashing_pool import HashingPool
from app.people.idle_guests import GuestSweeper
from app.people.sessions import Authenticator
from app.records.analysis import Analyst
from app.rooms import Rooms
from app.rooms.notifier import Notifiers
from app.rooms.signals import Signals
from app.rooms.storage import RoomStorage
from app.rooms.thinking import Thinkers
from app.rooms.time_source import TimeSource
from app.routes import accounts as accounts_api
from app.routes import friends as friends_api
from app.routes import games as games_api
from app.routes import invitations as invitations_api
from app.routes import live, notification_pages, operations, pages, ws
from app.routes import matches as matches_api
from app.routes import moderation as moderation_api
from app.routes import notifications as notifications_api
from app.routes import players as players_api
from app.routes import reports as reports_api
from app.routes import rooms as rooms_api
from app.routes import sessions as sessions_api
from app.routes import tables as tables_api
from app.social.service import Social
from app.store.database_thread import DatabaseThread

log = logging.getLogger("parlour")


WS_PATH = re.compile(r"/ws/rooms/(?P<room_id>[^/]+)")
LIVE_PATH = "/ws/me"


class ParlourApp:
    """The ASGI app: the play socket first, then FastAPI for everything else — each seeing
    the caller's address as the trusted proxies report it (app/http/forwarded.py).

    A WebSocket to /ws/rooms/{id} is served before FastAPI's middleware and router: those
    layers hold memory for as long as a connection lives (about a third of an idle
    connection's cost, bench/results/2026-11-22-load-findings.md) and do nothing for it.
    Attributes (``state``, ``routes``...) are the FastAPI app's.
    """

    def __init__(self, app: FastAPI, settings: Settings, departure: Departure) -> None:
        self.app = app
        self.departure = departure
        self.guarded = HttpGuards(
            app, allowed_origins=app.state.allowed_origins, max_body=settings.max_body_bytes
        )
        # Before anything reads the caller's address, sockets included.
        # Each request's and socket's log context (app/observability/context.py) too.
        self.entry = behind_proxies(
            with_request_context(self.dispatch), settings.trusted_proxy_list()
        )

    async def depart(self) -> None:
        """The process is stopping: hand the rooms and sockets on (app/departure.py), and
        tell every live channel's page to reconnect (to another process)."""
        await self.departure()
        for socket in self.app.state.social.live.sockets():
            socket.close(SERVICE_RESTART, "server restarting")

    def __getattr__(self, name: str) -> Any:
        return getattr(self.app, name)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        await self.entry(scope, receive, send)

    async def dispatch(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            match = WS_PATH.fullmatch(scope["path"])
            if match is not None:
                scope["app"] = self.app
                await ws.play(WebSocket(scope, receive, send), match["room_id"])
                return
            if scope["path"] == LIVE_PATH:
                scope["app"] = self.app
                await live.listen(WebSocket(scope, receive, send))
                return
        await self.guarded(scope, receive, send)


@dataclass
class Services:
    """What one process runs: the people's sessions, password hashing and the clean-up of
    idle guests, the quotas, the rooms and their chat, its connections, the notifications
    (the rooms' signals and their delivery), and with several processes the cluster
    joining them."""

    settings: Settings
    database: DatabaseThread
    signer: CookieSigner
    auth: Authenticator
    hashing: HashingPool
    guest_sweeper: GuestSweeper
    quotas: Quotas
    hub: Hub
    rooms: Rooms
    chat: Chat
    notifications: Notifications
    cluster: Cluster | None
    analyst: Analyst
    social: Social


def build_services(
    settings: Settings,
    storage: RoomStorage,
    database: DatabaseThread,
    time_source: TimeSource | None,
    signals: Signals | None = None,
) -> Services:
    """The services wired together: alone, or sharing the rooms with other processes."""
    signer = CookieSigner(settings.resolved_secret_key())
    auth = Authenticator(database.sessions, signer, cache_seconds=settings.session_cache_seconds)
    thinkers = Thinkers(settings.bot_workers)
    timing: dict[str, Any] = {
        "bot_delay": settings.bot_delay,
        "time_source": time_source,
        "absence_grace": settings.absence_grace,
        "stale_after": settings.stale_after,
        "presence_delay": settings.presence_delay,
        "thinkers": thinkers,
        "turn_sweep_seconds": settings.turn_sweep_seconds,
        "deadline_reminder_seconds": settings.deadline_reminder_seconds,
    }
    hub = Hub()
    cluster: Cluster | None = None
    quotas: Quotas = MemoryQuotas()
    if settings.redis_url:
        cluster = _cluster(settings.redis_url, settings, hub, auth)
        quotas = RedisQuotas(cluster.redis, settings.redis_prefix)
        notifier = Notifiers([hub, cluster])
        rooms = Rooms(
            storage, notifier=notifier, presence=cluster.presence, ownership=cluster, **timing
        )
    else:
        rooms = Rooms(storage, notifier=hub, presence=hub, **timing)
    chat = Chat(
        database, hub, others=cluster, rate=settings.chat_rate_per_second, burst=settings.chat_burst
    )
    rooms.registry.on_make(chat.room_made)
    rooms.registry.on_release(chat.room_released)
    if cluster is not None:
        cluster.attach(rooms, chat)
    social = Social.build(database, hub, rooms)
    social.live.live_sessions = auth.live_sessions
    social.live.banned = partial(banned_users, auth.sessions)
    if cluster is not None:
        # What the live channel tells, and whose talk people hide, reach every process.
        cluster.people.attach(social.live, social.hiding.apply)
        social.hiding.relay = cluster.people
    hashing = HashingPool(settings.hash_workers, settings.hash_queue)
    sweeper = GuestSweeper(
        database.sessions, idle_days=settings.guest_idle_days, every=settings.guest_sweep_seconds
    )
    # The rooms' signals (a turn awaits someone, a deadline nears, a match ended) go to the
    # notification outbox, or where the caller says (tests record them).
    notifications = build_notifications(settings, database, rooms, cluster)
    rooms.send_signals_to(signals or notifications)
    # Alone (no Redis), every claim on an analysis found at start is a dead process's.
    analyst = Analyst(
        database, thinkers, poll=settings.analysis_poll_seconds, alone=cluster is None
    )
    return Services(
        settings,
        database,
        signer,
        auth,
        hashing,
        sweeper,
        quotas,
        hub,
        rooms,
        chat,
        notifications,
        cluster,
        analyst,
        social,
    )


def _cluster(redis_url: str, settings: Settings, hub: Hub, auth: Authenticator) -> Cluster:
    """Several processes share the rooms: leases, notices and forwarding over Redis."""
    redis = event_loop_client(redis_url)
    keeper = lease_keeper_client(redis_url, settings.lease_seconds)
    cluster = Cluster(
        redis,
        keeper,
        hub,
        lease_seconds=settings.lease_seconds,
        prefix=settings.redis_prefix,
        name=settings.process_name,
    )
    # Sessions ended or users changed in one process are forgotten in every other.
    cluster.on_forget_user = auth.forget_here
    cluster.on_forget_all = auth.forget_all
    return cluster


def lifespan_of(services: Services) -> Callable[[FastAPI], AbstractAsyncContextManager[None]]:
    """Start-up and shut-down: the cluster joined, the open rooms loaded, then served."""
    cluster, rooms, auth, hub = services.cluster, services.rooms, services.auth, services.hub

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        if cluster is not None:
            await cluster.start()
            loop, publish = asyncio.get_running_loop(), cluster.forget_user

            def tell_others(user_id: str) -> None:
                # Sent from the event loop: some of the word comes from worker threads.
                loop.call_soon_threadsafe(publish, user_id)

            auth.tell_others = tell_others
        loop = asyncio.get_running_loop()
        # Ending a session, here or in another process, closes its open sockets here.
        session_ends = SessionEnds(
            hub, auth.live_sessions, loop, banned=partial(banned_users, auth.sessions)
        )
        live_channel = services.social.live

        def user_forgotten(user_id: str) -> None:
            session_ends.user_forgotten(user_id)
            # The live channel's sockets close with their session too.
            asyncio.run_coroutine_threadsafe(live_channel.check_sessions(user_id), loop)

        def all_forgotten() -> None:
            session_ends.all_forgotten()
            asyncio.run_coroutine_threadsafe(live_channel.check_sessions(None), loop)

        auth.on_forget_user = user_forgotten
        auth.on_forget_all = all_forgotten
        _app.state.session_ends = session_ends
        watchdog = loop.create_task(hub.watch_for_stuck_clients())
        sweeper = services.guest_sweeper
        sweeps = loop.create_task(sweeper.run()) if sweeper.every > 0 else None
        analyst = services.analyst
        analysing = loop.create_task(analyst.run()) if analyst.poll > 0 else None
        resumed = await rooms.registry.resume_all()
        if resumed:
            log.info("loaded %d open rooms (unfinished matches from their logs)", resumed)
        services.notifications.start()
        rooms.sweep.start()
        with collector_paced(loop, services.settings.gc_young_every):
            yield
        await services.notifications.close()
        watchdog.cancel()
        if sweeps is not None:
            sweeps.cancel()
        if analysing is not None:
            analysing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await analysing
        services.hashing.close()
        await session_ends.close()
        if cluster is not None:
            await cluster.close()
        await rooms.close()

    return lifespan


def expose(app: FastAPI, services: Services) -> None:
    """The services on ``app.state``, where the routes' dependencies find them."""
    settings = services.settings
    state = app.state
    state.settings = settings
    state.allowed_origins = parse_origins(settings.allowed_origins)
    state.sessions = services.database.sessions
    state.signer = services.signer
    state.browser_marks = BrowserMarks(settings.resolved_secret_key())
    state.auth = services.auth
    state.hashing = services.hashing
    state.guest_sweeper = services.guest_sweeper
    state.limiter = Limiter(services.quotas, SiteQuotas.from_settings(settings))
    state.hub = services.hub
    state.rooms = services.rooms
    state.chat = services.chat
    state.readiness_probes = readiness_probes(services)
    state.notifications = services.notifications
    state.analyst = services.analyst
    state.social = services.social
    state.moderation = Moderation(
        services.database, services.auth, services.rooms, services.chat, services.social.live
    )


def readiness_probes(services: Services) -> dict[str, Probe]:
    """What GET /readyz asks: the database, and Redis when several processes share it."""

    async def database() -> None:
        await services.database.run(lambda session: session.execute(text("SELECT 1")))

    probes: dict[str, Probe] = {"database": database}
    if services.cluster is not None:
        probes["redis"] = services.cluster.redis.ping
    return probes


def mount_routes(app: FastAPI) -> None:
    """Every API router, the pages, and the static files."""
    api = (
        sessions_api,
        accounts_api,
        games_api,
        rooms_api,
        matches_api,
        players_api,
        notifications_api,
        tables_api,
        friends_api,
        invitations_api,
        reports_api,
        moderation_api,
    )
    for routes in (*api, notification_pages, pages, operations):
        app.include_router(routes.router)
    app.mount("/static", site_assets(), name="static")


def create_app(
    settings: Settings | None = None,
    *,
    storage: RoomStorage | None = None,
    database: DatabaseThread | None = None,
    time_source: TimeSource | None = None,
    signals: Signals | None = None,
) -> ParlourApp:
    """The app; ``storage`` replaces the rooms' database transactions, ``database`` the
    people's and the chat's, ``time_source`` is what the rooms keep time by, and
    ``signals`` is told of turns, deadlines near and ends at turn-based tables instead of
    the notification outbox. Tests inject them."""
    settings = settings or get_settings()
    # Before the first socket: uvicorn writes its lines of every socket as soon as it serves.
    logs.quiet_sockets(settings.access_log)
    storage = storage or RoomStorage(make_engine(settings.database_url))
    # People's sessions and the chat run their transactions on the same engine as the rooms.
    database = database or DatabaseThread(make_session_factory(storage.engine))
    services = build_services(settings, storage, database, time_source, signals)
    app = FastAPI(
        title="Parlour",
        summary="Five original card games to play with friends.",
        lifespan=lifespan_of(services),
    )
    expose(app, services)
    http_errors.install(app)
    # Pages, JSON, scripts and stylesheets compressed when the browser accepts it (the play
    # socket never reaches this layer; static files come compressed already).
    app.add_middleware(GZipMiddleware, minimum_size=512, compresslevel=6)
    # A language asked for in the address (the picker's links) is kept in a cookie.
    app.add_middleware(LanguageCookie)
    mount_routes(app)
    return ParlourApp(app, settings, Departure(services.hub, services.rooms))
