"""Site-wide mutes and bans as people meet them: the refusal, saying why and until when.

A ban refuses the account's login (403 ``banned``), any new guest session from a browser
its sessions were opened in or, made after the ban, from an address they were opened from
(the same cover a host's mute gives at a table; from the address alone, without a word of
the ban, since it may be someone else's), and closes its sockets
(app/connections/session_ends.py). A site-wide mute refuses its chat lines and reactions
everywhere (403 ``site_muted``), checked by the chat in the database (app/chat/service.py),
so it holds on every process. Both are distinct from the mute a host sets at one table
(app/chat/mutes.py).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

import orjson
from sqlalchemy.orm import Session, sessionmaker

from app import store as common
from app.i18n.languages import DEFAULT, known
from app.i18n.marks import N_
from app.models import Sanction, iso, utcnow
from app.people.origins import Speaker, covers
from app.people.sessions import Origin
from app.refusal import Refusal
from app.store import moderation as store


def _when(until: datetime) -> str:
    return f"{until:%Y-%m-%d %H:%M}"


def banned(sanction: Sanction) -> Refusal:
    """The refusal a banned person gets (login, a new session)."""
    if sanction.until is None:
        return Refusal(
            "banned",
            N_("This account is banned until it is lifted. Reason: {reason}"),
            403,
            reason=sanction.reason,
        )
    return Refusal(
        "banned",
        N_("This account is banned until {when} UTC. Reason: {reason}"),
        403,
        when=_when(sanction.until),
        reason=sanction.reason,
    )


def muted(sanction: Sanction) -> Refusal:
    """The refusal of a line said by a person muted site-wide (``site_muted``: not the
    host's mute at one table, ``muted``)."""
    return muted_for(until=sanction.until, reason=sanction.reason)


def muted_for(*, until: datetime | None, reason: str) -> Refusal:
    """The refusal of a person muted site-wide ``until`` then (None: until lifted); its
    message is also what their open pages are told when the mute starts."""
    if until is None:
        return Refusal(
            "site_muted",
            N_("A moderator muted you everywhere until it is lifted. Reason: {reason}"),
            403,
            reason=reason,
        )
    return Refusal(
        "site_muted",
        N_("A moderator muted you everywhere until {when} UTC. Reason: {reason}"),
        403,
        when=_when(until),
        reason=reason,
    )


def wire(sanction: Sanction) -> dict[str, Any]:
    """A sanction as the API shows it."""
    return {
        "kind": sanction.kind,
        "reason": sanction.reason,
        "until": iso(sanction.until),
        "since": iso(sanction.at),
    }


def refuse_if_banned(session: Session, user_id: str) -> None:
    """Refuse (``banned``) when the person is banned now; for code in a worker thread."""
    ban = store.sanction_of(session=session, user_id=user_id, kind="ban", now=utcnow())
    if ban is not None:
        raise banned(ban)


def network_paused() -> Refusal:
    """The refusal of a new guest from a banned person's network address, in a browser
    that is not theirs: whoever it is may be someone else sharing the address (a home, a
    school, a phone network), so they are told nothing of another person's sanction."""
    return Refusal(
        "banned",
        N_("Guest play from this network is paused; log in to an account to play."),
        403,
    )


def refuse_if_origin_banned(session: Session, origin: Origin) -> None:
    """Refuse (``banned``) a new guest from a browser a banned person's sessions used, or
    from an address they used (a guest made now is made after the ban): the ban's marks
    cover it as a mute's at a table cover a fresh guest (app/people/origins.py). Only the
    banned person's own browser is told why and until when; from their address alone the
    refusal says nothing of them (``network_paused``)."""
    now = utcnow()
    guest = Speaker("", browser=origin.browser, address=origin.address, guest_since=now)
    by_address = False
    for ban in store.bans_in_force(session=session, now=now):
        if not ban.marks or not covers(ban.marks, guest):
            continue
        if origin.browser is not None and origin.browser in ban.marks["browsers"]:
            raise banned(ban)
        by_address = True
    if by_address:
        raise network_paused()


def refuse_if_muted(*, session: Session, user_id: str) -> None:
    """Refuse (``muted``) a line of a person muted site-wide now (a function of the
    session, for ``DatabaseThread.call``)."""
    mute = store.sanction_of(session=session, user_id=user_id, kind="mute", now=utcnow())
    if mute is not None:
        raise muted(mute)


def banned_users(sessions: sessionmaker[Session], user_ids: set[str]) -> dict[str, str]:
    """Which of these people are banned now, each with the message their sockets are sent
    before they close: ``{"type": "banned", "reason", "until", "message"}`` (JSON text, the
    message in the account's language; blocking: a worker thread's)."""
    with sessions() as session:
        bans = store.bans_among(session=session, user_ids=user_ids, now=utcnow())
        languages = common.languages_of(session=session, user_ids={ban.user_id for ban in bans})
        return {
            ban.user_id: orjson.dumps(
                {
                    "type": "banned",
                    "reason": ban.reason,
                    "until": iso(ban.until),
                    "message": banned(ban).text(known(languages.get(ban.user_id)) or DEFAULT),
                }
            ).decode()
            for ban in bans
        }
