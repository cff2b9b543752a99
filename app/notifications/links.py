"""The absolute links notifications carry: a table, an e-mail's unsubscribe link, an
address's confirmation link. PUBLIC_URL says where people reach the site."""

from __future__ import annotations

from urllib.parse import quote

from app.config import Settings

UNSUBSCRIBE_PATH = "/notifications/unsubscribe"
CONFIRM_PATH = "/notifications/confirm"


def table_url(settings: Settings, room_id: str) -> str:
    return f"{settings.site_url()}/rooms/{quote(room_id, safe='')}"


def unsubscribe_url(settings: Settings, token: str) -> str:
    return f"{settings.site_url()}{UNSUBSCRIBE_PATH}?token={quote(token, safe='')}"


def confirm_url(settings: Settings, token: str) -> str:
    return f"{settings.site_url()}{CONFIRM_PATH}?token={quote(token, safe='')}"


def settings_url(settings: Settings) -> str:
    return f"{settings.site_url()}/notifications"
