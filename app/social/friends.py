"""Friends: ask by username (asking someone who asked you accepts), remove or decline,
and the list — who is online (a Parlour page open, app/social/live.py) and at which
public table, with whether a seat is free there. Accounts only."""

from __future__ import annotations

from typing import Any

from sqlalchemy.orm import Session

from app.i18n.marks import N_
from app.people.sessions import Identity
from app.refusal import Refusal
from app.social.accounts import account_named, not_yourself, player_not_found
from app.social.live import LiveChannel
from app.store import social as social_store
from app.store.database_thread import DatabaseThread


class Friends:
    def __init__(self, database: DatabaseThread, live: LiveChannel) -> None:
        self.database = database
        self.live = live

    async def ask(self, me: Identity, username: str) -> dict[str, Any]:
        """Ask ``username`` to be friends, or accept their ask; they hear of it at once."""

        def work(session: Session) -> tuple[str, str, str]:
            user = account_named(session, username)
            not_yourself(user, me.id, N_("You cannot befriend yourself."))
            # The asker's own block first, so that it hides whether they were blocked too.
            if social_store.blockers_among(session=session, blocked_id=user.id, user_ids={me.id}):
                raise Refusal(
                    "player_blocked",
                    N_("You blocked {username}: unblock them first."),
                    409,
                    username=user.username,
                )
            if social_store.blockers_among(session=session, blocked_id=me.id, user_ids={user.id}):
                raise player_not_found(username)
            outcome = social_store.ask_friend(session=session, from_id=me.id, to_id=user.id)
            return outcome, user.id, str(user.username)

        outcome, user_id, name = await self.database.run(work)
        if outcome == "asked":
            self.live.tell(user_id, {"type": "friend_request", "from": me.username})
        elif outcome == "accepted":
            self.live.tell(user_id, {"type": "friend_accepted", "by": me.username})
        status = {"asked": "asked", "accepted": "friends"}.get(outcome, "unchanged")
        return {"username": name, "status": status}

    async def remove(self, me: Identity, username: str) -> None:
        """End a friendship, withdraw an ask, or decline one."""

        def work(session: Session) -> str:
            user = account_named(session, username)
            if not social_store.remove_friend(session=session, one=me.id, other=user.id):
                raise Refusal(
                    "not_friends", N_("You and {username} are not friends."), 404, username=username
                )
            return user.id

        # Their open friends page must not go on listing the friendship or the ask.
        other = await self.database.run(work)
        self.live.tell(other, {"type": "friend_removed", "by": me.username})

    async def listed(self, me: Identity) -> dict[str, Any]:
        found = await self.database.call(social_store.friends_of, user_id=me.id)
        online = await self.live.online(set(found.friends))
        tables = await self.database.call(social_store.public_tables_of, user_ids=sorted(online))
        friends = []
        for user_id, username in found.friends.items():
            table = tables.get(user_id) if user_id in online else None
            friends.append(
                {
                    "username": username,
                    "online": user_id in online,
                    "room_id": table[0] if table else None,
                    "game": table[1] if table else None,
                    "joinable": table[2] if table else False,
                }
            )
        return {"friends": friends, "incoming": found.incoming, "outgoing": found.outgoing}
