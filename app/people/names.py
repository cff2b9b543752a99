"""The rules for display names, usernames and passwords, and new people's ids and names.

A person's name lives in the database and may change; the session cookie
(app/people/cookie.py) carries none of it. A name holds no character that shows nothing
(app/invisible.py): the Hangul fillers are letters to the patterns below, yet a name of
them looks blank, and one beside letters looks like another name.
"""

from __future__ import annotations

import re
import secrets
import unicodedata

from app.i18n.marks import N_, Worded
from app.invisible import described, first_invisible

NAME_MIN, NAME_MAX = 1, 20
# Letters of any script, digits, and a few joiners; no leading/trailing or doubled spaces.
_NAME_RE = re.compile(r"^[^\W_](?:[\w.'\-]| (?! ))*$")
USERNAME_MIN, USERNAME_MAX = 3, 20
# Usernames appear in addresses (/players/Ann): letters of any script, digits, . _ -.
_USERNAME_RE = re.compile(r"^[^\W_][\w.\-]*$")
PASSWORD_MIN, PASSWORD_MAX = 8, 128


class InvalidName(Worded):
    """A display name or username that breaks the rules; the message says which rule."""


class InvalidPassword(Worded):
    """A password that breaks the rules; the message says which rule."""


def _refuse_invisible(name: str, message_id: str) -> None:
    hidden = first_invisible(name)
    if hidden is not None:
        raise InvalidName(message_id, character=described(hidden))


def clean_name(raw: object) -> str:
    """Return a valid display name or raise ``InvalidName`` saying what is wrong."""
    if not isinstance(raw, str):
        raise InvalidName(N_("Your name must be text."))
    name = raw.strip()
    if len(name) < NAME_MIN:
        raise InvalidName(N_("Please choose a name."))
    if len(name) > NAME_MAX:
        raise InvalidName(N_("Names are at most {most} characters."), most=NAME_MAX)
    _refuse_invisible(name, N_("Names may not hold invisible characters ({character})."))
    if not _NAME_RE.match(name) or name.endswith(" "):
        raise InvalidName(
            N_(
                "Names may use letters, digits, single spaces and . ' - and must start with a "
                "letter or digit."
            )
        )
    return name


def clean_username(raw: object) -> str:
    """Return a valid username or raise ``InvalidName`` saying what is wrong."""
    if not isinstance(raw, str):
        raise InvalidName(N_("Your username must be text."))
    name = unicodedata.normalize("NFC", raw.strip())
    if not USERNAME_MIN <= len(name) <= USERNAME_MAX:
        raise InvalidName(
            N_("Usernames are {least} to {most} characters."), least=USERNAME_MIN, most=USERNAME_MAX
        )
    _refuse_invisible(name, N_("Usernames may not hold invisible characters ({character})."))
    if not _USERNAME_RE.match(name):
        raise InvalidName(
            N_("Usernames may use letters, digits and . _ - and must start with a letter or digit.")
        )
    return name


def check_password(raw: object) -> str:
    """Return the password if it is acceptable, or raise ``InvalidPassword`` saying why."""
    if not isinstance(raw, str):
        raise InvalidPassword(N_("Your password must be text."))
    if len(raw) < PASSWORD_MIN:
        raise InvalidPassword(N_("Passwords are at least {least} characters."), least=PASSWORD_MIN)
    if len(raw) > PASSWORD_MAX:
        raise InvalidPassword(N_("Passwords are at most {most} characters."), most=PASSWORD_MAX)
    return raw


def new_user_id() -> str:
    return secrets.token_hex(12)


def guest_name() -> str:
    return f"Guest {secrets.randbelow(9000) + 1000}"
