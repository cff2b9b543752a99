"""Connections per room and the fan-out to them (Django Channels' per-connection model).

Fan-out carries only "this room changed": each connection's own send loop then renders
what it has not seen yet (app/rooms/render.py), for its own seat, through the room's
per-version cache — so one shared payload that could carry hidden cards never exists. A
connection that falls behind is not queued up without bound: state notices coalesce (it
always gets the newest version), and a connection whose queue of other messages overflows
is closed as too slow.

Chat lines and reactions (app/chat) go out through the same queue, each to the
connections that may read its channel — save those whose person blocked the speaker
(``Connection.hides``, app/social/hiding.py) — and never coalesce. On connect, and whenever the
channels a connection reads change (it took a seat, the host opened or closed the
watchers' channel to the players), it is sent the room's recent messages it may read.

The :class:`Hub` is the rooms' notifier and presence (app/rooms/notifier.py) and the chat's
readers (app/chat/outlet.py) in this process.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Callable

import orjson
from starlette.websockets import WebSocket

from app.chat.access import readable
from app.chat.outlet import Spoken
from app.chat.recent import RecentChat
from app.connections.wakeup import Wakeup
from app.i18n.languages import DEFAULT as DEFAULT_LANGUAGE
from app.observability.metrics import CONNECTIONS
from app.rooms.notifier import Presence
from app.rooms.records import LiveRoom
from app.rooms.render import Sent, pending
from app.rooms.time_source import WIRE_CLOCK, TimeSource

SLOW_CLIENT_CLOSE = 4008  # policy: the client does not read what it is sent
# The server process is stopping (a deploy): reconnect at once, another process serves the
# room (RFC 6455's "Service Restart"; docs/protocol.md, "Closing").
SERVICE_RESTART = 1012
SEND_TIMEOUT = 10.0  # seconds one message may wait for a client that stopped reading
FINISH_TIMEOUT = 2.0  # seconds a closing connection's queue may take to go out


class Connection:
    """One WebSocket to one room, acting for a seat or watching (``seat is None``).

    Everything sent to the client goes out in the order it was given: the answers to its
    messages (replies: errors, previews, pongs), the room's updates (its description and
    this seat's state) and the chat it may read, so an answer never overtakes the state
    produced by a later message. A message is written to the socket at once when nothing
    waits before it and the socket takes it; otherwise it joins one queue, which the
    connection's send loop sends. Updates are rendered when the room changes and coalesce:
    an update still queued is replaced in place by a newer one of its kind, unless a reply
    was queued after it (then the newer update goes after that reply). Chat lines never
    coalesce.
    """

    # Slots, not a per-instance dict: ten thousand sockets hold one each, and a dict of
    # this many attributes is the larger part of the object.
    __slots__ = (
        "_after_sent",
        "_chat",
        "_close",
        "_grace",
        "_handler",
        "_max_queue",
        "_presence",
        "_queue",
        "_queued_count",
        "_send_now",
        "_sender",
        "_sent_count",
        "_time_source",
        "_wakeup",
        "address",
        "busy",
        "chat_channels",
        "closed",
        "dropped",
        "hides",
        "language",
        "reads_watchers",
        "restarting",
        "room",
        "seat",
        "sending_since",
        "sent",
        "session_check",
        "session_id",
        "user_id",
        "websocket",
    )

    def __init__(
        self,
        websocket: WebSocket,
        user_id: str | None,
        room: LiveRoom,
        presence: Presence,
        max_queue: int,
        *,
        time_source: TimeSource,
        grace: float,
        address: str,
        chat: RecentChat | None = None,
        session_id: str | None = None,
        language: str = DEFAULT_LANGUAGE,
        # The socket's writer of a message at once (SendNow, app/http/websocket_protocol.py),
        # its type spelled out here: the hub does not import the HTTP layer.
        send_now: Callable[[str], bool] | None = None,
    ) -> None:
        self.websocket = websocket
        self.user_id = user_id
        # The language its viewer reads: the accounts of moves and the errors it is sent
        # are in it (two people at one table may read different languages).
        self.language = language
        # The session the connection was opened with: it closes when that session ends
        # (app/connections/session_ends.py).
        self.session_id = session_id
        # Set while the session is being checked after word that it may have ended: the
        # connection's next message waits for the answer.
        self.session_check: asyncio.Future[None] | None = None
        self.address = address  # for the caps on sockets per address
        self.room = room
        self.seat = room.seat_of(user_id)
        self._presence = presence
        self._time_source = time_source
        self._grace = grace
        # The room's recent messages as this process knows them (kept by app/chat).
        self._chat = chat or RecentChat()
        # [kind, text, once]: kind "reply", "room", "state" or "chat"; ``once`` a reply's key.
        # A list, not a deque: it holds a message or two between sends (and at most
        # ``max_queue``), while an empty deque is 760 bytes on every idle connection.
        self._queue: list[list[str]] = []
        self._max_queue = max_queue
        # Messages queued and sent so far, and what to call once the count sent reaches a
        # count queued (``after_queued_sent``: a move's delivery timed); a list too, for
        # the same reason: it holds a callback only while a timed delivery is under way.
        self._queued_count = 0
        self._sent_count = 0
        self._after_sent: list[tuple[int, Callable[[], None]]] = []
        # What the send loop waits on while it has nothing to send.
        self._wakeup = Wakeup()
        # Writes a message at once when nothing waits before it (app/http/
        # websocket_protocol.py); None where the server offers no such thing.
        self._send_now = send_now
        self.closed = False
        self._close: tuple[int, str] | None = None  # the close frame to send, if any
        # What this connection was last sent, so a notice resends only what changed.
        self.sent = Sent()
        # The channels this connection was last sent the chat log of (None: not yet).
        self.chat_channels: frozenset[str] | None = None
        # Whether its player chose to read the watchers' channel (app/chat/access.py).
        self.reads_watchers = False
        # The people its person blocked: their lines and reactions are not sent here.
        self.hides: frozenset[str] = frozenset()
        # Since when a send has been waiting for the client to read (None: not waiting);
        # the hub's watchdog drops a connection stuck longer than SEND_TIMEOUT.
        self.sending_since: float | None = None
        self.dropped = False  # by the watchdog, as too slow
        # The process is stopping: messages that would change something are refused.
        self.restarting = False
        self.busy = False  # a message of the client's is being done; its answer is due
        self._sender: asyncio.Task[None] | None = None
        self._handler: asyncio.Task[object] | None = None

    def start(self) -> None:
        """Start the send loop (from the task that serves the connection)."""
        self._handler = asyncio.current_task()
        self._sender = asyncio.get_running_loop().create_task(self._run_sender())

    def now(self) -> str:
        """The server's time as a message going out now carries it."""
        return WIRE_CLOCK.text(self._time_source.now())

    def notify(self, now: str | None = None) -> None:
        """The room changed: queue what is new for this connection's seat. ``now`` is the
        server's time (:meth:`now`) when the caller made it once for many connections."""
        if self.closed:
            return
        # A watcher who takes a seat (or a seat given to a computer) acts as that from now.
        self.seat = self.room.seat_of(self.user_id)
        updates, self.sent = pending(
            self.room,
            self._presence,
            self.seat,
            self.sent,
            grace=self._grace,
            now=self.now() if now is None else now,
            language=self.language,
        )
        for kind, text in updates:
            if not self._replace_waiting(kind, text):
                self._push([kind, text, ""])
        self.send_chat_log()

    def tell(self, spoken: Spoken) -> None:
        """A chat line or a reaction: sent if this connection may read its channel."""
        if self.closed or (self.hides and spoken.body.get("user_id") in self.hides):
            return
        if spoken.channel is None or spoken.channel in self.readable():
            self._push(["chat", spoken.text, ""])

    def hide(self, people: frozenset[str]) -> None:
        """Its person's blocks changed: hide these people's lines from now on, and send
        the recent chat again without them."""
        if people != self.hides:
            self.hides = people
            self.send_chat_log(again=True)

    def readable(self) -> frozenset[str]:
        """The chat channels this connection reads now."""
        return readable(self.room, self.seat, self.reads_watchers)

    def read_watchers(self, on: bool) -> None:
        """Its player chose whether to read the watchers' channel: the log follows."""
        self.reads_watchers = on
        self.send_chat_log()

    def send_chat_log(self, *, again: bool = False) -> None:
        """Send the room's recent messages this connection may read, once they are known:
        the first time, when the channels it reads change, and ``again`` on demand."""
        if self.closed or not self._chat.loaded:
            return
        channels = self.readable()
        if channels == self.chat_channels and not again:
            return
        self.chat_channels = channels
        if self.hides:
            kept = [m for m in self._chat.log(channels) if m.get("user_id") not in self.hides]
            self._push(["chat", orjson.dumps({"type": "chat_log", "messages": kept}).decode(), ""])
        else:
            self._push(["chat", self._chat.log_text(channels), ""])

    def _replace_waiting(self, kind: str, text: str) -> bool:
        """Put ``text`` in place of an update of ``kind`` still waiting after the last reply."""
        for item in reversed(self._queue):
            if item[0] == "reply":
                return False
            if item[0] == kind:
                item[1] = text
                return True
        return False

    def reply(self, text: str, *, once: str = "") -> None:
        """Queue an answer to the client's message. With ``once``, a reply with the same
        key still waiting in the queue makes this one unnecessary (a flood is told once)."""
        if once and any(item[2] == once for item in self._queue):
            return
        self._push(["reply", text, once])

    def _push(self, item: list[str]) -> None:
        if len(self._queue) >= self._max_queue:
            self.close(SLOW_CLIENT_CLOSE, "too slow")  # it does not read what it is sent
            return
        self._queued_count += 1
        if self._sent_at_once(item):
            return
        self._queue.append(item)
        self._wakeup.wake()

    def _sent_at_once(self, item: list[str]) -> bool:
        """Write ``item`` now rather than through the send loop, when that keeps the
        order: nothing queued before it and no send under way. A reply told once (a flood
        refused) always queues, so that the ones after it still find it waiting."""
        if (
            self._send_now is None
            or self._queue
            or self.sending_since is not None
            or self.closed
            or item[2]
        ):
            return False
        try:
            written = self._send_now(item[1])
        except Exception:  # the send loop meets the same failure, and ends the connection
            written = False
        if not written:
            return False
        self._sent_count += 1
        self._after_sending()
        return True

    def _after_sending(self) -> None:
        while self._after_sent and self._after_sent[0][0] <= self._sent_count:
            self._after_sent.pop(0)[1]()

    def after_queued_sent(self, callback: Callable[[], None]) -> None:
        """Call ``callback`` once everything queued so far has been written to the socket
        (at once if nothing waits; never if the connection closes first)."""
        if self._sent_count >= self._queued_count:
            callback()
        elif not self.closed:
            self._after_sent.append((self._queued_count, callback))

    def close(self, code: int, reason: str) -> None:
        """Send what is queued, then a close frame with ``code``; accept nothing more."""
        if self._close is None:
            self._close = (code, reason)
        self.closed = True
        self._wakeup.wake()

    async def _run_sender(self) -> None:
        """Send what is queued until the connection closes, then its close frame: every
        write to the socket but those made at once (``_sent_at_once``)."""
        try:
            while True:
                while self._queue:
                    await self._send(self._queue.pop(0)[1])
                    self._sent_count += 1
                    self._after_sending()
                if self.closed:
                    break
                await self._wakeup.wait()
            if self._close is not None:
                await self.websocket.close(code=self._close[0], reason=self._close[1])
        except Exception:  # the peer went away mid-send; the receive loop will notice
            self.closed = True

    async def _send(self, text: str) -> None:
        # A send returns at once unless the client stopped reading and its buffers are
        # full; a timer per message would cost more than the send itself, so the hub's
        # watchdog checks ``sending_since`` instead.
        self.sending_since = asyncio.get_running_loop().time()
        await self.websocket.send_text(text)
        self.sending_since = None

    async def finish(self) -> None:
        """Stop accepting messages, let the send loop deliver what is queued (and the close
        frame), and wait for it — briefly: a client that does not read is not waited for."""
        self.closed = True
        self._wakeup.wake()
        if self._sender is None:
            return
        try:
            async with asyncio.timeout(FINISH_TIMEOUT):
                await asyncio.shield(self._sender)
        except (TimeoutError, asyncio.CancelledError):
            self._sender.cancel()
        except Exception:  # the send loop's own failure: the peer is gone
            return

    def drop_if_stuck(self, now: float) -> bool:
        """Drop a connection whose send has waited over SEND_TIMEOUT for the client to read."""
        if self.sending_since is None or now - self.sending_since < SEND_TIMEOUT:
            return False
        # Its sends would wait for ever, and so would a close frame: stop serving it (the
        # task serving it ends, and the server closes the socket).
        self.closed = self.dropped = True
        for task in (self._sender, self._handler):
            if task is not None:
                task.cancel()
        return True


class Hub:
    """Which connections watch which room; local fan-out of changes and of chat; presence
    for the rooms."""

    def __init__(self) -> None:
        self._rooms: dict[str, set[Connection]] = {}
        self.stopping = False  # the process is going away (``stop_serving``)
        # Open sockets per person and per address, for the caps on both (app/routes/ws.py).
        self._per_person: Counter[str] = Counter()
        self._per_address: Counter[str] = Counter()

    def open_sockets(self, user_id: str | None, address: str) -> tuple[int, int]:
        """How many sockets the person (0 for nobody) and the address hold here."""
        return (self._per_person[user_id] if user_id else 0), self._per_address[address]

    async def watch_for_stuck_clients(self, period: float = 1.0) -> None:
        """Every ``period`` seconds, drop connections stuck sending (runs for ever)."""
        loop = asyncio.get_running_loop()
        while True:
            await asyncio.sleep(period)
            now = loop.time()
            for connections in list(self._rooms.values()):
                for connection in list(connections):
                    connection.drop_if_stuck(now)

    def connections(self, user_id: str | None = None) -> list[Connection]:
        """Every connection here, or those of one person."""
        return [
            connection
            for connections in self._rooms.values()
            for connection in connections
            if user_id is None or connection.user_id == user_id
        ]

    # --- stopping (app/departure.py) ----------------------------------------------------

    def stop_serving(self) -> None:
        """Take nothing new: connections refuse what would change a room or the chat (the
        answer says to send it again), and a socket opened from now on is told to reconnect
        at once."""
        self.stopping = True
        for connection in self.connections():
            connection.restarting = True

    async def settled(self) -> None:
        """Return once every message already being done has its answer queued."""
        while any(connection.busy for connection in self.connections()):
            await asyncio.sleep(0.01)

    def close_all(self, code: int, reason: str) -> None:
        """Close every connection with ``code``, after what is queued for it."""
        for connection in self.connections():
            connection.close(code, reason)

    async def emptied(self) -> None:
        """Return once every connection has ended (each waits for its client's reply to the
        close frame, or for FINISH_TIMEOUT)."""
        while self._rooms:
            await asyncio.sleep(0.01)

    # --- connections -------------------------------------------------------------------

    def add(self, connection: Connection) -> None:
        connections = self._rooms.setdefault(connection.room.id, set())
        if connection in connections:
            return
        if self.stopping:
            connection.restarting = True
            connection.close(SERVICE_RESTART, "server restarting")
        connections.add(connection)
        CONNECTIONS.inc()
        if connection.user_id:
            self._per_person[connection.user_id] += 1
        self._per_address[connection.address] += 1

    def remove(self, connection: Connection) -> None:
        connections = self._rooms.get(connection.room.id)
        if connections is None or connection not in connections:
            return
        connections.discard(connection)
        CONNECTIONS.dec()
        if not connections:
            del self._rooms[connection.room.id]
        if connection.user_id:
            self._per_person[connection.user_id] -= 1
            if not self._per_person[connection.user_id]:
                del self._per_person[connection.user_id]
        self._per_address[connection.address] -= 1
        if not self._per_address[connection.address]:
            del self._per_address[connection.address]

    # --- the rooms' notifier -------------------------------------------------------------

    def room_changed(self, room: LiveRoom) -> None:
        # One server time for every connection told of this change: making it is a good
        # part of what each connection's update costs.
        now: str | None = None
        for connection in self._rooms.get(room.id, ()):
            if now is None:
                now = connection.now()
            connection.notify(now)

    # --- the chat's readers ---------------------------------------------------------------

    def spoken(self, room: LiveRoom, spoken: Spoken) -> None:
        for connection in self._rooms.get(room.id, ()):
            connection.tell(spoken)

    def chat_reloaded(self, room: LiveRoom) -> None:
        for connection in self._rooms.get(room.id, ()):
            connection.send_chat_log(again=True)

    # --- the rooms' presence -------------------------------------------------------------

    def connected_users(self, room_id: str) -> set[str]:
        return {c.user_id for c in self._rooms.get(room_id, ()) if c.user_id is not None}

    def watcher_count(self, room_id: str) -> int:
        return len(self._rooms.get(room_id, ()))

    def local_watcher_count(self, room_id: str) -> int:
        return len(self._rooms.get(room_id, ()))
