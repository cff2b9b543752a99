"""The WebSocket endpoint /ws/rooms/{id}, served by app.main.ParlourApp.

A player's connection acts for their seat; anyone else's watches. Every incoming message
is bounded in size and rate and validated before it reaches the room; a refused message
gets a specific error and changes nothing. A preview (what an action would do) is answered
with a "preview" message, whether the rules accept the action or not. Chat lines and
reactions go to the chat (app/chat), never to the referee; their refusals say so
(``"about": "chat"`` or ``"react"``), so a client shows them by the chat box. A player's
word on a rematch goes to the room's rematch offer (app/rooms/rematch_offers.py); its
refusals say ``"about": "rematch"``.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import time
from collections.abc import Awaitable
from typing import Any

import orjson
from fastapi import WebSocket
from pydantic import ValidationError

from app.chat.service import Chat
from app.config import Settings
from app.connections.hub import Connection, Hub
from app.connections.session_ends import SessionEnds
from app.http.deps import client_address
from app.http.guards import origin_allowed
from app.http.schemas import (
    ActMessage,
    ChatLine,
    ClientMessage,
    PingMessage,
    PreviewMessage,
    ReactMessage,
    ReadWatchersMessage,
    RematchMessage,
)
from app.http.websocket_protocol import read_by_of, send_now_of
from app.i18n.catalogues import words
from app.i18n.marks import N_
from app.i18n.requests import request_language
from app.limits.buckets import TokenBucket
from app.observability.context import person
from app.observability.metrics import REFUSALS, move_seconds
from app.people.origins import Speaker
from app.people.sessions import Identity
from app.refusal import Refusal, unavailable
from app.rooms import LiveRoom, Rooms
from app.social.hiding import Hiding
from app.store.outage import is_outage

log = logging.getLogger("parlour.connections")

POLICY_VIOLATION = 1008
TRY_AGAIN_LATER = 1013
# What a message sent to a stopping process is answered (before the socket closes with
# SERVICE_RESTART, app/connections/hub.py), and where its client shows it.
RESTARTING = N_("This server is restarting: send it again once reconnected.")
ABOUT: dict[type, str] = {ChatLine: "chat", ReactMessage: "react", RematchMessage: "rematch"}
ROOM_NOT_FOUND_CLOSE = 4404
FOREIGN_ORIGIN_CLOSE = 4403


def socket_language(websocket: WebSocket, identity: Identity | None) -> str:
    """The language a socket is answered in: its account's setting, else its request's."""
    return request_language(websocket, account=identity.language if identity else None)


def error_message(code: str, message: str, about: str | None = None) -> str:
    """An ``error`` message; every one is counted by its code (``parlour_refusals_total``)."""
    REFUSALS.labels(code=code).inc()
    error = {"type": "error", "code": code, "message": message}
    if about is not None:
        error["about"] = about
    return orjson.dumps(error).decode()


def describe_validation(error: ValidationError, language: str) -> str:
    """What is wrong with a message, in ``language`` (the field and the validator's rule
    are named as a program reads them, in English)."""
    said = words(language)
    first = error.errors()[0]
    skip = ("act", "preview", "chat", "react", "read_watchers", "rematch", "ping")
    where = ".".join(str(part) for part in first["loc"] if part not in skip)
    if first["type"] in ("union_tag_invalid", "union_tag_not_found"):
        return said.gettext(
            N_(
                "A message needs a 'type' of 'act', 'preview', 'chat', 'react', "
                "'read_watchers', 'rematch' or 'ping'."
            )
        )
    if first["type"] == "json_invalid":
        return said.gettext(N_("That message is not valid JSON."))
    return said.gettext(
        N_("Bad message: {where}: {rule}."), where=where or "message", rule=first["msg"]
    )


def preview_reply(
    rooms: Rooms, room: LiveRoom, user_id: str | None, message: PreviewMessage, language: str
) -> str:
    """The answer to a preview: a refusal is an answer too (``ok: false``), not an error;
    a game's reason for it in ``language``, the socket's."""
    reply: dict[str, Any] = {"type": "preview", "version": message.version}
    try:
        result = rooms.preview(
            room, user_id=user_id, version=message.version, action=message.action
        )
    except Refusal as error:
        reply.update(ok=False, code=error.code, message=error.text(language))
    else:
        reply.update(ok=True, result=result)
    return orjson.dumps(reply).decode()


async def send_first_chat_log(chat: Chat, connection: Connection) -> None:
    """The room's recent messages this connection may read (read from the database the
    first time the room's are needed here). Without the database the table still plays
    (the outage is logged once, by app/store/outage.py); the log is read again on the next
    connect, and then sent to every connection of the room."""
    try:
        await chat.recent(connection.room)
    except Exception as error:
        if not is_outage(error):
            raise
        return
    connection.send_chat_log()


def speaker_of(websocket: WebSocket, identity: Identity | None, address: str) -> Speaker | None:
    """Who speaks through this socket as far as the server can tell, for the mutes."""
    if identity is None:
        return None
    browser = websocket.app.state.browser_marks.read(websocket.cookies)
    since = None if identity.is_account else identity.since
    return Speaker(identity.id, browser=browser, address=address, guest_since=since)


def check_socket_caps(hub: Hub, settings: Settings, user_id: str | None, address: str) -> None:
    """Refuse one socket more than a person, or an address, may hold open at once."""
    person, from_address = hub.open_sockets(user_id, address)
    check_socket_counts(settings, person, from_address)


def check_socket_counts(settings: Settings, person: int, from_address: int = 0) -> None:
    """Refuse one socket more, given how many the person and the address hold open (of one
    kind: play sockets, or live channel sockets, app/routes/live.py)."""
    if person >= settings.sockets_per_person or from_address >= settings.sockets_per_address:
        raise Refusal(
            "too_many_connections",
            N_("Too many open connections: close another tab of Parlour, then reload."),
            429,
        )


# What ``Intake.refusal`` answers when the socket must close.
FLOODING = Refusal("flooding", "")


class Intake:
    """A socket's incoming frames before they are read: at most so many a second (a token
    bucket; past it each is refused, and too many refusals close the socket as a flood),
    text only, and bounded in size. Shared by the play socket and the live channel."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.bucket = TokenBucket(settings.rate_per_second, settings.rate_burst)
        self.violations = 0

    def refusal(self, text: Any, now: float) -> Refusal | None:
        """None if the frame may be read; else its refusal, or ``FLOODING``."""
        if not self.bucket.allow(now):
            self.violations += 1
            if self.violations > self.settings.max_rate_violations:
                return FLOODING
            return Refusal("rate_limited", N_("Too many messages; slow down."))
        if text is None:
            return Refusal("bad_message", N_("Send JSON text frames, not binary."))
        if len(text) > self.settings.max_message_bytes:
            return Refusal(
                "message_too_large",
                N_("Messages are at most {most} bytes."),
                most=self.settings.max_message_bytes,
            )
        return None


async def play(websocket: WebSocket, room_id: str) -> None:
    """Serve one connection to a room until it closes (mounted by app.main.ParlourApp)."""
    state = websocket.app.state
    settings: Settings = state.settings
    rooms: Rooms = state.rooms
    hub: Hub = state.hub
    chat: Chat = state.chat
    hiding: Hiding = state.social.hiding
    if not origin_allowed(websocket.headers, state.allowed_origins):
        # A page on another site opening a socket with this visitor's cookie: refused
        # before the handshake completes (the browser sees a 403).
        await websocket.close(code=FOREIGN_ORIGIN_CLOSE)
        return
    address = client_address(websocket)
    session_ends: SessionEnds = state.session_ends
    heard_before = session_ends.heard
    # The room stays in memory here until the socket counts as watching it: a copy let go
    # meanwhile would follow its owner no more.
    identity: Identity | None = None
    with rooms.registry.kept(room_id):
        try:
            await state.limiter.look_up(room_id, address)
            identity = await state.auth.identify(websocket.cookies.get(settings.cookie_name))
            user_id = identity.id if identity is not None else None
            session_id = identity.session_id if identity is not None else None
            if user_id is not None:
                person(user_id)  # the socket's log lines name whom it acts for
            room = await rooms.get(room_id)
            check_socket_caps(hub, settings, user_id, address)
            # Whose lines and reactions this person never gets: those they blocked (read
            # last, as nothing may stop the socket between this and ``opened`` below).
            # Only accounts block; a guest who signs up gets a new session, which closes
            # this socket.
            opening = (
                await hiding.opening(identity.id)
                if identity is not None and identity.is_account
                else None
            )
        except Refusal as error:
            said = error.text(socket_language(websocket, identity))
            await websocket.accept()
            await websocket.send_text(error_message(error.code, said))
            await websocket.close(
                code=ROOM_NOT_FOUND_CLOSE if error.status == 404 else POLICY_VIOLATION
            )
            return
        except Exception as error:
            if not is_outage(error):
                raise
            down = unavailable()
            await websocket.accept()
            said = down.text(socket_language(websocket, identity))
            await websocket.send_text(error_message(down.code, said))
            await websocket.close(code=TRY_AGAIN_LATER)
            return

        connection = Connection(
            websocket,
            user_id,
            room,
            rooms.presence,
            settings.max_send_queue,
            time_source=rooms.time_source,
            grace=rooms.absence_grace,
            address=address,
            chat=chat.recent_of(room),
            session_id=session_id,
            language=request_language(
                websocket, account=identity.language if identity is not None else None
            ),
            send_now=send_now_of(websocket.scope),
        )
        # With no wait from here to ``hub.add``: a block told in between would miss it.
        connection.hides = hiding.opened(opening) if opening is not None else frozenset()
        # Registered before the handshake completes, so that whatever the room says once the
        # client is connected (a move, a chat line, a reaction) is queued for it too.
        hub.add(connection)
    # A session that ended while this socket was being opened closes it too.
    session_ends.registered(connection, heard_before)
    try:
        await websocket.accept()
    except BaseException:
        hub.remove(connection)
        raise
    rooms.presence_changed(room)  # the others hear of the newcomer a moment later ...
    connection.start()
    connection.notify()  # ... the newcomer gets the room and its view at once
    try:
        await send_first_chat_log(chat, connection)
        speaker = speaker_of(websocket, identity, address)
        await serve(websocket, connection, rooms, chat, settings, speaker)
    except asyncio.CancelledError:
        if not connection.dropped:
            raise
        # The hub's watchdog dropped a client that stopped reading.
    finally:
        hub.remove(connection)
        rooms.presence_changed(room)
        rooms.registry.release_if_idle(room)
        await connection.finish()


INTERNAL_ERROR = 1011


async def serve(
    websocket: WebSocket,
    connection: Connection,
    rooms: Rooms,
    chat: Chat,
    settings: Settings,
    speaker: Speaker | None = None,
) -> None:
    """Take one connection's messages until it closes. Where the socket offers a reader of
    its own (``read_by``, app/http/websocket_protocol.py), each message is taken as it
    arrives, in the protocol's call, and the ASGI way brings only the disconnect;
    elsewhere (the test client) each is read the ASGI way and handed on."""
    reader = Reader(connection, Intake(settings), rooms, chat, speaker)
    read_by = read_by_of(websocket.scope)
    if read_by is not None:
        # Taken in the protocol's call, each message is still taken as this socket's:
        # the log lines of what it does name this socket, its room and its person.
        context = contextvars.copy_context()
        read_by(lambda text: context.run(reader.received, text))
    while True:
        message = await websocket.receive()
        if message["type"] == "websocket.disconnect":
            return
        reader.received(message.get("text"))


class Reader:
    """A socket's messages, taken in the order they came.

    Each is answered at once when it can be (a ping, a preview, any refusal). An action, a
    chat line, a reaction or a rematch answer starts its work, and the messages after it
    wait until that work's answer is queued; so do those that come while the socket's
    session is being checked (``Connection.session_check``). Nothing of a message is kept
    once it is answered: a seat's next move comes seconds later, and what lives that long
    takes the garbage collector's time in every collection it goes through (app/heap.py).
    """

    __slots__ = (
        "_answering",
        "_held",
        "_most_held",
        "chat",
        "connection",
        "intake",
        "rooms",
        "speaker",
    )

    def __init__(
        self,
        connection: Connection,
        intake: Intake,
        rooms: Rooms,
        chat: Chat,
        speaker: Speaker | None,
    ) -> None:
        self.connection = connection
        self.intake = intake
        self.rooms = rooms
        self.chat = chat
        self.speaker = speaker
        # The messages waiting to be taken; None while none wait and nothing is being done.
        self._held: list[str | None] | None = None
        # At most as many as the socket's rate lets through at once, and the refusals it
        # bears before it closes: a client that sends more without waiting for their
        # answers floods, and its socket is closed as one over its rate too often is.
        settings = intake.settings
        self._most_held = settings.rate_burst + settings.max_rate_violations
        # What the work under way answers: a chat line, a reaction or a rematch answer
        # (``about``), or an action and when it was received (to time its commit).
        self._answering: tuple[str | None, float] = (None, 0.0)

    def received(self, text: str | None) -> None:
        """One message the client sent (its text; None: a binary message)."""
        held = self._held
        if held is None:
            self._held = [text]
            self._take_held()
        elif len(held) < self._most_held:
            held.append(text)
        else:
            held.clear()
            self.connection.close(POLICY_VIOLATION, "flooding")

    def _take_held(self, _: object = None) -> None:
        connection, held = self.connection, self._held
        while held:
            if connection.closed:  # its session ended (or it was closed) meanwhile
                held.clear()
                break
            check = connection.session_check
            if check is not None:
                # Word came that the session may have ended: its answer comes first.
                check.add_done_callback(self._take_held)
                return
            work = self._take(held.pop(0))
            if work is not None:
                connection.busy = True  # until its answer is queued: a stop waits for it
                work.add_done_callback(self._answered)
                return
        self._held = None

    def _take(self, text: str | None) -> asyncio.Future[None] | None:
        """Answer one message, or start its work: the work's future, or None."""
        connection, rooms = self.connection, self.rooms
        refused = self.intake.refusal(text, asyncio.get_running_loop().time())
        if refused is FLOODING:
            connection.close(POLICY_VIOLATION, "flooding")
            return None
        if refused is not None:
            # A flood is told once for as long as the refusal is still waiting to go out.
            once = "rate_limited" if refused.code == "rate_limited" else ""
            said = refused.text(connection.language)
            connection.reply(error_message(refused.code, said), once=once)
            return None
        assert text is not None, "a binary message is refused above"
        try:
            parsed = ClientMessage.validate_json(text)
        except ValidationError as error:
            described = describe_validation(error, connection.language)
            connection.reply(error_message("bad_message", described))
            return None
        room, user_id = connection.room, connection.user_id
        if isinstance(parsed, PingMessage):
            connection.reply('{"type":"pong"}')
        elif isinstance(parsed, PreviewMessage):  # changes nothing: answered to the end
            connection.reply(preview_reply(rooms, room, user_id, parsed, connection.language))
        elif connection.restarting:
            # The process is stopping (app/departure.py): nothing new is taken; the socket
            # is about to close with SERVICE_RESTART, and the client sends it again then.
            restarting = words(connection.language).gettext(RESTARTING)
            connection.reply(error_message("unavailable", restarting, ABOUT.get(type(parsed))))
        elif isinstance(parsed, ReadWatchersMessage):
            connection.read_watchers(parsed.on)
        else:
            return self._start(parsed)
        return None

    def _start(
        self, parsed: ChatLine | ReactMessage | RematchMessage | ActMessage
    ) -> asyncio.Future[None]:
        """Start what a chat line, a reaction, a rematch answer or an action asks."""
        connection, rooms, chat = self.connection, self.rooms, self.chat
        room, user_id = connection.room, connection.user_id
        if isinstance(parsed, ActMessage):
            self._answering = (None, time.perf_counter())
            return rooms.act_started(
                room, user_id=user_id, version=parsed.version, action=parsed.action
            )
        work: Awaitable[None]
        if isinstance(parsed, RematchMessage):
            work = rooms.rematch_answer(room, user_id=user_id, accept=parsed.accept)
        elif isinstance(parsed, ChatLine):
            work = chat.say(
                room,
                user_id=user_id,
                channel=parsed.channel,
                text=parsed.text,
                origin=self.speaker,
                reads_watchers=connection.reads_watchers,
            )
        else:
            work = chat.react(room, user_id=user_id, reaction=parsed.reaction, origin=self.speaker)
        self._answering = (ABOUT[type(parsed)], 0.0)
        return asyncio.ensure_future(work)

    def _answered(self, work: asyncio.Future[None]) -> None:
        """The work under way is done: its answer (a refusal, or a move timed), then the
        messages that waited for it."""
        connection = self.connection
        connection.busy = False
        about, received = self._answering
        if not work.cancelled():
            error = work.exception()
            if error is None:
                if about is None:
                    timed_move(connection, connection.room.rules.name, received)
            elif not answer_failure(connection, error, about):
                log.error("a socket's message failed", exc_info=error)
                connection.close(INTERNAL_ERROR, "internal error")
        self._take_held()


def answer_failure(connection: Connection, error: BaseException, about: str | None) -> bool:
    """Answer a message whose work failed: a refusal with its error, a database outage with
    ``unavailable`` (nothing was written; the client may send it again). False for any
    other failure, which has no answer."""
    if isinstance(error, Refusal):
        connection.reply(error_message(error.code, error.text(connection.language), about))
        return True
    if is_outage(error):
        down = unavailable()
        connection.reply(error_message(down.code, down.text(connection.language), about))
        return True
    return False


def timed_move(connection: Connection, game: str, received: float) -> None:
    """Time a committed move from its receipt: to the commit (now), and to the new state
    going out to the mover's socket (queued by the time the commit is acknowledged)."""
    move_seconds(game, "committed").observe(time.perf_counter() - received)
    delivered = move_seconds(game, "delivered")
    connection.after_queued_sent(lambda: delivered.observe(time.perf_counter() - received))
