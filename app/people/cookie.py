"""The session cookie: a session id signed with SECRET_KEY (itsdangerous).

The cookie holds only a session id (app/people/sessions.py), signed so that it cannot be
forged; the session lives in the database and can be revoked.
"""

from __future__ import annotations

from itsdangerous import BadSignature, URLSafeSerializer
from starlette.responses import Response

from app.config import Settings

# Good cookies kept with what they hold (CookieSigner.read).
KEPT_COOKIES = 10_000


class CookieSigner:
    """Signs and reads a cookie's value: the session cookie's session id, or (with a salt of
    its own, so that one can never pass for the other) the browser's mark."""

    # The salt is the one the cookie had when it held a user id: the migration gave every
    # guest a session with their user id as its id, so old cookies still work.
    def __init__(self, secret_key: str, salt: str = "parlour-session") -> None:
        self._serializer = URLSafeSerializer(secret_key, salt=salt)
        # Cookies read and found good, with what they hold: a browser sends the same one
        # with every request and socket, and checking its signature (an HMAC, base64 and
        # JSON) costs more than looking it up. Emptied when full.
        self._read: dict[str, str] = {}

    def sign(self, session_id: str) -> str:
        return self._serializer.dumps(session_id)

    def read(self, cookie: str | None) -> str | None:
        if not cookie:
            return None
        value = self._read.get(cookie)
        if value is not None:
            return value
        try:
            loaded = self._serializer.loads(cookie)
        except BadSignature:
            return None
        if not isinstance(loaded, str):
            return None
        if len(self._read) >= KEPT_COOKIES:
            self._read.clear()
        self._read[cookie] = loaded
        return loaded


def set_session_cookie(
    response: Response, signer: CookieSigner, session_id: str, settings: Settings, max_age: int
) -> None:
    """Set the signed session cookie, to last ``max_age`` seconds (as long as the session)."""
    response.set_cookie(
        settings.cookie_name,
        signer.sign(session_id),
        max_age=max_age,
        httponly=True,
        samesite="lax",
        secure=settings.cookie_secure,
    )


def clear_session_cookie(response: Response, settings: Settings) -> None:
    response.delete_cookie(
        settings.cookie_name, httponly=True, samesite="lax", secure=settings.cookie_secure
    )
