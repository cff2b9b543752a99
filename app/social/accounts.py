"""Finding the account a username names, as friends, invitations and blocks need it."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.i18n.marks import N_
from app.models import User
from app.people.lookup import user_by_name
from app.refusal import Refusal


def player_not_found(username: str) -> Refusal:
    """The answer for an unknown name — and for someone who blocked the asker, so that a
    block cannot be told from a name nobody has."""
    return Refusal(
        "player_not_found", N_("There is no player called {username}."), 404, username=username
    )


USERNAME_MAX = 40  # as a username in a request body (app/http/schemas.py)


def account_named(session: Session, username: str) -> User:
    """The account ``username`` names (look-alike spellings find it too); 404 otherwise,
    and 422 ``bad_request`` for a name longer than any username (not repeated back)."""
    if len(username) > USERNAME_MAX:
        raise Refusal(
            "bad_request",
            N_("username: A username has at most {most} characters."),
            422,
            most=USERNAME_MAX,
        )
    user = user_by_name(session=session, name=username.strip())
    if user is None or user.username is None:
        raise player_not_found(username)
    return user


def not_yourself(user: User, me: str, message_id: str) -> None:
    if user.id == me:
        raise Refusal("not_yourself", message_id, 422)
