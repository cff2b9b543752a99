"""The delivery worker: claims due outbox rows and delivers each on its channel.

A round (``deliver_once``) claims a batch of due rows under a lease, so that several
processes can run workers on one database and never deliver one row twice, and then:

- **e-mail**: gathers everything due for a person into one message — at most one per
  person per digest interval (EMAIL_DIGEST_SECONDS): rows that come sooner wait for the
  end of the interval and go out together. An address's confirmation goes at once.
- **webhook**: one signed POST per row; each failure in a row counts, and past
  WEBHOOK_MAX_FAILURES the webhook is disabled with a note why.
- **push**: one message per subscription; one the push service says is gone is deleted.

Before anything goes, the worker asks whether it still has a reason to: the person is not
looking at the table, for a turn or a reminder is still awaited there, and for an
invitation it is still open (not answered, and its table still waits for players). A failed
delivery is put back with exponential backoff (app/notifications/retries.py); a process
that dies mid-round leaves its rows to be claimed again when their lease ends.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Callable
from datetime import datetime, timedelta
from typing import Any, TypeVar

import aiohttp
from py_vapid import Vapid
from sqlalchemy.orm import Session

from app.config import Settings
from app.i18n.catalogues import Words, words
from app.i18n.languages import DEFAULT, known
from app.i18n.marks import N_, Worded
from app.models import NotificationSettings, OutboxItem
from app.notifications import links, mail, push, webhooks, wording
from app.notifications.addresses import UnsafeUrl, check_reachable
from app.notifications.fan_out import email_usable, wants, webhook_usable
from app.notifications.looking import Looking, TurnCheck
from app.notifications.retries import next_try
from app.notifications.tokens import EmailTokens
from app.observability.metrics import NOTIFICATIONS_FAILED, NOTIFICATIONS_SENT
from app.rooms.time_source import TimeSource, stamp
from app.store import notification_settings as settings_store
from app.store import outbox as outbox_store
from app.store import people as people_store
from app.store import push_subscriptions as push_store
from app.store import social as social_store
from app.store.database_thread import DatabaseThread

log = logging.getLogger("parlour.notifications")

T = TypeVar("T")

# Rows claimed per round.
BATCH = 100


class DeliveryWorker:
    def __init__(
        self,
        settings: Settings,
        database: DatabaseThread,
        *,
        time_source: TimeSource,
        looking: Looking,
        turns: TurnCheck,
        mailer: mail.Mailer | None,
        vapid: Vapid,
        tokens: EmailTokens,
    ) -> None:
        self.settings = settings
        self.database = database
        self.time_source = time_source
        self.looking = looking
        self.turns = turns
        self.mailer = mailer
        self.vapid = vapid
        self.tokens = tokens
        self.worker_id = secrets.token_hex(8)
        self._client: aiohttp.ClientSession | None = None
        # The language settings of the people of the round being delivered.
        self._languages: dict[str, str | None] = {}

    async def close(self) -> None:
        if self._client is not None:
            await self._client.close()
            self._client = None

    def _http(self) -> aiohttp.ClientSession:
        if self._client is None:
            self._client = aiohttp.ClientSession()
        return self._client

    def _now(self) -> datetime:
        return stamp(self.time_source.now())

    async def _write(self, work: Callable[[Session], T]) -> T:
        def committed(session: Session) -> T:
            result = work(session)
            session.commit()
            return result

        return await self.database.run(committed)

    # --- a round ------------------------------------------------------------------------

    async def deliver_once(self) -> int:
        """Claim the rows due now and deliver them; how many were claimed."""
        now = self._now()
        lease = now + timedelta(seconds=self.settings.notify_lease_seconds)
        rows = await self.database.call(
            outbox_store.claim_outbox,
            now=now,
            lease_until=lease,
            worker=self.worker_id,
            limit=BATCH,
        )
        if not rows:
            return 0
        # Everyone's settings at once, read after the claim: one query for the round.
        found = await self.database.call(
            settings_store.settings_of, user_ids={row.user_id for row in rows}
        )
        # And their languages: each notification speaks its recipient's.
        self._languages = await self.database.call(
            people_store.languages_of, user_ids={row.user_id for row in rows}
        )
        emails: dict[str, list[OutboxItem]] = {}
        jobs = []
        for row in rows:
            if row.channel == "email":
                emails.setdefault(row.user_id, []).append(row)
            elif row.channel == "webhook":
                jobs.append(self._guarded(self._webhook, [row], found.get(row.user_id)))
            else:
                jobs.append(self._guarded(self._push, [row], found.get(row.user_id)))
        jobs += [
            self._guarded(self._emails, items, found.get(user_id))
            for user_id, items in emails.items()
        ]
        await asyncio.gather(*jobs)
        return len(rows)

    async def _guarded(
        self,
        deliver: Callable[[list[OutboxItem], NotificationSettings | None], Any],
        rows: list[OutboxItem],
        settings: NotificationSettings | None,
    ) -> None:
        """One person's delivery on one channel; an error of its own never stops the others."""
        try:
            await deliver(rows, settings)
        except Exception:
            log.exception("delivering notifications %s failed", [row.id for row in rows])
            await self._retry(rows)

    async def _finish(self, rows: list[OutboxItem]) -> None:
        ids = [row.id for row in rows]
        if ids:
            await self._write(lambda s: outbox_store.finish_outbox(session=s, item_ids=ids))

    async def _retry(self, rows: list[OutboxItem]) -> None:
        """Put the rows back for another try later, or give them up."""
        now = self._now()
        for row in rows:
            when = next_try(now, row.attempts + 1)
            if when is None:
                log.warning(
                    "gave up notification %s (%s) after %d tries",
                    row.id,
                    row.channel,
                    row.attempts + 1,
                )
                await self._finish([row])
            else:
                await self._put_back([row.id], when, failed=True)

    async def _put_back(self, ids: list[int], when: datetime, *, failed: bool) -> None:
        await self._write(
            lambda s: outbox_store.put_back_outbox(
                session=s, item_ids=ids, due_at=when, failed=failed
            )
        )

    async def _still_wanted(self, row: OutboxItem) -> bool:
        """Whether the event is still worth telling: the person is not at the table, and
        is still awaited there for a turn or a reminder."""
        if row.room_id is None:
            return True
        if await self.looking.is_looking(row.user_id, row.room_id):
            return False
        if row.kind == wording.INVITED:
            invitation = str(row.details.get("invitation") or "")
            found = await self.database.call(social_store.open_invitation, invitation_id=invitation)
            return found is not None and found.to_id == row.user_id
        if row.kind in (wording.TURN, wording.REMINDER):
            deadline = row.details.get("deadline")
            return await self.turns.awaits(
                row.user_id, row.room_id, deadline if isinstance(deadline, str) else None
            )
        return True

    async def _wanted(self, rows: list[OutboxItem]) -> list[OutboxItem]:
        kept: list[OutboxItem] = []
        dropped: list[OutboxItem] = []
        for row in rows:
            (kept if await self._still_wanted(row) else dropped).append(row)
        await self._finish(dropped)
        return kept

    def _said(self, user_id: str, fallback: str | None = None) -> Words:
        """The recipient's words: the account's language, else ``fallback`` (the language
        a push subscription was made in), else English."""
        chosen = known(self._languages.get(user_id)) or known(fallback) or DEFAULT
        return words(chosen)

    def _url(self, row: OutboxItem) -> str:
        return (
            links.table_url(self.settings, row.room_id)
            if row.room_id
            else links.settings_url(self.settings)
        )

    # --- e-mail -------------------------------------------------------------------------

    async def _emails(self, rows: list[OutboxItem], settings: NotificationSettings | None) -> None:
        confirmations = [row for row in rows if row.kind == wording.CONFIRM]
        for row in confirmations:
            await self._guarded(self._confirmation, [row], settings)
        events = [row for row in rows if row.kind != wording.CONFIRM]
        if events:
            await self._digest(events, settings)

    async def _confirmation(
        self, rows: list[OutboxItem], settings: NotificationSettings | None
    ) -> None:
        (row,) = rows
        address = str(row.details.get("email", ""))
        if self.mailer is None or settings is None or settings.email != address:
            await self._finish(rows)  # the address changed meanwhile: its link is void
            return
        link = links.confirm_url(self.settings, self.tokens.confirmation(row.user_id, address))
        try:
            said = self._said(row.user_id)
            await self.mailer.send(
                mail.confirmation(self.settings, to=address, link=link, said=said)
            )
        except Exception as error:
            NOTIFICATIONS_FAILED.labels(channel="email").inc()
            log.warning("confirmation e-mail %s not sent: %s", row.id, error)
            await self._retry(rows)
            return
        NOTIFICATIONS_SENT.labels(channel="email").inc()
        await self._finish(rows)

    async def _digest(self, rows: list[OutboxItem], settings: NotificationSettings | None) -> None:
        user_id = rows[0].user_id
        confirmation = self.settings.email_confirmation == "on"
        if self.mailer is None or not email_usable(settings, confirmation=confirmation):
            await self._finish(rows)
            return
        assert settings is not None and settings.email is not None
        chosen = [row for row in rows if wants(settings, "email", row.kind)]
        await self._finish([row for row in rows if row not in chosen])
        kept = await self._wanted(chosen)
        if not kept:
            return
        now = self._now()
        interval = timedelta(seconds=self.settings.email_digest_seconds)
        granted, last = await self._write(
            lambda s: settings_store.take_email_slot(
                session=s, user_id=user_id, now=now, interval=interval
            )
        )
        if not granted:
            # Gathered into the next e-mail, once the interval since the last one is over.
            due = (last or now) + interval
            await self._put_back([row.id for row in kept], due, failed=False)
            return
        address = settings.email
        said = self._said(user_id)
        message = mail.digest(
            self.settings,
            to=address,
            entries=self._entries(kept, said),
            said=said,
            unsubscribe=links.unsubscribe_url(
                self.settings, self.tokens.unsubscribe(user_id, address)
            ),
            manage=links.settings_url(self.settings),
        )
        try:
            await self.mailer.send(message)
        except Exception as error:
            NOTIFICATIONS_FAILED.labels(channel="email").inc()
            log.warning("e-mail to %s not sent: %s", user_id, error)
            await self._write(
                lambda s: settings_store.give_back_email_slot(
                    session=s, user_id=user_id, taken_at=now, last=last
                )
            )
            await self._retry(kept)
            return
        NOTIFICATIONS_SENT.labels(channel="email").inc()
        await self._finish(kept)

    def _entries(self, rows: list[OutboxItem], said: Words) -> list[mail.DigestEntry]:
        """One entry per table and kind of event, the latest of each, oldest first."""
        latest: dict[tuple[str | None, str], OutboxItem] = {}
        for row in sorted(rows, key=lambda r: r.id):
            latest.pop((row.room_id, row.kind), None)
            latest[(row.room_id, row.kind)] = row
        return [
            mail.DigestEntry(wording.line(row.kind, row.game, row.details, said), self._url(row))
            for row in latest.values()
        ]

    # --- webhooks -----------------------------------------------------------------------

    async def _webhook(self, rows: list[OutboxItem], settings: NotificationSettings | None) -> None:
        (row,) = rows
        if not webhook_usable(settings) or not wants(settings, "webhook", row.kind):
            await self._finish(rows)
            return
        assert settings is not None and settings.webhook_url and settings.webhook_secret
        if not await self._wanted(rows):
            return
        url = self._url(row)
        said = self._said(row.user_id)
        text = wording.with_link(wording.line(row.kind, row.game, row.details, said), url)
        raw = webhooks.body(line=text, event=row.kind, room_id=row.room_id, url=url)
        try:
            target = await check_reachable(
                settings.webhook_url, allow_private=self.settings.notify_private_addresses
            )
            await webhooks.post(
                self._http(),
                url=target,
                secret=settings.webhook_secret,
                raw=raw,
                timeout=self.settings.delivery_timeout,
            )
        except (UnsafeUrl, webhooks.WebhookFailed) as error:
            NOTIFICATIONS_FAILED.labels(channel="webhook").inc()
            said = self._said(row.user_id)
            reason = (
                said.gettext(error.message_id, **error.params)
                if isinstance(error, Worded)
                else str(error)
            )
            await self._webhook_failed(row, reason, said)
            return
        NOTIFICATIONS_SENT.labels(channel="webhook").inc()
        if settings.webhook_failures:
            await self._write(
                lambda s: settings_store.webhook_delivered(session=s, user_id=row.user_id)
            )
        await self._finish(rows)

    async def _webhook_failed(self, row: OutboxItem, reason: str, said: Words) -> None:
        limit = self.settings.webhook_max_failures
        note = said.gettext(
            N_(
                "Turned off after {limit} failed deliveries in a row (the last: {reason}). "
                "Save the URL again to turn it back on."
            ),
            limit=limit,
            reason=reason,
        )
        disabled = await self._write(
            lambda s: settings_store.webhook_failed(
                session=s, user_id=row.user_id, limit=limit, note=note
            )
        )
        if disabled:
            await self._write(
                lambda s: outbox_store.drop_pending(
                    session=s, user_id=row.user_id, channel="webhook"
                )
            )
        else:
            await self._retry([row])

    # --- Web Push -----------------------------------------------------------------------

    async def _push(self, rows: list[OutboxItem], settings: NotificationSettings | None) -> None:
        (row,) = rows
        subscription_id = int(row.details.get("subscription", 0))
        found = await self.database.call(
            push_store.push_subscription, subscription_id=subscription_id
        )
        if found is None or found.user_id != row.user_id or not wants(settings, "push", row.kind):
            await self._finish(rows)
            return
        if not await self._wanted(rows):
            return
        url = self._url(row)
        said = self._said(row.user_id, found.language)
        data = push.payload(
            title=wording.heading(row.kind, said),
            body=wording.line(row.kind, row.game, row.details, said),
            url=url,
        )
        subscription = push.Subscription(found.endpoint, found.p256dh, found.auth)
        try:
            await check_reachable(
                found.endpoint, allow_private=self.settings.notify_private_addresses
            )
            await push.send(
                self._http(),
                subscription,
                data,
                vapid=self.vapid,
                subject=self.settings.vapid_subject or self.settings.site_url(),
                timeout=self.settings.delivery_timeout,
            )
        except (push.PushGone, UnsafeUrl):
            NOTIFICATIONS_FAILED.labels(channel="push").inc()
            await self._write(
                lambda s: push_store.forget_push_subscription(
                    session=s, subscription_id=subscription_id
                )
            )
            await self._finish(rows)
            return
        except push.PushFailed as error:
            NOTIFICATIONS_FAILED.labels(channel="push").inc()
            log.info("push %s not delivered: %s", row.id, error)
            await self._retry(rows)
            return
        NOTIFICATIONS_SENT.labels(channel="push").inc()
        await self._finish(rows)
