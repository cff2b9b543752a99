"""Accounts over HTTP: sign up (the guest becomes the account, keeping every match), log
in, log out, and log out everywhere.

Passwords are hashed with argon2 (app/people/passwords.py) on the hashing pool's own
threads (app/people/hashing_pool.py). Sign-ups are limited per address, and failed logins
per account and address, per address and per account (app/limits/quotas.py), before any
password is hashed: a login attempt is counted before its password is checked, and given
back if it was right. Signing up and logging in replace the caller's session with a new
one, so a session id seen before never names an account.
"""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request, Response, status
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session, sessionmaker

from app import store
from app.http.deps import (
    AppSettings,
    Auth,
    CurrentAccount,
    CurrentUser,
    Hashing,
    Limits,
    MaybeUser,
    SessionOrigin,
    Signer,
    client_address,
)
from app.http.schemas import AccountIn, LanguageIn, LoginIn
from app.i18n.languages import LANGUAGES
from app.i18n.marks import N_
from app.models import User
from app.moderation.sanctions import refuse_if_banned
from app.observability.context import person
from app.people.confusables import name_key
from app.people.cookie import clear_session_cookie, set_session_cookie
from app.people.lookup import user_by_name
from app.people.names import (
    PASSWORD_MAX,
    InvalidName,
    InvalidPassword,
    check_password,
    clean_username,
)
from app.people.sessions import Identity, Origin, lifetime, open_session
from app.refusal import Refusal
from app.routes.sessions import who

router = APIRouter(prefix="/api")

USERNAME_TAKEN = N_("That username is taken (or looks too much like one that is).")
TYPED_MAX = 4 * PASSWORD_MAX


def _make_account(
    sessions: sessionmaker[Session],
    guest: Identity,
    username: str,
    password_hash: str,
    origin: Origin,
) -> Identity:
    """The guest's row becomes the account; its session is replaced. One transaction."""
    key = name_key(username)
    with sessions() as session:
        # In any case: "ALICE" is taken by "alice", though its stored key would differ.
        if user_by_name(session=session, name=username) is not None:
            raise Refusal("username_taken", USERNAME_TAKEN, 409)
        user = session.get(User, guest.id)
        assert user is not None, "a session's user exists"
        user.username, user.username_key, user.name = username, key, username
        user.password_hash = password_hash
        store.close_session(session=session, session_id=guest.session_id)
        session_id, expires_at = open_session(session, user.id, is_account=True, origin=origin)
        try:
            session.commit()
        except IntegrityError:  # another sign-up took the key meanwhile
            raise Refusal("username_taken", USERNAME_TAKEN, 409) from None
    return Identity(guest.id, username, username, session_id, expires_at)


@router.post("/accounts", status_code=status.HTTP_201_CREATED)
async def sign_up(
    body: AccountIn,
    request: Request,
    response: Response,
    user: CurrentUser,
    auth: Auth,
    limits: Limits,
    hashing: Hashing,
    signer: Signer,
    settings: AppSettings,
    origin: SessionOrigin,
) -> dict[str, Any]:
    """Turn the caller's guest identity into an account, keeping every match it played."""
    if user.is_account:
        raise Refusal("already_account", N_("You are logged in to an account already."), 409)
    try:
        username = clean_username(body.username)
        password = check_password(body.password)
    except InvalidName as error:
        raise Refusal("bad_username", error.message_id, 422, **error.params) from None
    except InvalidPassword as error:
        raise Refusal("bad_password", error.message_id, 422, **error.params) from None
    await limits.sign_up(client_address(request))
    password_hash = await hashing.hash(password)
    account = await asyncio.to_thread(
        _make_account, auth.sessions, user, username, password_hash, origin
    )
    auth.forget_user(user.id)
    max_age = int(lifetime(True).total_seconds())
    set_session_cookie(response, signer, account.session_id, settings, max_age)
    return who(account)


def _find_account(sessions: sessionmaker[Session], username: str) -> User | None:
    with sessions() as session:
        return user_by_name(session=session, name=username)


def _log_in(
    sessions: sessionmaker[Session],
    user: User,
    new_hash: str | None,
    old_session: str | None,
    origin: Origin,
) -> Identity:
    with sessions() as session:
        # A banned account is told why and until when, once its password is right.
        refuse_if_banned(session, user.id)
        if new_hash is not None:  # the hashing parameters changed since it was made
            row = session.get(User, user.id)
            assert row is not None
            row.password_hash = new_hash
        if old_session is not None:
            store.close_session(session=session, session_id=old_session)
        session_id, expires_at = open_session(session, user.id, is_account=True, origin=origin)
        session.commit()
    return Identity(
        user.id, user.name, user.username, session_id, expires_at, language=user.language
    )


@router.post("/login")
async def log_in(
    body: LoginIn,
    request: Request,
    response: Response,
    user: MaybeUser,
    auth: Auth,
    limits: Limits,
    hashing: Hashing,
    signer: Signer,
    settings: AppSettings,
    origin: SessionOrigin,
) -> dict[str, Any]:
    """Sign this browser in to an account (its guest session, if any, ends)."""
    typed, address = body.username.strip(), client_address(request)
    account = await asyncio.to_thread(_find_account, auth.sessions, typed)
    # Failures are counted against the account found, whatever the case it was typed in,
    # so that trying "ALICE" as well as "alice" gives no more attempts at it.
    key = account.username_key if account is not None and account.username_key else None
    key = key or name_key(typed.casefold())
    await limits.login(key, address)
    stored = account.password_hash if account is not None else None
    # No password longer than PASSWORD_MAX was ever accepted: hash little more than that.
    # Typed in another normal form (accents as combining marks, say) the same password may
    # be a few times longer.
    password = body.password[: TYPED_MAX + 1]
    ok, new_hash = await hashing.verify(password, stored)
    if not ok or account is None:
        raise Refusal("bad_login", N_("Wrong username or password."), 401)
    # Only failures count: the owner logging in often is no reason to slow them down.
    await limits.logged_in(key, address)
    old = user.session_id if user is not None else None
    signed_in = await asyncio.to_thread(_log_in, auth.sessions, account, new_hash, old, origin)
    person(signed_in.id)
    if user is not None:
        auth.forget_user(user.id)
    max_age = int(lifetime(True).total_seconds())
    set_session_cookie(response, signer, signed_in.session_id, settings, max_age)
    return who(signed_in)


def _end_sessions(sessions: sessionmaker[Session], user: Identity, everywhere: bool) -> int:
    with sessions() as session:
        if everywhere:
            ended = store.close_user_sessions(session=session, user_id=user.id)
        else:
            store.close_session(session=session, session_id=user.session_id)
            ended = 1
        session.commit()
    return ended


@router.post("/logout")
async def log_out(
    response: Response, user: CurrentAccount, auth: Auth, settings: AppSettings
) -> dict[str, Any]:
    """End this browser's session."""
    ended = await asyncio.to_thread(_end_sessions, auth.sessions, user, False)
    auth.forget_user(user.id)
    clear_session_cookie(response, settings)
    return {"sessions_ended": ended}


@router.post("/logout/everywhere")
async def log_out_everywhere(
    response: Response, user: CurrentAccount, auth: Auth, settings: AppSettings
) -> dict[str, Any]:
    """End every session of the account, in every browser."""
    ended = await asyncio.to_thread(_end_sessions, auth.sessions, user, True)
    auth.forget_user(user.id)
    clear_session_cookie(response, settings)
    return {"sessions_ended": ended}


def _set_language(sessions: sessionmaker[Session], user_id: str, language: str | None) -> None:
    with sessions() as session:
        store.set_language(session=session, user_id=user_id, language=language)


@router.put("/me/language")
async def set_language(body: LanguageIn, user: CurrentAccount, auth: Auth) -> dict[str, Any]:
    """The account's language: its pages, errors, sockets, e-mails and notifications speak
    it from now on, in every browser (``null``: the request's own again)."""
    if body.language is not None and body.language not in LANGUAGES:
        raise Refusal(
            "bad_language",
            N_("Parlour speaks {languages}; {language} is not one of them."),
            422,
            languages=", ".join(LANGUAGES),
            language=body.language,
        )
    await asyncio.to_thread(_set_language, auth.sessions, user.id, body.language)
    auth.forget_user(user.id)
    return {"language": body.language}
