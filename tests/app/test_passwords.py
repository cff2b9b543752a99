"""Passwords: the same password typed in another Unicode normal form is the same password
(old hashes, made from the password as typed, still verify and are stored again in the
normal form); and hashing runs on a bounded pool of its own, where a request waits for a
free thread or, past a short queue, is refused at once.
"""

from __future__ import annotations

import asyncio
import threading
import unicodedata
from pathlib import Path

import pytest
from pwdlib import PasswordHash
from sqlalchemy import select

from app.db import make_engine, make_session_factory
from app.models import User
from app.people.hashing_pool import HashingPool
from app.refusal import Refusal
from tests.app.helpers import PASSWORD, NewClient, account, make_app, running
from tests.app.test_api import error_of

COMPOSED = "Caf\u00e9 cr\u00e8me 2026"  # é and è as one character each
DECOMPOSED = unicodedata.normalize("NFD", COMPOSED)  # e and a combining accent
FULLWIDTH = "\uff23af\u00e9 cr\u00e8me \uff12\uff10\uff12\uff16"  # full-width C and digits


def test_a_password_typed_in_another_normal_form_logs_in(new_client: NewClient) -> None:
    assert DECOMPOSED != COMPOSED
    account(new_client, "Ann", COMPOSED)
    for typed in (DECOMPOSED, FULLWIDTH, COMPOSED):
        browser = new_client(None)
        response = browser.post("/api/login", json={"username": "Ann", "password": typed})
        assert response.status_code == 200, (typed, response.text)
    wrong = new_client(None).post(
        "/api/login", json={"username": "Ann", "password": "Cafe creme 2026"}
    )
    error_of(wrong, 401, "bad_login")
    # A long password with many accents is twice as long decomposed: still the same.
    accents = "\u00e9" * 100
    account(new_client, "Eve", accents)
    decomposed = unicodedata.normalize("NFD", accents)
    assert len(decomposed) == 200
    login = new_client(None).post("/api/login", json={"username": "Eve", "password": decomposed})
    assert login.status_code == 200, login.text


def stored_hash(database_url: str, username: str) -> str:
    engine = make_engine(database_url)
    with make_session_factory(engine)() as session:
        found = session.scalars(select(User.password_hash).where(User.username == username))
        stored = found.one()
    engine.dispose()
    assert stored is not None
    return stored


def store_hash(database_url: str, username: str, password_hash: str) -> None:
    engine = make_engine(database_url)
    with make_session_factory(engine)() as session:
        user = session.scalars(select(User).where(User.username == username)).one()
        user.password_hash = password_hash
        session.commit()
    engine.dispose()


def test_a_hash_of_the_password_as_typed_still_verifies_and_is_made_again_normalised(
    database_url: str, tmp_path: Path
) -> None:
    hasher = PasswordHash.recommended()
    with running(make_app(database_url, tmp_path)) as new_client:
        account(new_client, "Bea", "placeholder password")
        # As a server that did not normalise would have stored it.
        store_hash(database_url, "Bea", hasher.hash(DECOMPOSED))

        first = new_client(None).post(
            "/api/login", json={"username": "Bea", "password": DECOMPOSED}
        )
        assert first.status_code == 200, first.text
        renewed = stored_hash(database_url, "Bea")
        assert hasher.verify(COMPOSED, renewed)
        assert not hasher.verify(DECOMPOSED, renewed)
        # Any form now logs in, and the right form needs no new hash.
        for typed in (COMPOSED, DECOMPOSED):
            again = new_client(None).post("/api/login", json={"username": "Bea", "password": typed})
            assert again.status_code == 200, again.text
        assert stored_hash(database_url, "Bea") == renewed


def test_the_hashing_pool_runs_so_many_at_once_queues_a_few_and_refuses_the_rest() -> None:
    async def scenario() -> None:
        pool = HashingPool(workers=1, queue=1)
        first_started, release, second_started = (threading.Event() for _ in range(3))

        def first() -> str:
            first_started.set()
            release.wait(30)
            return "first"

        def second() -> str:
            second_started.set()
            return "second"

        running_one = asyncio.ensure_future(pool.run(first))
        await asyncio.to_thread(first_started.wait, 30)
        # Tasks start in the order they were made: the second is admitted before the third.
        waiting = asyncio.ensure_future(pool.run(second))
        third = asyncio.ensure_future(pool.run(second))
        with pytest.raises(Refusal) as refused:
            await third
        assert pool.admitted == 2
        assert (refused.value.code, refused.value.status) == ("busy", 503)
        # One thread: the waiting one has not started while the first holds it.
        assert not second_started.is_set()
        release.set()
        assert await running_one == "first"
        assert await waiting == "second"
        assert pool.admitted == 0
        assert await pool.run(second) == "second"
        pool.close()

    asyncio.run(scenario())


def test_sign_ups_and_logins_past_the_hashing_queue_are_refused_and_change_nothing(
    database_url: str, tmp_path: Path
) -> None:
    app = make_app(database_url, tmp_path, hash_workers=1, hash_queue=0)
    with running(app) as new_client:
        account(new_client, "Cyd")
        guest = new_client("Dot")
        started, release = threading.Event(), threading.Event()

        def hold_the_thread() -> None:
            started.set()
            release.wait(30)

        held = guest.portal.start_task_soon(app.state.hashing.run, hold_the_thread)
        assert started.wait(30)
        signing_up = guest.post(
            "/api/accounts", json={"username": "Dora", "password": "a long password"}
        )
        error_of(signing_up, 503, "busy")
        assert guest.get("/api/session").json()["username"] is None
        logging_in = new_client(None).post(
            "/api/login", json={"username": "Cyd", "password": PASSWORD}
        )
        error_of(logging_in, 503, "busy")
        release.set()
        held.result(30)
        signed_up = guest.post(
            "/api/accounts", json={"username": "Dora", "password": "a long password"}
        )
        assert signed_up.status_code == 201, signed_up.text
