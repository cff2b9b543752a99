"""E-mail: the messages (a digest of what happened at a person's tables, an address's
confirmation link) and sending them through the SMTP server the settings name
(aiosmtplib, on the event loop: sending waits on the network, never blocks it).

Every digest carries a ``List-Unsubscribe`` header with one-click unsubscribing
(RFC 8058: ``List-Unsubscribe-Post``) and the same link in its text.
"""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from typing import Protocol

import aiosmtplib

from app.config import Settings

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
) -> EmailMessage:
    """One e-mail listing every entry, each with its table's link."""
    several = len(entries) > 1
    subject = f"{len(entries)} updates from your tables" if several else entries[0].line
    lines = [f"{len(entries)} of your tables need a look:" if several else ""]
    for entry in entries:
        lines += [f"- {entry.line}", f"  {entry.url}", ""]
    lines += [
        "--",
        f"You get these e-mails from {SITE} because you asked for them.",
        f"Choose which ones: {manage}",
        f"Unsubscribe from every e-mail (one click): {unsubscribe}",
    ]
    message = _message(settings, to, f"{SITE}: {subject}", "\n".join(lines).lstrip("\n") + "\n")
    message["List-Unsubscribe"] = f"<{unsubscribe}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    return message


def confirmation(settings: Settings, *, to: str, link: str) -> EmailMessage:
    text = (
        f"Someone (we hope you) gave this address to be told about their {SITE} tables.\n\n"
        f"Confirm it here: {link}\n\n"
        "Until it is confirmed, nothing else is sent to it. If it was not you, ignore this "
        "e-mail: nothing more will come.\n"
    )
    return _message(settings, to, f"{SITE}: confirm your e-mail address", text)
