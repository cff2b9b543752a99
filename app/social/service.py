"""``Social``: friends, blocks, invitations and the live channel wired together for one
process (app/main.py joins it to the cluster when several processes run)."""

from __future__ import annotations

from dataclasses import dataclass

from app.connections.hub import Hub
from app.rooms import Rooms
from app.social.blocks import Blocks
from app.social.friends import Friends
from app.social.hiding import Hiding
from app.social.invitations import Invitations
from app.social.live import LiveChannel
from app.store.database_thread import DatabaseThread


@dataclass
class Social:
    live: LiveChannel
    hiding: Hiding
    friends: Friends
    blocks: Blocks
    invitations: Invitations

    @staticmethod
    def build(database: DatabaseThread, hub: Hub, rooms: Rooms) -> Social:
        live = LiveChannel()
        hiding = Hiding(hub, database)
        blocks = Blocks(database, hiding)
        invitations = Invitations(database, rooms, live, blocks)
        # A table that stops waiting drops its invitations from the invitees' pages.
        rooms.notifier.add(invitations)
        rooms.registry.on_make(invitations.room_made)
        rooms.registry.on_release(invitations.room_released)
        return Social(
            live=live,
            hiding=hiding,
            friends=Friends(database, live),
            blocks=blocks,
            invitations=invitations,
        )
