"""What moderators do, each action and its line in the audit log in one transaction.

Warn, mute site-wide for a time (and lift it), ban (and lift it), delete a chat line,
close a table, resolve or dismiss a report. A ban ends every session of the account and
tells every process to forget it (app/people/sessions.py): each closes that account's
sockets at once (app/connections/session_ends.py), through Redis when several processes
share the rooms. A deleted line leaves the database — every review and transcript — and
then every live page showing it (the chat's ``retract``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Protocol

from sqlalchemy.orm import Session

from app import store as common
from app.i18n.catalogues import Words, words
from app.i18n.languages import DEFAULT, known
from app.i18n.marks import N_
from app.models import ModerationEntry, Report, Sanction, User, iso, utcnow
from app.moderation.sanctions import muted_for
from app.people.lookup import user_by_name
from app.people.sessions import Authenticator, Identity
from app.refusal import Refusal
from app.rooms import LiveRoom, Rooms
from app.store import moderation as store
from app.store.database_thread import DatabaseThread

REASON_MAX = 500
MUTE_MINUTES_MAX = 365 * 24 * 60
# A report handled, and the audit log's name of the action.
HANDLED = {"resolved": "resolve", "dismissed": "dismiss"}


# What an action does to the person in its transaction; the log entry's details.
PersonWork = Callable[[Session, User], dict[str, Any] | None]


class Retractions(Protocol):
    """The chat (app/chat/service.py): takes a deleted line off the live tables."""

    def retract(self, room: LiveRoom, *, chat_id: int, channel: str) -> None: ...


def not_moderator() -> Refusal:
    return Refusal("not_moderator", N_("Only a moderator can do that."), 403)


def find_person(session: Session, key: str) -> User:
    """The person a moderator names: an account by username, or anyone by user id."""
    user = user_by_name(session=session, name=key.strip())
    if user is None:
        user = session.get(User, key)
    if user is None:
        raise Refusal("player_not_found", N_("There is no player called {key}."), 404, key=key)
    return user


def checked_reason(reason: str) -> str:
    words = reason.strip()
    if not words:
        raise Refusal("bad_reason", N_("Say why: the person and the audit log are told."), 422)
    if len(words) > REASON_MAX:
        raise Refusal(
            "bad_reason",
            N_("Say why in at most {most} characters."),
            422,
            most=REASON_MAX,
        )
    return words


def entry_wire(entry: ModerationEntry, names: dict[str, str]) -> dict[str, Any]:
    """An audit log entry as the API shows it."""
    return {
        "id": entry.id,
        "at": iso(entry.at),
        "moderator": names.get(entry.moderator_id) if entry.moderator_id else None,
        "action": entry.action,
        "target": names.get(entry.target_id) if entry.target_id else None,
        "target_id": entry.target_id,
        "reason": entry.reason,
        "details": entry.details,
    }


@dataclass(frozen=True)
class Act:
    """One moderator's action as the audit log records it."""

    moderator: Identity
    reason: str
    report_ids: tuple[int, ...] = ()

    def check_reports(self, session: Session, target: str | None) -> None:
        """Refuse, before anything changes, reports the action cannot answer: one that does
        not exist, or one about someone other than the action's person."""
        for report_id in self.report_ids:
            report = session.get(Report, report_id)
            if report is None:
                raise Refusal(
                    "report_not_found",
                    N_("There is no report {report_id}."),
                    404,
                    report_id=report_id,
                )
            if report.reported_id != target:
                raise Refusal(
                    "report_elsewhere",
                    N_("Report {report_id} is about someone else: this action cannot answer it."),
                    422,
                    report_id=report_id,
                )

    def record(
        self, session: Session, action: str, target: str | None, **details: Any
    ) -> ModerationEntry:
        """Write the log entry (and close the reports it answers) in ``session``."""
        now = utcnow()
        if self.report_ids:
            details["reports"] = list(self.report_ids)
            store.handle_reports(
                session=session,
                report_ids=list(self.report_ids),
                status="resolved",
                by=self.moderator.id,
                at=now,
            )
        entry = ModerationEntry(
            at=now,
            moderator_id=self.moderator.id,
            action=action,
            target_id=target,
            reason=self.reason,
            details=details,
        )
        store.record(session=session, entry=entry)
        return entry


class Teller(Protocol):
    """The live channel (app/social/live.py): a word to every open page of a person."""

    def tell(self, user_id: str, message: dict[str, Any]) -> None: ...


def notice(kind: str, text: str, until: str | None = None) -> dict[str, Any]:
    """A moderator's word as the person's open pages are sent it (``notice``)."""
    return {"type": "notice", "kind": kind, "text": text, "until": until}


class Moderation:
    """The moderators' actions, for every process (the database is the truth)."""

    def __init__(
        self,
        database: DatabaseThread,
        auth: Authenticator,
        rooms: Rooms,
        chat: Retractions,
        live: Teller,
    ) -> None:
        self.database = database
        self.auth = auth
        self.rooms = rooms
        self.chat = chat
        self.live = live

    async def check(self, user: Identity | None) -> Identity:
        """The caller, if a moderator; else ``not_moderator`` (guests and nobody too)."""
        if user is None or not user.is_account:
            raise not_moderator()
        if not await self.database.call(store.is_moderator, user_id=user.id):
            raise not_moderator()
        return user

    async def _person_act(
        self, act: Act, key: str, action: str, work: PersonWork
    ) -> dict[str, Any]:
        """Run ``work(session, user)`` on the person named and log it, with the details
        ``work`` returns; the entry as the API shows it."""

        def run(session: Session) -> dict[str, Any]:
            user = find_person(session, key)
            if user.id == act.moderator.id:
                raise Refusal("moderate_self", N_("You cannot do that to yourself."), 422)
            act.check_reports(session, user.id)
            more = work(session, user) or {}
            entry = act.record(session, action, user.id, **more)
            session.commit()
            return entry_wire(
                entry, store.names_of(session=session, user_ids={act.moderator.id, user.id})
            )

        return await self.database.run(run)

    async def warn(self, act: Act, key: str) -> dict[str, Any]:
        """A warning: recorded, and shown to the person (GET /api/me/moderation)."""
        entry = await self._person_act(act, key, "warn", lambda _session, _user: None)
        said = await self._words_of(entry["target_id"])
        told = said.gettext(N_("A moderator warns you: {reason}"), reason=act.reason)
        self.live.tell(entry["target_id"], notice("warn", told))
        return entry

    async def _words_of(self, user_id: str) -> Words:
        """The words of the person a moderator's notice is for: their account's language,
        else English (their pages' own language is not known here)."""
        found = await self.database.call(common.languages_of, user_ids={user_id})
        return words(known(found.get(user_id)) or DEFAULT)

    async def mute(self, act: Act, key: str, minutes: int) -> dict[str, Any]:
        """Mute the person's chat everywhere for ``minutes``."""
        if not 1 <= minutes <= MUTE_MINUTES_MAX:
            raise Refusal(
                "bad_duration",
                N_("A mute lasts 1 to {most} minutes."),
                422,
                most=MUTE_MINUTES_MAX,
            )
        until = utcnow() + timedelta(minutes=minutes)

        def work(session: Session, user: User) -> dict[str, Any]:
            sanction = Sanction(
                user_id=user.id,
                kind="mute",
                reason=act.reason,
                until=until,
                by_id=act.moderator.id,
                at=utcnow(),
                marks={},
            )
            store.put_sanction(session=session, sanction=sanction)
            return {"until": iso(until)}

        entry = await self._person_act(act, key, "mute", work)
        said = await self._words_of(entry["target_id"])
        told = muted_for(until=until, reason=act.reason).text(said.language)
        self.live.tell(entry["target_id"], notice("mute", told, iso(until)))
        return entry

    async def ban(self, act: Act, key: str, until: datetime | None) -> dict[str, Any]:
        """Ban the person (until a time, or until lifted): every session ends, every
        socket closes, logins and new guests from their browsers and addresses are refused."""
        if until is not None and until <= utcnow():
            raise Refusal("bad_duration", N_("A ban ends in the future (or leave out until)."), 422)

        def work(session: Session, user: User) -> dict[str, Any]:
            now = utcnow()
            sanction = Sanction(
                user_id=user.id,
                kind="ban",
                reason=act.reason,
                until=until,
                by_id=act.moderator.id,
                at=now,
                # Read before the sessions end: where they were opened.
                marks=common.origins_mark(session=session, user_id=user.id, at=now),
            )
            store.put_sanction(session=session, sanction=sanction)
            ended = common.close_user_sessions(session=session, user_id=user.id)
            return {"until": iso(until), "sessions_ended": ended}

        entry = await self._person_act(act, key, "ban", work)
        # Every process forgets the account and closes its sockets (through Redis).
        self.auth.forget_user(entry["target_id"])
        await self._unseat(entry["target_id"])
        return entry

    async def _unseat(self, user_id: str) -> None:
        """A banned person leaves the seats they hold at tables still waiting for players
        (a match in play goes on: their seat is played for them when their time runs out)."""
        tables = await self.database.call(common.unfinished_tables, user_id=user_id)
        for table in tables:
            if table.status != "waiting":
                continue
            room = await self._room(table.id)
            if room is None or room.status != "waiting" or room.seat_of(user_id) is None:
                continue
            try:
                await self.rooms.leave(room, user_id=user_id)
            except Refusal:  # it started or closed meanwhile: nothing to leave
                continue

    async def lift(self, act: Act, key: str, kind: str) -> dict[str, Any]:
        """End a ban (``unban``) or a site-wide mute (``unmute``) early."""
        word = "banned" if kind == "ban" else "muted"

        def work(session: Session, user: User) -> None:
            if not store.lift_sanction(session=session, user_id=user.id, kind=kind):
                name = user.username or user.name
                said = N_("{name} is not banned.") if kind == "ban" else N_("{name} is not muted.")
                raise Refusal(f"not_{word}", said, 404, name=name)

        entry = await self._person_act(act, key, f"un{kind}", work)
        if kind == "mute":
            said = await self._words_of(entry["target_id"])
            told = said.gettext(
                N_("A moderator lifted your mute: you may talk again. Reason: {reason}"),
                reason=act.reason,
            )
            self.live.tell(entry["target_id"], notice("unmute", told))
        return entry

    async def delete_chat(self, act: Act, chat_id: int) -> dict[str, Any]:
        """Delete a chat line everywhere: the database (reviews, transcripts, chat logs),
        then the live tables' chat."""

        def run(session: Session) -> tuple[dict[str, Any], str, str]:
            line = store.chat_line(session=session, chat_id=chat_id)
            if line is None:
                raise Refusal("chat_not_found", N_("There is no such chat line (any more)."), 404)
            room_id, channel, speaker = line.room_id, line.channel, line.user_id
            act.check_reports(session, speaker)
            details = {"chat_id": chat_id, "room_id": room_id, "name": line.name, "text": line.text}
            store.delete_chat_line(session=session, chat_id=chat_id)
            entry = act.record(session, "delete_chat", speaker, **details)
            session.commit()
            names = store.names_of(session=session, user_ids={act.moderator.id, speaker})
            return entry_wire(entry, names), room_id, channel

        entry, room_id, channel = await self.database.run(run)
        room = await self._room(room_id)
        if room is not None:
            self.chat.retract(room, chat_id=chat_id, channel=channel)
        return entry

    async def _room(self, room_id: str) -> LiveRoom | None:
        try:
            return await self.rooms.get(room_id)
        except Refusal as refused:
            if refused.code == "room_not_found":
                return None
            raise

    async def close_table(self, act: Act, room_id: str) -> dict[str, Any]:
        """Close a table: a waiting one closes, a match in play ends as abandoned."""
        room = await self._room(room_id)
        if room is None:
            raise Refusal("room_not_found", N_("There is no such room."), 404)
        if act.report_ids:  # checked before the table closes: a refusal changes nothing
            await self.database.run(lambda session: act.check_reports(session, room.host_id))
        await self.rooms.close_table(room)

        def run(session: Session) -> dict[str, Any]:
            entry = act.record(session, "close_table", room.host_id, room_id=room.id)
            session.commit()
            names = store.names_of(session=session, user_ids={act.moderator.id, room.host_id})
            return entry_wire(entry, names)

        return await self.database.run(run)

    async def handle_report(self, act: Act, report_id: int, status: str) -> dict[str, Any]:
        """Resolve or dismiss an open report."""
        if status not in HANDLED:
            raise Refusal("bad_status", N_("A report is resolved or dismissed."), 422)

        def run(session: Session) -> dict[str, Any]:
            report = session.get(Report, report_id)
            if report is None:
                raise Refusal("report_not_found", N_("There is no such report."), 404)
            if report.status != "open":
                raise Refusal(
                    "report_handled",
                    N_("That report was resolved already.")
                    if report.status == "resolved"
                    else N_("That report was dismissed already."),
                    409,
                )
            done = Act(act.moderator, act.reason)
            store.handle_reports(
                session=session,
                report_ids=[report_id],
                status=status,
                by=act.moderator.id,
                at=utcnow(),
            )
            entry = done.record(session, HANDLED[status], report.reported_id, report=report_id)
            session.commit()
            names = store.names_of(session=session, user_ids={act.moderator.id, report.reported_id})
            return entry_wire(entry, names)

        return await self.database.run(run)
