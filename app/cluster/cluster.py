"""Several processes sharing the rooms: ownership, notices and forwarding over Redis.

Every room is refereed by the process holding its lease (app/cluster/leases.py); any
process accepts any request for any room:

- a process that loads a room claims it if nobody holds it, else keeps a copy that follows
  the owner;
- after every committed change the owner publishes a notice on the room's channel — the
  room's description (with the owner's absence stamps), its turn clocks and the action
  just committed — and each process holding a copy hands it to its follower
  (app/rooms/follower.py), which applies it through the referee and lets this process's
  connections render their own views; a copy that missed a notice restores itself from
  the log. Timers (turn clocks, absence, stale tables) run on
  the owner only, so every copy shows the owner's times. A room the owner stored itself
  has its notices published only while another process follows it: a copy says so when
  it is loaded (``follow``) and when it is let go (``unfollow``);
- a room page names the process that referees the room (``referee_name``, the
  ``PROCESS_NAME`` its heartbeat holds), so that the proxy sends the room's sockets there;
- a verb on a room owned elsewhere travels to the owner on its process channel and its
  answer (the result or the refusal) comes back on the asker's;
- a chat line or reaction said through any process is published on the room's talk
  channel, which every process holding the room listens to; each delivers it to its own
  connections that may read it (app/cluster/talk.py);
- every third of a lease each process renews its leases from a thread of their own
  (app/cluster/leases.py) and takes over the rooms whose owner is gone
  (app/cluster/upkeep.py), so a dead owner's tables play on within its lease time plus a
  second;
- what the live channel tells a person (app/social/live.py) goes out on the people
  channel, and each process delivers it to the person's pages connected through it
  (app/cluster/people.py);
- a user whose sessions ended or who changed (a logout, a sign-up, a new name) is named on
  the sessions channel, and every process forgets its cached identities
  (app/people/sessions.py); after an outage of Redis every process forgets them all.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Callable
from typing import Any

import orjson
from redis import Redis as BlockingRedis
from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.chat.outlet import Spoken
from app.cluster.bus import RedisBus
from app.cluster.calls import Calls
from app.cluster.channels import Channels
from app.cluster.leases import Leases
from app.cluster.people import PeopleRelay
from app.cluster.presence import ClusterPresence, Here
from app.cluster.talk import Listener, Talk
from app.cluster.upkeep import Upkeep
from app.connections.hub import Hub
from app.observability.metrics import REDIS_ERRORS
from app.refusal import MoveRefusal, Refusal, not_owner, unavailable
from app.rooms import LiveRoom, Rooms
from app.rooms.follower import Follower, room_description
from app.rooms.ownership import set_owned, stop_refereeing

log = logging.getLogger("parlour.cluster")
CALL_TIMEOUT = 2.0  # seconds an owner has to answer a forwarded verb


class Cluster:
    """The rooms' ownership (app/rooms/ownership.py) and a notifier, over Redis."""

    def __init__(
        self,
        redis: Redis,
        keeper: BlockingRedis,
        hub: Hub,
        *,
        lease_seconds: float,
        prefix: str,
        name: str = "",
    ) -> None:
        self.redis = redis
        self.hub = hub
        self.process_id = secrets.token_hex(6)
        self.name = name  # what the reverse proxy knows this process by ("": nothing)
        self.prefix = prefix
        self.channels = Channels(prefix)
        self.leases = Leases(
            redis,
            keeper,
            self.process_id,
            lease_seconds,
            prefix,
            alive_key=self.channels.alive_key(self.process_id),
            name=name,
        )
        self.bus = RedisBus(redis, self._on_message, self._caught_up)
        self.presence = ClusterPresence(hub, self.process_id, redis, self.bus, self.channels)
        self.calls = Calls(self.bus, self.channels, self.process_id, CALL_TIMEOUT)
        self.talk = Talk(self.bus, self.channels, self.process_id)
        self.people = PeopleRelay(redis, self.bus, self.channels, self.process_id)
        self._rooms: Rooms | None = None
        self._chat: Listener | None = None
        self._follower: Follower | None = None
        self._upkeep: Upkeep | None = None
        self._owners: dict[str, str] = {}  # last owner heard of, per room copy
        self._dirty: set[str] = set()
        self._noticed: dict[str, tuple[int, int]] = {}  # (version, meta_version) last noticed
        self._acks: dict[str, list[str]] = {}  # forwarded acts done, to acknowledge
        self._meta: dict[str, dict[str, Any]] = {}  # per room owned: its last description
        # Per room owned since this process stored it: the processes holding a copy, as
        # they said (``follow``). Its notices are published only while somebody follows.
        # A room not here (claimed from the log, taken over, Redis lost meanwhile): who
        # follows is not known, and every notice is published.
        self._followers: dict[str, set[str]] = {}
        # Per room being read (``watch``): its owner's notices since, for ``hold`` to apply;
        # None once Redis was lost meanwhile (some may be missing: read the log instead).
        self._watched: dict[str, list[dict[str, Any]] | None] = {}
        # Claims under way (``claiming``), which a stopping process waits for.
        self._claims = 0
        self._claims_landed = asyncio.Event()
        self._claims_landed.set()
        self._tasks: list[asyncio.Task[None]] = []
        # Set once this process is stopping: it claims no room from then on, and the rooms
        # it handed over still have their last notices published.
        self.leaving = False
        self._handed: set[str] = set()
        # What this process does when another one says a user's sessions changed.
        self.on_forget_user: Callable[[str], None] = lambda _user_id: None
        self.on_forget_all: Callable[[], None] = lambda: None

    # --- wiring ---------------------------------------------------------------------------

    @property
    def rooms(self) -> Rooms:
        assert self._rooms is not None, "attach the rooms first"
        return self._rooms

    @property
    def chat(self) -> Listener:
        assert self._chat is not None, "attach the chat first"
        return self._chat

    @property
    def follower(self) -> Follower:
        assert self._follower is not None, "attach the rooms first"
        return self._follower

    def attach(self, rooms: Rooms, chat: Listener) -> None:
        self._rooms = rooms
        self._chat = chat
        self._follower = Follower(rooms.registry, self.hub)
        self._upkeep = Upkeep(self, self.leases, self.presence, rooms, self.process_id)

    @property
    def upkeep(self) -> Upkeep:
        assert self._upkeep is not None, "attach the rooms first"
        return self._upkeep

    async def start(self) -> None:
        """Returns once this process's inbox listens (or after a lease's time without
        Redis): until then a forwarded verb, or the answer to one, would be lost."""
        own = {self.channels.inbox(self.process_id), self.channels.sessions, self.channels.people}
        self.bus.start({*own, self.channels.handovers})
        self.leases.start()
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self.upkeep.run())]
        try:
            async with asyncio.timeout(self.leases.seconds):
                await self.bus.connected.wait()
        except TimeoutError:
            log.warning("Redis is out of reach; serving, and listening once it answers")

    async def hand_over(self, rooms: list[LiveRoom]) -> None:
        """This process is stopping: stop refereeing ``rooms`` and hand them to the others
        at once, rather than after their leases would lapse.

        Claiming stops (``stop_claiming``, which the caller ran before listing ``rooms``:
        nothing is claimed from now on, and the claims under way have landed, so ``rooms``
        is every room owned here); each room's change under way is committed and its
        notice published; the leases are released; then the handover
        names the rooms on the cluster's channel, and each other process claims those it
        holds a copy of and loads the rest (app/cluster/upkeep.py) — the path a dead
        owner's rooms take, without waiting for a lease to lapse. A forwarded verb that
        reaches this process meanwhile is refused ``not_owner``, and its asker finds the
        new owner.
        """
        await self.stop_claiming()
        self._flush()  # the notices of changes made so far leave first
        self._handed = {room.id for room in rooms}
        for room_id in self._handed:
            self._followers.pop(room_id, None)  # their last notices are all published
        await stop_refereeing(rooms)
        self._flush()  # and those of changes that were under way
        # From now on this process's copies are stale: it says nothing more of them.
        self._handed = set()
        ids = [room.id for room in rooms]
        with contextlib.suppress(RedisError, OSError):
            await self.leases.release_all(ids)
        open_ids = [room.id for room in rooms if not room.ended]
        if open_ids:
            handover = {"kind": "handover", "from": self.process_id, "rooms": open_ids}
            self.bus.publish(self.channels.handovers, orjson.dumps(handover))
        log.info("handed over %d rooms", len(ids))
        try:
            async with asyncio.timeout(self.leases.seconds):
                await self.bus.flushed()
        except TimeoutError:
            # Redis is out of reach: the leases lapse, and the others take the rooms then.
            log.warning("could not tell the other processes of the handover")

    @contextlib.asynccontextmanager
    async def claiming(self) -> AsyncIterator[None]:
        self._claims += 1
        self._claims_landed.clear()
        try:
            yield
        finally:
            self._claims -= 1
            if not self._claims:
                self._claims_landed.set()

    async def stop_claiming(self) -> None:
        """From now on ``claim`` says no; a claim already past that check (its lease taken,
        its room being read or replayed) lands first, so that the rooms listed as owned
        after this are all the rooms owned. Then the upkeep stops — not while one of its
        claims is half done, which would leave a lease held by a room not owned."""
        self.leaving = True
        await self._claims_landed.wait()
        await self._stop_upkeep()

    async def _stop_upkeep(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = []

    async def close(self) -> None:
        await self._stop_upkeep()
        await self.people.close()
        await asyncio.to_thread(self.leases.stop)
        with contextlib.suppress(RedisError, OSError):
            for room_id in self.leases.held():
                await self.leases.release(room_id)
            await self.redis.delete(self.channels.alive_key(self.process_id))
        await self.bus.close()
        await self.redis.aclose()
        self.leases.close()

    # --- ownership --------------------------------------------------------------------------

    def owns(self, room: LiveRoom) -> bool:
        return room.owned and self.leases.holds(room.id)

    async def referee_name(self, room: LiveRoom) -> str | None:
        """The name of the process that referees ``room`` (``PROCESS_NAME``), as its
        heartbeat says: None when it has none, or Redis does not answer. A hint for the
        proxy, never a decision — a socket anywhere still plays."""
        if self.owns(room):
            return self.name or None
        try:
            owner = await self._owner_of(room.id)
            if owner is None:
                return None
            name = await self.redis.get(self.channels.alive_key(owner))
        except Refusal:
            return None  # Redis is out of reach (logged)
        except (RedisError, OSError) as error:
            REDIS_ERRORS.labels(operation="find_owner").inc()
            log.warning("room %s: its referee's name is out of reach (%s)", room.id, error)
            return None
        text = name.decode() if isinstance(name, bytes) else name
        return text or None

    async def claim(self, room: LiveRoom) -> bool:
        if self.leaving:
            return False  # a stopping process follows the rooms it loads
        try:
            claimed = await self.leases.claim(room.id)
        except (RedisError, OSError) as error:
            REDIS_ERRORS.labels(operation="claim").inc()
            log.warning("cannot claim room %s: Redis is out of reach (%s)", room.id, error)
            raise unavailable() from None
        if claimed:
            self._owners[room.id] = self.process_id
            # An owner does not listen to its own notices.
            await self.bus.unsubscribe(self.channels.room(room.id))
        return claimed

    async def watch(self, room_id: str) -> None:
        self._watched.setdefault(room_id, [])
        # Redis runs a connection's commands in order: the subscription is in place before
        # anything the owner publishes after the read that follows.
        await self.bus.subscribe(self.channels.room(room_id))

    async def unwatch(self, room_id: str) -> None:
        if room_id not in self._watched:
            return
        del self._watched[room_id]
        room = self.rooms.registry.held(room_id)
        if room is None or room.owned:
            await self.bus.unsubscribe(self.channels.room(room_id))

    async def hold(self, room: LiveRoom, *, new: bool = False) -> bool:
        """A room just loaded here: claim it if it is free, else follow its owner. True
        when claimed: the room was read before the claim, and a stopping owner may have
        committed its last moves between that read and the release of its lease.

        A copy applies the notices its owner published since ``watch`` (before the read)
        that are not older than what was read, and tells the owner it follows.

        ``new``: this process has just stored the room. If this claim wins, any other
        process holding a copy found this one the owner, so it says it follows: until one
        does, nobody listens to the room's notices and none is published."""
        await self.bus.subscribe(self.channels.presence(room.id), self.channels.talk(room.id))
        if new:
            # Before the claim: a process that finds this one the owner may say it follows
            # before the claim's answer is read here.
            self._followers[room.id] = set()
        try:
            set_owned(room, await self.claim(room))
            if not room.owned:
                self._followers.pop(room.id, None)
                await self.bus.subscribe(self.channels.room(room.id))
                await self.presence.learn(room.id)
                await self._follow(room.id)
        except BaseException:
            self._followers.pop(room.id, None)
            await self.unwatch(room.id)
            raise
        # Nothing is awaited from here until the registry holds the room: a notice that
        # arrives later finds it there.
        kept = self._watched.pop(room.id, [])
        if room.owned:
            return True  # its claim reads it again
        if kept is None:
            self.resync(room, room.version)  # Redis was lost meanwhile
        for notice in kept or ():
            if notice["owner"] == self.process_id or notice["version"] < room.version:
                continue  # the read has it already
            self._follow_notice(room, notice)
        return False

    async def _owner_of(self, room_id: str) -> str | None:
        """The room's owner as last heard of, else as its lease says."""
        try:
            return self._owners.get(room_id) or await self.leases.owner(room_id)
        except (RedisError, OSError) as error:
            REDIS_ERRORS.labels(operation="find_owner").inc()
            log.warning("room %s: its owner is out of reach (%s)", room_id, error)
            raise unavailable() from None

    async def _follow(self, room_id: str) -> None:
        """Tell the room's owner that this process holds a copy, and wait for its answer:
        its notice of where the room stands comes first (``_answer_follow``), so the
        copy is kept by ``hold`` and applied there. An owner that does not answer, or
        has handed the room over, is not waited for: whoever referees the room next does
        not know who follows it, and so publishes every notice."""
        owner = await self._owner_of(room_id)
        if owner is None or owner == self.process_id:
            return
        self._owners[room_id] = owner
        with contextlib.suppress(TimeoutError, Refusal):
            await self.calls.call(owner, room_id, "follow", {})

    def _unfollow(self, room: LiveRoom) -> None:
        """Tell the room's owner, as last heard of, that this process no longer holds a
        copy. At once, without asking Redis: a new load of the room may begin meanwhile.
        An owner not known here is not told, and so goes on publishing."""
        owner = self._owners.get(room.id)
        if owner is not None and owner != self.process_id:
            word = {"kind": "unfollow", "room": room.id, "from": self.process_id}
            self.bus.publish(self.channels.inbox(owner), orjson.dumps(word))

    def release(self, room: LiveRoom) -> None:
        asyncio.get_running_loop().create_task(self._release(room))

    async def _release(self, room: LiveRoom) -> None:
        if not room.owned:
            self._unfollow(room)
        self._followers.pop(room.id, None)
        self._owners.pop(room.id, None)
        self._meta.pop(room.id, None)
        self._noticed.pop(room.id, None)
        self.presence.forget_room(room.id)
        channels = self.channels
        await self.bus.unsubscribe(
            channels.room(room.id), channels.presence(room.id), channels.talk(room.id)
        )
        if self.leases.holds(room.id):
            with contextlib.suppress(RedisError, OSError):
                await self.leases.release(room.id)

    async def forward(self, room: LiveRoom, verb: str, args: dict[str, Any]) -> Any:
        """Run a verb on the room's owner; if the owner is gone, take the room over.

        An owner that does not answer is not asked again while it still holds the lease:
        its lease lapses within ``lease_seconds`` if it is dead, and then this process
        claims the room and runs the verb itself.
        """
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 2 * self.leases.seconds + self.calls.timeout
        owner = self._owners.get(room.id)
        silent: str | None = None  # an owner that did not answer
        while True:
            if owner is None:
                try:
                    owner = await self.leases.owner(room.id)
                except (RedisError, OSError) as error:
                    REDIS_ERRORS.labels(operation="find_owner").inc()
                    log.warning("%s on room %s: Redis is out of reach (%s)", verb, room.id, error)
                    raise unavailable() from None
            if owner is None or owner == self.process_id:
                async with self.claiming():
                    claimed = await self.claim(room)
                    if claimed:
                        await self.rooms.became_owner(room)
                if claimed:
                    return await self.rooms.run_here(room, verb, args)
                if self.leaving:
                    await asyncio.sleep(0.05)  # another process is taking the room over
            elif owner == silent:
                await asyncio.sleep(0.05)
            else:
                self._owners[room.id] = owner
                try:
                    return await self.calls.call(owner, room.id, verb, args)
                except TimeoutError:
                    silent = owner
                except Refusal as error:
                    if error.code != "not_owner":
                        raise
            if loop.time() > deadline:
                log.warning(
                    "%s on room %s: its owner %s did not answer in time", verb, room.id, owner
                )
                raise unavailable()
            owner = None

    async def _answer(self, request: dict[str, Any]) -> None:
        # The asker holds a copy, whether or not it said it follows (a process of the
        # earlier release, while a deploy runs both): the verb's notice must reach it.
        self._followed_by(request["room"], request["from"])
        reply: dict[str, Any] = {"kind": "reply", "id": request["id"]}
        try:
            async with self.rooms.using(request["room"]) as room:
                if not self.owns(room):
                    raise not_owner()
                result = await self.rooms.run_here(room, request["verb"], request["args"])
        except MoveRefusal as error:
            # A game's reason for refusing a move goes as data: the asker words it for its
            # reader (app/i18n/accounts.py).
            reply.update(ok=False, code=error.code, message=error.message, says=error.says)
        except Refusal as error:
            # Its message id and params go along: the asker translates it for its reader.
            reply.update(
                ok=False,
                code=error.code,
                message=error.message_id,
                params=error.params,
                status=error.status,
            )
        except Exception:
            log.exception("forwarded %s on room %s failed", request["verb"], request["room"])
            down = unavailable()
            reply.update(ok=False, code=down.code, message=down.message_id, status=down.status)
        else:
            if request["verb"] == "act":
                # The notice of the act says it was done: no answer of its own (the
                # commonest message between processes costs one message, not two).
                self._acks.setdefault(room.id, []).append(request["id"])
                self.room_changed(room)
                return
            reply.update(ok=True, result=result)
        # The notices of what the verb changed leave first, so the asker's copy is up to
        # date by the time it hears the answer.
        self._flush()
        self.bus.publish(self.channels.inbox(request["from"]), orjson.dumps(reply))

    # --- sessions ----------------------------------------------------------------------------

    def forget_user(self, user_id: str) -> None:
        """Tell every other process to forget the user's cached identities."""
        message = {"kind": "forget_user", "user": user_id, "from": self.process_id}
        self.bus.publish(self.channels.sessions, orjson.dumps(message))

    # --- the notifier: after every committed change of a room --------------------------------

    def room_changed(self, room: LiveRoom) -> None:
        if not self._dirty:
            asyncio.get_running_loop().call_soon(self._flush)
        self._dirty.add(room.id)

    def _flush(self) -> None:
        """One notice per changed room per turn of the event loop (changes coalesce).

        A notice carries the version and the action that led to it, the room's
        description (built again only when it changed) and the ids of the forwarded acts
        it acknowledges.
        """
        dirty, self._dirty = self._dirty, set()
        registry = self.rooms.registry
        for room_id in dirty:
            room = registry.held(room_id)
            if room is None:
                continue
            stamp = (room.version, room.meta_version)
            noticed = self._noticed.get(room_id)
            acks = self._acks.pop(room_id, None)
            followers = self._followers.get(room_id)
            # A process connected to the room follows it, whether or not it said so (one
            # that does not say so: an earlier release's, while a deploy runs both).
            heard = bool(followers is None or followers or acks or self.presence.elsewhere(room_id))
            if room.owned and not heard:
                # Nobody follows this room: nothing to publish. The description is built
                # again for the first notice after someone says they follow.
                self._noticed[room_id] = stamp
                self._meta.pop(room_id, None)
            # A room just handed over still has the notice of its last change published.
            elif (room.owned or room_id in self._handed) and (noticed != stamp or acks):
                notice: dict[str, Any] = {
                    "kind": "notice",
                    "owner": self.process_id,
                    "version": room.version,
                }
                if noticed is None or noticed[1] != room.meta_version or room_id not in self._meta:
                    self._meta[room_id] = room_description(room)
                notice["meta"] = self._meta[room_id]
                if room.last_action is not None:
                    notice["event"] = list(room.last_action)
                if room.turn_clocks is not None:
                    notice["clocks"] = room.turn_clocks.to_json()
                if acks:
                    notice["acks"] = acks
                self._noticed[room_id] = stamp
                self.bus.publish(self.channels.room(room_id), orjson.dumps(notice))
            if noticed is None or noticed[1] != room.meta_version or not room.owned:
                self.presence.share(room_id)

    # --- the chat's other processes ------------------------------------------------------------

    def spoken(self, room: LiveRoom, spoken: Spoken) -> None:
        """A line or reaction said through this process: the others deliver it too."""
        self.talk.spoken(room, spoken)

    # --- what arrives ------------------------------------------------------------------------

    def _on_message(self, channel: str, data: bytes) -> None:
        message = orjson.loads(data)
        kind = message.get("kind")
        if kind == "notice":
            self._on_notice(channel.rsplit(":", 1)[1], message)
        elif kind == "presence":
            room_id = channel.rsplit(":", 1)[1]
            here = Here.of(message["here"])
            if self.presence.set_remote(room_id, message["proc"], here):
                self.described(room_id)
        elif kind == "forget_user":
            if message["from"] != self.process_id:
                self.on_forget_user(message["user"])
        elif kind in ("person", "hides"):
            self.people.heard(message)
        elif kind == "talk":
            room = self.rooms.registry.held(channel.rsplit(":", 1)[1])
            self.talk.heard(room, message, self.chat)
        elif kind == "handover":
            if message["from"] != self.process_id and not self.leaving:
                self.calls.owner_left(message["from"])
                asyncio.get_running_loop().create_task(self.upkeep.take_over(message["rooms"]))
        elif kind == "unfollow":
            followers = self._followers.get(message["room"])
            if followers is not None:
                followers.discard(message["from"])
        elif kind == "catch_up":
            caught = self.rooms.registry.held(message["room"])
            if caught is not None and caught.owned:
                asyncio.get_running_loop().create_task(self.rooms.catch_up(caught))
        elif kind == "call" and message["verb"] == "follow":
            self._answer_follow(message)
        elif kind == "call":
            asyncio.get_running_loop().create_task(self._answer(message))
        elif kind == "reply":
            self.calls.answered(message)

    def _followed_by(self, room_id: str, process_id: str) -> None:
        """``process_id`` holds a copy of the room (it said so, or asked a verb of it)."""
        followers = self._followers.get(room_id)
        if followers is not None:
            followers.add(process_id)

    def _answer_follow(self, request: dict[str, Any]) -> None:
        """Another process holds a copy of a room from now on. It read the room from the
        log before this process heard of it, and a move committed in between may have
        been published to nobody: if so, a notice of where the room stands goes first,
        then the answer, so the copy has the notice by the time it hears the answer."""
        room_id = request["room"]
        self._followed_by(room_id, request["from"])
        room = self.rooms.registry.held(room_id)
        # A change went to nobody: it was noticed without a description kept (``_flush``).
        silent = room_id in self._noticed and room_id not in self._meta
        if silent and room is not None and room.owned:
            self._noticed.pop(room_id, None)  # the whole description again
            self.room_changed(room)
            self._flush()
        reply = {"kind": "reply", "id": request["id"], "ok": True, "result": None}
        self.bus.publish(self.channels.inbox(request["from"]), orjson.dumps(reply))

    def described(self, room_id: str) -> None:
        """Who is connected changed through another process: the owner stamps who went
        away (and says so in a notice); every process resends the room description."""
        room = self.rooms.registry.held(room_id)
        if room is not None:
            self.rooms.presence_changed(room)

    def _on_notice(self, room_id: str, notice: dict[str, Any]) -> None:
        self.calls.acknowledged(notice.get("acks", []))
        room = self.rooms.registry.held(room_id)
        if room is None:
            kept = self._watched.get(room_id)
            if kept is not None:
                kept.append(notice)  # the room is being read: ``hold`` applies it
            return
        if notice["owner"] == self.process_id:
            return
        if room.owned:
            self._owners[room_id] = notice["owner"]
            # Another process says it referees this room. Redis's lease decides which of
            # the two does; until then this process's copy is the one it referees.
            asyncio.get_running_loop().create_task(self.upkeep.check_owner(room))
            return
        self._follow_notice(room, notice)

    def _follow_notice(self, room: LiveRoom, notice: dict[str, Any]) -> None:
        """A copy takes what its owner's notice says: the owner, the description, the move."""
        self._owners[room.id] = notice["owner"]
        self.follower.noticed(
            room,
            description=notice["meta"],
            version=notice["version"],
            event=notice.get("event"),
            clocks=notice.get("clocks"),
        )

    def resync(self, room: LiveRoom, version: int) -> None:
        """A copy that may have missed notices: restored from the log."""
        self.follower.restore(room, version)

    async def follow_owner(self, room: LiveRoom) -> None:
        """Listen to the new owner's notices, and catch up with what was missed meanwhile.

        The new owner is told to read the room again from the log (``catch_up``): a Redis
        restart empties the leases, and until its next renewal fails this process still
        counted the lease as its own while another process claimed the room — a move it
        committed meanwhile is one the new owner has not seen (an owner does not listen to
        the room's notices), and the seats connected there would wait for it."""
        await stop_refereeing([room])  # a change under way is committed first
        self._followers.pop(room.id, None)
        with contextlib.suppress(RedisError, OSError):
            owner = await self.leases.owner(room.id)
            if owner is not None and owner != self.process_id:
                word = {"kind": "catch_up", "room": room.id, "from": self.process_id}
                self.bus.publish(self.channels.inbox(owner), orjson.dumps(word))
            await self.bus.subscribe(self.channels.room(room.id))
        self.resync(room, room.version)

    async def is_alive(self, process_id: str) -> bool:
        return bool(await self.redis.exists(self.channels.alive_key(process_id)))

    async def _caught_up(self) -> None:
        """Redis is back after an outage: notices may have been missed while it was away.
        Copies catch up from the log; owners say again where their rooms stand; cached
        identities are forgotten, since word of ended sessions may have been missed; every
        room's recent chat is read again and sent anew to its connections."""
        self.on_forget_all()
        self.people.caught_up()
        self._noticed.clear()
        # A process may have said it follows while Redis was away: publish everything.
        self._followers.clear()
        for room_id in self._watched:
            self._watched[room_id] = None
        for room in self.rooms.registry.rooms():
            if room.owned:
                self.room_changed(room)
            else:
                self.resync(room, room.version)
            self.presence.share(room.id, again=True)
            await self.presence.learn(room.id)
            self.talk.catch_up(room, self.chat)
