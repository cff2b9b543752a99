"""Blocking: a person you block cannot ask to be your friend, invite you, take a seat at a
table you host or sit with you, and their table talk is not delivered to you
(app/social/hiding.py). They are not told: every refusal they meet says what it would
say to anyone (a name nobody has, a seat that cannot be taken)."""

from __future__ import annotations

from typing import Any

from app.i18n.marks import N_
from app.refusal import Refusal
from app.rooms import LiveRoom
from app.social.accounts import account_named, not_yourself
from app.social.hiding import Hiding
from app.store import social as social_store
from app.store.database_thread import DatabaseThread


def seat_refused() -> Refusal:
    return Refusal("seat_refused", N_("You cannot take a seat at this table."), 403)


class Blocks:
    def __init__(self, database: DatabaseThread, hiding: Hiding) -> None:
        self.database = database
        self.hiding = hiding

    async def block(self, me: str, username: str) -> None:
        """Block an account (again: nothing changes); ends any friendship, ask or
        invitation between the two."""

        def work(session: Any) -> frozenset[str]:
            user = account_named(session, username)
            not_yourself(user, me, N_("You cannot block yourself."))
            social_store.block(session=session, blocker_id=me, blocked_id=user.id)
            return frozenset(social_store.blocked_by(session=session, blocker_id=me))

        self.hiding.changed(me, await self.database.run(work))

    async def unblock(self, me: str, username: str) -> None:
        def work(session: Any) -> frozenset[str]:
            user = account_named(session, username)
            if not social_store.unblock(session=session, blocker_id=me, blocked_id=user.id):
                raise Refusal(
                    "not_blocked", N_("You have not blocked {username}."), 404, username=username
                )
            return frozenset(social_store.blocked_by(session=session, blocker_id=me))

        self.hiding.changed(me, await self.database.run(work))

    async def listed(self, me: str) -> dict[str, Any]:
        blocked = await self.database.call(social_store.blocked_by, blocker_id=me)
        return {"blocks": list(blocked.values())}

    async def may_sit(self, room: LiveRoom, user_id: str) -> None:
        """Refuse a seat to someone the host, or a person seated, blocked."""
        people = {room.host_id}
        people.update(h.person for h in room.seats if h is not None and h.person is not None)
        people.discard(user_id)
        blockers = await self.database.call(
            social_store.blockers_among, blocked_id=user_id, user_ids=people
        )
        if blockers:
            raise seat_refused()
