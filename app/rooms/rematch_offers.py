"""Rematch by acceptance: at the end of a match a player proposes a rematch in place, the
others accept or decline it, and once every seat has accepted the new match starts at once.

The offer is part of the room (``LiveRoom.rematch_offer``, described to everyone with the
room): who proposed it, which seats accepted — the computers the host chose accept at once —
and who declined it, which ends it (anyone may then propose again). Every seat's person has
a say: a seat's player, or the person a computer stands in for, who sits in their own seat
again in the rematch. When the last seat accepts, the rematch room is opened with everyone
in the same seats, its match is started, and the finished room names it (``rematch_id``)
with the offer marked ``started``: the players' pages move there. The offer lives in the
memory of the process that referees the room, for as long as it holds the room (while
anyone is connected to it); a restart forgets it (the players propose again), while the
rematch room, once opened, is stored like any other and named by the finished room.
"""

from __future__ import annotations

from dataclasses import replace

from app.i18n.marks import N_
from app.refusal import Refusal
from app.rooms.lobby import Lobby
from app.rooms.notifier import Notifier
from app.rooms.ownership import Ownership, hold_stored
from app.rooms.records import LiveRoom, RematchOffer, SeatHolder


def voter_seat(room: LiveRoom, user_id: str | None) -> int | None:
    """The seat whose person ``user_id`` is: the one they hold, or the one a computer plays
    for them."""
    if user_id is None:
        return None
    for index, holder in enumerate(room.seats):
        if holder is not None and holder.person == user_id:
            return index
    return None


def computer_seats(room: LiveRoom) -> set[int]:
    """The seats of the computers the host chose (they accept any rematch)."""
    return {
        i
        for i, h in enumerate(room.seats)
        if h is not None and h.bot is not None and h.stand_in_for is None
    }


def rematch_seats(room: LiveRoom) -> list[SeatHolder | None]:
    """Everyone in the same seat again; a person a computer stood in for sits in person."""
    seats: list[SeatHolder | None] = []
    for holder in room.seats:
        if holder is not None and holder.stand_in_for is not None:
            seats.append(SeatHolder(holder.stand_in_for, None, holder.stand_in_name or ""))
        else:
            seats.append(holder)
    return seats


class RematchOffers:
    """Proposing, accepting and declining a rematch at the end of a match."""

    def __init__(self, lobby: Lobby, ownership: Ownership, notifier: Notifier) -> None:
        self.lobby = lobby
        self.ownership = ownership
        self.notifier = notifier

    def _changed(self, room: LiveRoom) -> None:
        room.described()
        self.notifier.room_changed(room)

    async def answer(self, room: LiveRoom, *, user_id: str | None, accept: bool) -> str | None:
        """``user_id`` proposes or accepts a rematch (``accept``), or declines the one
        proposed; returns the rematch room's id once everyone has accepted and it started."""
        async with room.lock:
            if room.status != "finished":
                raise Refusal(
                    "not_finished", N_("A rematch can be proposed once this match is over.")
                )
            seat = voter_seat(room, user_id)
            if seat is None:
                raise Refusal("not_seated", N_("Only the players can answer a rematch."), 403)
            if room.rematch_id is not None:
                raise Refusal("rematch_open", N_("The rematch table is open already: go to it."))
            offer = room.rematch_offer
            standing = offer is not None and offer.declined is None
            if not accept:
                if offer is None or not standing:
                    raise Refusal("no_rematch_offer", N_("Nobody is proposing a rematch now."))
                room.rematch_offer = replace(offer, declined=seat)
                self._changed(room)
                return None
            if offer is None or not standing:
                offer = RematchOffer(by=seat, accepted=sorted({seat} | computer_seats(room)))
            else:
                offer = replace(offer, accepted=sorted({*offer.accepted, seat}))
            room.rematch_offer = offer
            if len(offer.accepted) < room.seat_count:
                self._changed(room)
                return None
            return await self._start(room, offer)

    async def _start(self, room: LiveRoom, offer: RematchOffer) -> str:
        """Everyone accepted (under the room's lock): open the rematch with its match begun,
        claim it, and tell of both rooms."""
        new_room = await self.lobby.open_begun_rematch(room, seats=rematch_seats(room))
        try:
            # Kept in memory here until it is claimed: nobody is connected to it yet. The
            # claim may find it another process's already (its sweep for rooms nobody
            # holds read it in between): this copy then follows that one, which referees
            # the match stored with the room.
            with self.lobby.registry.kept(new_room.id):
                await hold_stored(self.ownership, new_room)
        except BaseException:
            # Stored, begun and named, but not claimed (Redis out of reach): the table is
            # told of now, rather than whenever the finished room's description next goes
            # out (to other processes' sockets once a notice can reach them); the first
            # move sent to the new room claims it (``Ownership.forward``).
            self._changed(room)
            raise
        room.rematch_offer = replace(offer, started=True)
        # Its turn clocks and its computers' turns start now, with its description.
        self._changed(new_room)
        self._changed(room)
        return new_room.id
