"""Friends, blocks and invitations: the SQL (app/social/ decides what is allowed)."""

from __future__ import annotations

from dataclasses import dataclass

from sqlalchemy import and_, bindparam, case, delete, func, or_, select, update
from sqlalchemy.orm import Session

from app.models import Block, ChatMessage, Friendship, Invitation, Room, Seat, User, table, utcnow

# The statuses of a table that is over (as app/rooms/records.py's ENDED).
ENDED = ("finished", "closed", "abandoned")

# --- friendships ---------------------------------------------------------------------------


def friendship(*, session: Session, one: str, other: str) -> Friendship | None:
    """The row between two people, whichever asked."""
    return session.scalars(
        select(Friendship).where(
            or_(
                and_(Friendship.from_id == one, Friendship.to_id == other),
                and_(Friendship.from_id == other, Friendship.to_id == one),
            )
        )
    ).first()


def ask_friend(*, session: Session, from_id: str, to_id: str) -> str:
    """``from_id`` asks ``to_id``: accepted at once if ``to_id`` had asked first. Answers
    ``"asked"``, ``"accepted"`` or ``"already"`` (friends, or asked before)."""
    row = friendship(session=session, one=from_id, other=to_id)
    if row is None:
        session.add(Friendship(from_id=from_id, to_id=to_id))
        session.commit()
        return "asked"
    if row.accepted_at is None and row.to_id == from_id:
        row.accepted_at = utcnow()
        session.commit()
        return "accepted"
    return "already"


def remove_friend(*, session: Session, one: str, other: str) -> bool:
    """Remove the friendship or the ask between two people (either way); whether any was."""
    removed = session.execute(
        delete(Friendship).where(
            or_(
                and_(Friendship.from_id == one, Friendship.to_id == other),
                and_(Friendship.from_id == other, Friendship.to_id == one),
            )
        )
    ).rowcount  # type: ignore[attr-defined]
    session.commit()
    return bool(removed)


@dataclass(frozen=True)
class Friends:
    """A person's friends (user id → username) and the asks waiting either way."""

    friends: dict[str, str]
    incoming: list[str]
    outgoing: list[str]


def friends_of(*, session: Session, user_id: str) -> Friends:
    other = case((Friendship.from_id == user_id, Friendship.to_id), else_=Friendship.from_id)
    rows = session.execute(
        select(Friendship, User.id, User.username)
        .join(User, User.id == other)
        .where(or_(Friendship.from_id == user_id, Friendship.to_id == user_id))
        .order_by(User.username)
    ).all()
    friends: dict[str, str] = {}
    incoming: list[str] = []
    outgoing: list[str] = []
    for row, other_id, username in rows:
        if username is None:
            continue
        if row.accepted_at is not None:
            friends[other_id] = username
        elif row.to_id == user_id:
            incoming.append(username)
        else:
            outgoing.append(username)
    return Friends(friends, incoming, outgoing)


def public_tables_of(*, session: Session, user_ids: list[str]) -> dict[str, tuple[str, str, bool]]:
    """Per person, the public table not over where they hold a seat (the newest): its id,
    its game and whether a seat is free to join."""
    if not user_ids:
        return {}
    taken = select(Seat.room_id, func.count().label("taken")).group_by(Seat.room_id).subquery()
    rows = session.execute(
        select(Seat.user_id, Room.id, Room.game, Room.status, Room.seat_count, taken.c.taken)
        .join(Room, Room.id == Seat.room_id)
        .join(taken, taken.c.room_id == Room.id)
        .where(
            Seat.user_id.in_(user_ids),
            Room.visibility == "public",
            Room.status.in_(("waiting", "playing")),
        )
        .order_by(Room.created_at)
    ).all()
    tables: dict[str, tuple[str, str, bool]] = {}
    for user_id, room_id, game, status, seat_count, count in rows:
        if user_id is not None:
            tables[user_id] = (room_id, game, status == "waiting" and count < seat_count)
    return tables


# --- blocks ---------------------------------------------------------------------------------


def block(*, session: Session, blocker_id: str, blocked_id: str) -> None:
    """Block a person: any friendship or ask between the two ends, and so do the
    invitations either sent the other."""
    if session.get(Block, (blocker_id, blocked_id)) is None:
        session.add(Block(blocker_id=blocker_id, blocked_id=blocked_id))
    session.execute(
        delete(Friendship).where(
            or_(
                and_(Friendship.from_id == blocker_id, Friendship.to_id == blocked_id),
                and_(Friendship.from_id == blocked_id, Friendship.to_id == blocker_id),
            )
        )
    )
    session.execute(
        delete(Invitation).where(
            or_(
                and_(Invitation.from_id == blocker_id, Invitation.to_id == blocked_id),
                and_(Invitation.from_id == blocked_id, Invitation.to_id == blocker_id),
            )
        )
    )
    session.commit()


def unblock(*, session: Session, blocker_id: str, blocked_id: str) -> bool:
    removed = session.execute(
        delete(Block).where(Block.blocker_id == blocker_id, Block.blocked_id == blocked_id)
    ).rowcount  # type: ignore[attr-defined]
    session.commit()
    return bool(removed)


def blocked_by(*, session: Session, blocker_id: str) -> dict[str, str]:
    """Whom a person blocked: user id → username (or name), by name."""
    rows = session.execute(
        select(User.id, func.coalesce(User.username, User.name))
        .join(Block, Block.blocked_id == User.id)
        .where(Block.blocker_id == blocker_id)
        .order_by(func.coalesce(User.username, User.name))
    ).all()
    return {user_id: name for user_id, name in rows}


def talk_read_by(
    *, session: Session, viewer_id: str | None, messages: list[ChatMessage]
) -> list[ChatMessage]:
    """The lines the viewer reads: those of people they blocked are left out (a match's
    review and transcript, as at the table)."""
    if viewer_id is None or not messages:
        return messages
    hidden = set(session.scalars(select(Block.blocked_id).where(Block.blocker_id == viewer_id)))
    return [m for m in messages if m.user_id not in hidden]


def blockers_among(*, session: Session, blocked_id: str, user_ids: set[str]) -> set[str]:
    """Which of ``user_ids`` blocked ``blocked_id``."""
    if not user_ids:
        return set()
    return set(
        session.scalars(
            select(Block.blocker_id).where(
                Block.blocked_id == blocked_id, Block.blocker_id.in_(user_ids)
            )
        )
    )


def blocks_among(*, session: Session, user_ids: set[str]) -> set[tuple[str, str]]:
    """The blocks between any two of ``user_ids``: (blocker id, blocked id) pairs."""
    if len(user_ids) < 2:
        return set()
    rows = session.execute(
        select(Block.blocker_id, Block.blocked_id).where(
            Block.blocker_id.in_(user_ids), Block.blocked_id.in_(user_ids)
        )
    ).all()
    return {(blocker, blocked) for blocker, blocked in rows}


# --- invitations ----------------------------------------------------------------------------


@dataclass(frozen=True)
class OpenInvitation:
    """An invitation whose table still waits for players with a seat free."""

    id: str
    room_id: str
    game: str
    from_id: str
    from_name: str
    to_id: str


def _open_invitations(session: Session, *conditions: object) -> list[OpenInvitation]:
    taken = select(func.count()).where(Seat.room_id == Room.id).correlate(Room).scalar_subquery()
    rows = session.execute(
        select(Invitation, Room.game, func.coalesce(User.username, User.name))
        .join(Room, Room.id == Invitation.room_id)
        .join(User, User.id == Invitation.from_id)
        .where(
            Invitation.expired_at.is_(None),
            Room.status == "waiting",
            taken < Room.seat_count,
            *conditions,  # type: ignore[arg-type]
        )
        .order_by(Invitation.created_at)
    ).all()
    return [
        OpenInvitation(row.id, row.room_id, game, row.from_id, name, row.to_id)
        for row, game, name in rows
    ]


def invitations_to(*, session: Session, user_id: str) -> list[OpenInvitation]:
    """A person's open invitations, oldest first. Those whose table is over are deleted;
    those whose table started or filled up are kept (not listed) until answered, so that
    accepting one says why it cannot be."""
    ended = select(Room.id).where(Room.status.in_(ENDED)).scalar_subquery()
    session.execute(
        delete(Invitation).where(Invitation.to_id == user_id, Invitation.room_id.in_(ended))
    )
    session.commit()
    return _open_invitations(session, Invitation.to_id == user_id)


def open_invitation(*, session: Session, invitation_id: str) -> OpenInvitation | None:
    found = _open_invitations(session, Invitation.id == invitation_id)
    return found[0] if found else None


def invitation(*, session: Session, invitation_id: str) -> Invitation | None:
    return session.get(Invitation, invitation_id)


def add_invitation(*, session: Session, invitation: Invitation) -> Invitation:
    """Store an invitation; inviting the same person to the same table again answers the
    one already there (renewed)."""
    found = session.scalars(
        select(Invitation).where(
            Invitation.room_id == invitation.room_id, Invitation.to_id == invitation.to_id
        )
    ).first()
    if found is not None:
        session.execute(
            update(Invitation)
            .where(Invitation.id == found.id)
            .values(from_id=invitation.from_id, created_at=utcnow())
        )
        session.commit()
        return found
    session.add(invitation)
    session.commit()
    return invitation


def invitations_of_room(*, session: Session, room_id: str) -> list[tuple[str, str]]:
    """Every invitation to a table still stored, expired or not: ``(id, invitee)``."""
    rows = session.execute(
        select(Invitation.id, Invitation.to_id).where(Invitation.room_id == room_id)
    )
    return [(row[0], row[1]) for row in rows]


# Run as every match starts: built once (app/store/matches.py says why).
_INVITATIONS = table(Invitation)
_EXPIRE_INVITATIONS = (
    update(_INVITATIONS)
    .where(_INVITATIONS.c.room_id == bindparam("room"), _INVITATIONS.c.expired_at.is_(None))
    .values(expired_at=bindparam("now"))
)


def expire_invitations(*, session: Session, room_id: str) -> None:
    """The table started or was closed: its invitations are no longer offered (in the
    caller's transaction)."""
    session.connection().execute(_EXPIRE_INVITATIONS, {"room": room_id, "now": utcnow()})


def drop_invitation(
    *, session: Session, invitation_id: str, to_id: str | None = None
) -> Invitation | None:
    """Delete an invitation (accepted or declined; only if it is ``to_id``'s, when given);
    the row as it was, or None."""
    found = session.get(Invitation, invitation_id)
    if found is not None and to_id is not None and found.to_id != to_id:
        return None
    if found is not None:
        session.delete(found)
        session.commit()
    return found


def users_named(*, session: Session, user_ids: set[str]) -> dict[str, str]:
    """Each person's username (their name, for a guest)."""
    if not user_ids:
        return {}
    rows = session.execute(
        select(User.id, func.coalesce(User.username, User.name)).where(User.id.in_(user_ids))
    ).all()
    return {user_id: name for user_id, name in rows}
