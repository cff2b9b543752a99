"""E-mail: the messages (a digest of what happened at a person's tables, an address's
confirmation link) and sending them through the SMTP server the settings name
(aiosmtplib, on the event loop: sending waits on the network, never blocks it).

Every digest carries a ``List-Unsubscribe`` header with one-click unsubscribing
(RFC 8058: ``List-Unsubscribe-Post``) and the same link in its text. Each e-mail is in its
recipient's language (``said``: the account's setting, else English).
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Protocol

import aiosmtplib

from app.config import Settings
from app.i18n.catalogues import Words
from app.i18n.marks import N_

SITE = "Parlour"


@dataclass(frozen=True)
class DigestEntry:
    """One event of a digest: its sentence and its table's link."""

    line: str
    url: str


class Mailer(Protocol):
    async def send(self, message: EmailMessage) -> None:
        """Hand the message to the mail server; raises if it was not accepted."""
        ...


class SmtpMailer:
    """Sends through SMTP_HOST:SMTP_PORT, with the TLS and login the settings ask for."""

    def __init__(self, settings: Settings) -> None:
        self._settings = settings

    async def send(self, message: EmailMessage) -> None:
        s = self._settings
        assert s.smtp_host is not None, "e-mail is only sent when SMTP_HOST is set"
        await aiosmtplib.send(
            message,
            hostname=s.smtp_host,
            port=s.smtp_port,
            username=s.smtp_username,
            password=s.smtp_password,
            use_tls=s.smtp_tls == "tls",
            start_tls=s.smtp_tls == "starttls",
            timeout=s.delivery_timeout,
        )


def _message(settings: Settings, to: str, subject: str, text: str) -> EmailMessage:
    message = EmailMessage()
    message["From"] = settings.smtp_from
    message["To"] = to
    message["Subject"] = subject
    message["Date"] = formatdate(usegmt=True)
    message["Message-ID"] = make_msgid(domain=_domain(settings.smtp_from))
    message.set_content(text)
    return message


def _domain(sender: str) -> str:
    address = sender.rsplit("<", 1)[-1].rstrip(">").strip()
    return address.rsplit("@", 1)[-1] or "localhost"


def digest(
    settings: Settings,
    *,
    to: str,
    entries: list[DigestEntry],
    unsubscribe: str,
    manage: str,
    said: Words,
) -> EmailMessage:
    """One e-mail listing every entry, each with its table's link."""
    count = len(entries)
    several = count > 1
    subject = (
        said.ngettext("{n} update from your tables", "{n} updates from your tables", count)
        if several
        else entries[0].line
    )
    lines = [
        said.ngettext("{n} of your tables needs a look:", "{n} of your tables need a look:", count)
        if several
        else ""
    ]
    for entry in entries:
        lines += [f"- {entry.line}", f"  {entry.url}", ""]
    lines += [
        "--",
        said.gettext(
            N_("You get these e-mails from {site} because you asked for them."), site=SITE
        ),
        said.gettext(N_("Choose which ones: {link}"), link=manage),
        said.gettext(N_("Unsubscribe from every e-mail (one click): {link}"), link=unsubscribe),
    ]
    text = "\n".join(lines).lstrip("\n") + "\n"
    message = _message(settings, to, f"{SITE}: {subject}", text)
    message["List-Unsubscribe"] = f"<{unsubscribe}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return message


def confirmation(settings: Settings, *, to: str, link: str, said: Words) -> EmailMessage:
    paragraphs = [
        said.gettext(
            N_("Someone (we hope you) gave this address to be told about their {site} tables."),
            site=SITE,
        ),
        said.gettext(N_("Confirm it here: {link}"), link=link),
        said.gettext(
            N_(
                "Until it is confirmed, nothing else is sent to it. If it was not you, ignore "
                "this e-mail: nothing more will come."
            )
        ),
    ]
    subject = said.gettext(N_("{site}: confirm your e-mail address"), site=SITE)
    return _message(settings, to, subject, "\n\n".join(paragraphs) + "\n")
