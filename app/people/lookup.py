"""Finding the account a typed username means: in any case, and in look-alike spellings."""

from __future__ import annotations

from sqlalchemy.orm import Session

from app.models import User
from app.people.confusables import name_key, name_keys
from app.store.people import users_by_username_keys


def user_by_name(*, session: Session, name: str) -> User | None:
    """The account a typed username names, in any case and in look-alike spellings.

    First the account with the name's own key, then the one with its case-folded
    spelling's key ("ALICE" finds "alice"), then one whose stored key took a capital I for
    an l and whose username, case-folded, has the name's key ("ivan" finds "Ivan", stored
    as "lvan", but not "lvan" itself). Stored keys are left as they are
    (app/people/confusables.py, ``name_keys``)."""
    own, folded = name_keys(name)
    capital = name_key(name.upper())
    found = users_by_username_keys(session=session, keys={own, folded, capital})
    for key in (own, folded):
        if key in found:
            return found[key]
    user = found.get(capital)
    if user is not None and user.username and name_key(user.username.casefold()) == folded:
        return user
    return None
