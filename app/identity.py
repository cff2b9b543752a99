"""Guest identities: a user id in a signed cookie, and display-name rules.

The cookie holds only the user id, signed with SECRET_KEY (itsdangerous), so it cannot be
forged; the name lives in the database and may change.
"""

from __future__ import annotations

import re
import secrets

from itsdangerous import BadSignature, URLSafeSerializer
from starlette.responses import Response

from app.config import Settings

COOKIE_MAX_AGE = 365 * 24 * 3600  # a year: a guest keeps their identity between visits

NAME_MIN, NAME_MAX = 1, 20
# Letters of any script, digits, and a few joiners; no leading/trailing or doubled spaces.
_NAME_RE = re.compile(r"^[^\W_](?:[\w.'\-]| (?! ))*$")


class InvalidName(ValueError):
    """A display name that breaks the rules; the message says which rule."""


def clean_name(raw: object) -> str:
    """Return a valid display name or raise ``InvalidName`` saying what is wrong."""
    if not isinstance(raw, str):
        raise InvalidName("Your name must be text.")
    name = raw.strip()
    if len(name) < NAME_MIN:
        raise InvalidName("Please choose a name.")
    if len(name) > NAME_MAX:
        raise InvalidName(f"Names are at most {NAME_MAX} characters.")
    if not _NAME_RE.match(name) or name.endswith(" "):
        raise InvalidName(
            "Names may use letters, digits, single spaces and . ' - and must start with a letter"
            " or digit."
        )
    return name


def new_user_id() -> str:
    return secrets.token_hex(12)


def guest_name() -> str:
    return f"Guest {secrets.randbelow(9000) + 1000}"


class CookieSigner:
    """Signs and reads the session cookie's user id."""

    def __init__(self, secret_key: str) -> None:
        self._serializer = URLSafeSerializer(secret_key, salt="parlour-session")

    def sign(self, user_id: str) -> str:
        return self._serializer.dumps(user_id)

    def read(self, cookie: str | None) -> str | None:
        if not cookie:
            return None
        try:
            value = self._serializer.loads(cookie)
        except BadSignature:
            return None
        return value if isinstance(value, str) else None


def set_session_cookie(
    response: Response, signer: CookieSigner, user_id: str, settings: Settings
) -> None:
    """Set the signed session cookie (the session call, and pages for first-time visitors)."""
    response.set_cookie(
        settings.cookie_name,
        signer.sign(user_id),
        max_age=COOKIE_MAX_AGE,
        httponly=True,
        samesite="lax",
        secure=settings.cookie_secure,
    )
