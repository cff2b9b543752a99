"""Invitations to a seat: the host names a person (a friend or any account); the invitee
hears of it at once on every open page (the live channel), or through the notification
channels when no page of theirs is open (an ``Invited`` signal, app/notifications/);
accepting takes a seat, declining tells the host.

An invitation lives as long as its table waits for players with a seat free: it is marked
expired in the transaction that starts the match or closes the table (app/store/), no
longer listed nor accepted (410 ``invitation_expired``, after which the row goes), and the
rows of tables over are cleared as the invitee's list is read.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from sqlalchemy.orm import Session

from app.i18n.languages import DEFAULT
from app.i18n.marks import N_
from app.limits.quotas import Limiter
from app.models import Invitation
from app.people.sessions import Identity
from app.refusal import Refusal
from app.rooms import LiveRoom, Rooms
from app.rooms.lobby import check_host
from app.rooms.signals import Invited
from app.social.accounts import account_named, not_yourself, player_not_found
from app.social.blocks import Blocks
from app.social.live import LiveChannel
from app.store import social as social_store
from app.store.database_thread import DatabaseThread
from app.store.outage import log_failure
from app.store.social import OpenInvitation

log = logging.getLogger("parlour.social")


def wire(invitation: OpenInvitation) -> dict[str, Any]:
    return {
        "id": invitation.id,
        "room_id": invitation.room_id,
        "game": invitation.game,
        "from": invitation.from_name,
    }


def not_found() -> Refusal:
    return Refusal("invitation_not_found", N_("There is no such invitation for you."), 404)


def open_to_invitations(room: LiveRoom) -> bool:
    """Whether a table may be joined on an invitation: waiting, with a seat free."""
    return room.status == "waiting" and any(h is None for h in room.seats)


def table_open(room: LiveRoom) -> None:
    """Refuse an invitation to a table not ``open_to_invitations``, saying why."""
    if room.status != "waiting":
        raise Refusal("not_waiting", N_("This table is no longer waiting for players."))
    if all(holder is not None for holder in room.seats):
        raise Refusal("room_full", N_("Every seat is taken."))


class Invitations:
    def __init__(
        self, database: DatabaseThread, rooms: Rooms, live: LiveChannel, blocks: Blocks
    ) -> None:
        self.database = database
        self.rooms = rooms
        self.live = live
        self.blocks = blocks
        # Whether each table in memory waited with a seat free at its last change.
        self._open: dict[str, bool] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    async def invite(
        self, me: Identity, room: LiveRoom, username: str, limits: Limiter
    ) -> dict[str, Any]:
        """The host invites an account to a seat at ``room``. An invitation renewed within
        the notice window (``limits``) does not reach the invitee's notification channels
        again (their open pages are still told)."""
        check_host(room, me.id)
        table_open(room)
        seated = {h.person for h in room.seats if h is not None and h.person is not None}
        host_name = me.username or me.name

        def work(session: Session) -> tuple[str, OpenInvitation]:
            user = account_named(session, username)
            not_yourself(user, me.id, N_("You cannot invite yourself."))
            # The host's own block first: it tells them only what they did, and whatever
            # else holds (the invitee blocked them too) stays hidden behind it.
            if social_store.blockers_among(session=session, blocked_id=user.id, user_ids={me.id}):
                raise Refusal(
                    "player_blocked",
                    N_("You blocked {username}: unblock them first."),
                    409,
                    username=user.username,
                )
            # The invitee, or someone seated, blocked them: they could not take the seat,
            # and the host is answered as for a name nobody has, so that the block cannot
            # be probed.
            if social_store.blockers_among(
                session=session, blocked_id=me.id, user_ids={user.id}
            ) or social_store.blockers_among(session=session, blocked_id=user.id, user_ids=seated):
                raise player_not_found(username)
            if user.id in seated:
                raise Refusal(
                    "already_seated",
                    N_("{username} already sits at this table."),
                    username=user.username,
                )
            stored = social_store.add_invitation(
                session=session,
                invitation=Invitation(
                    id=secrets.token_hex(8), room_id=room.id, from_id=me.id, to_id=user.id
                ),
            )
            made = OpenInvitation(stored.id, room.id, room.rules.name, me.id, host_name, user.id)
            return str(user.username), made

        invitee, invitation = await self.database.run(work)
        online = await self.live.online({invitation.to_id})
        self.live.tell(invitation.to_id, {"type": "invitation", "invitation": wire(invitation)})
        # Renewed within the notice window, it was sent to their e-mail, push or webhook
        # already: the same words again would only be noise.
        if not online and await limits.first_notice(invitation.to_id, room.id):
            self.rooms.signals.emit(
                Invited(invitation.to_id, room.id, room.rules.name, host_name, invitation.id)
            )
        return {**wire(invitation), "username": invitee}

    async def listed(self, me: Identity) -> dict[str, Any]:
        found = await self.database.call(social_store.invitations_to, user_id=me.id)
        return {"invitations": [wire(invitation) for invitation in found]}

    async def _mine(self, me: Identity, invitation_id: str) -> OpenInvitation:
        """The caller's open invitation; 404 if it is not theirs, 410 if its table moved on
        (it is then deleted)."""
        found = await self.database.call(social_store.open_invitation, invitation_id=invitation_id)
        if found is not None and found.to_id == me.id:
            return found
        row = await self.database.call(social_store.invitation, invitation_id=invitation_id)
        if row is None or row.to_id != me.id:
            raise not_found()
        await self.database.call(social_store.drop_invitation, invitation_id=invitation_id)
        raise Refusal("invitation_expired", N_("That table is no longer waiting for players."), 410)

    async def accept(
        self, me: Identity, invitation_id: str, language: str = DEFAULT
    ) -> dict[str, Any]:
        """Take a seat at the invitation's table; the host hears of it. The answer describes
        the table in ``language``."""
        invitation = await self._mine(me, invitation_id)
        async with self.rooms.using(invitation.room_id) as room:
            try:
                await self.blocks.may_sit(room, me.id)
            except Refusal:
                # Someone who sat down since blocked them: the invitation cannot be taken up.
                await self.database.call(social_store.drop_invitation, invitation_id=invitation.id)
                self.live.tell(me.id, {"type": "invitation_closed", "id": invitation.id})
                raise
            seat = await self.rooms.join(
                room, user_id=me.id, name=me.name, seat=None, account=me.is_account
            )
            await self.database.call(social_store.drop_invitation, invitation_id=invitation.id)
            answer = {"id": invitation.id, "room_id": room.id, "by": me.username}
            self.live.tell(invitation.from_id, {"type": "invitation_accepted", **answer})
            self.live.tell(me.id, {"type": "invitation_closed", "id": invitation.id})
            return {"seat": seat, "room": self.rooms.describe(room, language)}

    def room_made(self, room: LiveRoom) -> None:
        """A room made here: nobody can have been invited to it unless it has a seat free
        (a rematch every seat of which is taken starts with none to close)."""
        self._open[room.id] = open_to_invitations(room)

    def room_changed(self, room: LiveRoom) -> None:
        """A table stopped waiting with a seat free (it started, filled or closed): its
        invitees' open pages drop the invitation (``invitation_closed``). Told once per
        change from open to not (a notifier of the rooms, on the table's owning process).
        A room first seen here by a change (loaded, or handed over by another process)
        changes nothing yet: whatever closed its invitations before happened where the
        room was then, and was told from there."""
        now_open = open_to_invitations(room)
        was_open = self._open.get(room.id, now_open)
        self._open[room.id] = now_open
        if was_open and not now_open:
            task = asyncio.get_running_loop().create_task(self._close_notices(room.id))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def room_released(self, room: LiveRoom) -> None:
        self._open.pop(room.id, None)

    async def _close_notices(self, room_id: str) -> None:
        try:
            found = await self.database.call(social_store.invitations_of_room, room_id=room_id)
        except Exception:  # the invitee's Accept still says the table moved on (410)
            log_failure(log, "could not read the invitations of room %s", room_id)
            return
        for invitation_id, to_id in found:
            self.live.tell(to_id, {"type": "invitation_closed", "id": invitation_id})

    async def decline(self, me: Identity, invitation_id: str) -> None:
        """Decline: the invitation is gone and the host hears of it."""
        row = await self.database.call(
            social_store.drop_invitation, invitation_id=invitation_id, to_id=me.id
        )
        if row is None:
            raise not_found()
        answer = {"id": row.id, "room_id": row.room_id, "by": me.username}
        self.live.tell(row.from_id, {"type": "invitation_declined", **answer})
        self.live.tell(me.id, {"type": "invitation_closed", "id": row.id})
