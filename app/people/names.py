"""The session cookie, and the rules for display names, usernames and passwords.

The cookie holds only a session id (app/auth.py), signed with SECRET_KEY (itsdangerous),
so it cannot be forged; the session lives in the database and can be revoked, and the
person's name lives there too and may change.
"""

from __future__ import annotations

import re
import secrets
import unicodedata

from itsdangerous import BadSignature, URLSafeSerializer
from starlette.responses import Response

from app.config import Settings

NAME_MIN, NAME_MAX = 1, 20
# Letters of any script, digits, and a few joiners; no leading/trailing or doubled spaces.
_NAME_RE = re.compile(r"^[^\W_](?:[\w.'\-]| (?! ))*$")
USERNAME_MIN, USERNAME_MAX = 3, 20
# Usernames appear in addresses (/players/Ann): letters of any script, digits, . _ -.
_USERNAME_RE = re.compile(r"^[^\W_][\w.\-]*$")
PASSWORD_MIN, PASSWORD_MAX = 8, 128


class InvalidName(ValueError):
    """A display name or username that breaks the rules; the message says which rule."""


class InvalidPassword(ValueError):
    """A password that breaks the rules; the message says which rule."""


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


def clean_username(raw: object) -> str:
    """Return a valid username or raise ``InvalidName`` saying what is wrong."""
    if not isinstance(raw, str):
        raise InvalidName("Your username must be text.")
    name = unicodedata.normalize("NFC", raw.strip())
    if not USERNAME_MIN <= len(name) <= USERNAME_MAX:
        raise InvalidName(f"Usernames are {USERNAME_MIN} to {USERNAME_MAX} characters.")
    if not _USERNAME_RE.match(name):
        raise InvalidName(
            "Usernames may use letters, digits and . _ - and must start with a letter or digit."
        )
    return name


def check_password(raw: object) -> str:
    """Return the password if it is acceptable, or raise ``InvalidPassword`` saying why."""
    if not isinstance(raw, str):
        raise InvalidPassword("Your password must be text.")
    if len(raw) < PASSWORD_MIN:
        raise InvalidPassword(f"Passwords are at least {PASSWORD_MIN} characters.")
    if len(raw) > PASSWORD_MAX:
        raise InvalidPassword(f"Passwords are at most {PASSWORD_MAX} characters.")
    return raw


def new_user_id() -> str:
    return secrets.token_hex(12)


def guest_name() -> str:
    return f"Guest {secrets.randbelow(9000) + 1000}"


class CookieSigner:
    """Signs and reads the session cookie's session id."""

    def __init__(self, secret_key: str) -> None:
        # The salt is the one the cookie had when it held a user id: the migration gave
        # every guest a session with their user id as its id, so old cookies still work.
        self._serializer = URLSafeSerializer(secret_key, salt="parlour-session")

    def sign(self, session_id: str) -> str:
        return self._serializer.dumps(session_id)

    def read(self, cookie: str | None) -> str | None:
        if not cookie:
            return None
        try:
            value = self._serializer.loads(cookie)
        except BadSignature:
            return None
        return value if isinstance(value, str) else None


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
