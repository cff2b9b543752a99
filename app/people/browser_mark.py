"""The browser's mark: a signed random id in a cookie of its own, kept across logouts.

A session cookie ends with its session; the mark stays with the browser (a year, renewed
whenever a session is opened), so a fresh guest made in a browser that held another
identity can be told to come from the same browser. Each session records the mark of the
browser it was opened in (app/people/sessions.py); a mute at a table covers the browsers
of the muted person's sessions (app/chat/mutes.py). The mark names no one and opens
nothing: it is never a session id (it is signed with a salt of its own).
"""

from __future__ import annotations

import secrets
from collections.abc import Mapping

from starlette.responses import Response

from app.config import Settings
from app.people.cookie import CookieSigner

BROWSER_COOKIE = "parlour_browser"
MARK_SECONDS = 365 * 24 * 3600


class BrowserMarks:
    """Reads and hands out browser marks."""

    def __init__(self, secret_key: str) -> None:
        self._signer = CookieSigner(secret_key, salt="parlour-browser")

    def read(self, cookies: Mapping[str, str]) -> str | None:
        """The mark the browser holds (None: none, or not one of ours)."""
        return self._signer.read(cookies.get(BROWSER_COOKIE))

    def keep(self, cookies: Mapping[str, str], response: Response, settings: Settings) -> str:
        """The browser's mark, a new one if it holds none; (re)set on ``response``."""
        mark = self.read(cookies) or secrets.token_urlsafe(16)
        response.set_cookie(
            BROWSER_COOKIE,
            self._signer.sign(mark),
            max_age=MARK_SECONDS,
            httponly=True,
            samesite="lax",
            secure=settings.cookie_secure,
        )
        return mark
