"""A moderator's site-wide mute at the table in a real browser: a muted person's table talk
shows why and until when in place of the box from the moment the page opens — before they
write anything — and the box comes back the moment the mute is lifted."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from app.admin import change_role
from app.db import make_engine, make_session_factory
from tests.e2e.flows import post_json
from tests.e2e.test_accounts_ratings import account_dialog

pytestmark = pytest.mark.e2e


def test_a_muted_person_s_table_talk_says_so_before_they_write(pages: Any, server: Any) -> None:
    bob, mod = pages.open("bob"), pages.open("mod")
    for page, username in ((bob, "Bob"), (mod, "Mod")):
        account_dialog(page, "#signup-btn", username)
    engine = make_engine(server.database_url)
    try:
        change_role(make_session_factory(engine), "grant", "Mod")
    finally:
        engine.dispose()
    body = {"username": "Bob", "reason": "spam in the lobby", "minutes": 60}
    post_json(mod, "/api/moderation/mutes", body)

    bob.goto("/")
    bob.locator('.game-choice[data-game="cupid"]').click()
    bob.locator("#create-btn").click()
    bob.wait_for_url("**/rooms/*")
    note = bob.locator("#chat-note")
    expect(note).to_contain_text("A moderator muted you everywhere")
    expect(note).to_contain_text("spam in the lobby")
    expect(bob.locator("#chat-form")).to_be_hidden()

    # Lifted while Bob's page is open: the live channel says so, and the box is back.
    lifted = mod.request.delete("/api/moderation/mutes/Bob?reason=said+sorry")
    assert lifted.ok, lifted.text()
    expect(bob.locator("#chat-form")).to_be_visible()
    expect(note).to_be_hidden()
