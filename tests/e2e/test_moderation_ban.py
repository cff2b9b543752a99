"""A moderator bans from the report queue in a real browser: Ann reports Bob from the
table's "Report a player" menu, the moderator (granted as ``python -m app.admin`` grants)
sees the report on /moderation and bans Bob from it, giving the reason in the page's
prompt; Bob's open room page then says why and until when."""

from __future__ import annotations

import pytest
from playwright.sync_api import Dialog, expect

from app.admin import change_role
from app.db import make_engine, make_session_factory
from tests.e2e.test_accounts_ratings import account_dialog

pytestmark = pytest.mark.e2e


def test_a_moderator_bans_from_the_report_queue(pages, server) -> None:
    ann, bob, mod = pages.open("ann"), pages.open("bob"), pages.open("mod")
    for page, username in ((ann, "Ann"), (bob, "Bob"), (mod, "Mod")):
        account_dialog(page, "#signup-btn", username)
    engine = make_engine(server.database_url)
    try:
        change_role(make_session_factory(engine), "grant", "Mod")
    finally:
        engine.dispose()

    ann.goto("/")
    ann.locator('.game-choice[data-game="cupid"]').click()
    ann.locator("#create-btn").click()
    ann.wait_for_url("**/rooms/*")
    bob.goto(ann.locator("#invite-url").input_value())
    bob.locator('[data-action="sit"][data-seat="1"]').click()
    expect(ann.locator('.seat[data-seat="1"]')).to_contain_text("Bob")

    # Ann reports Bob from the table.
    menu = ann.locator("#report-person")
    menu.locator("summary").click()
    menu.get_by_label("Reason").select_option("abuse")
    menu.get_by_label("What Bob did").fill("insults in the lobby")
    menu.get_by_role("button", name="Report Bob").click()
    expect(menu.get_by_role("status")).to_contain_text("the moderators have your report")

    # The moderator sees it and bans Bob from it, answering the prompt with the reason.
    mod.goto("/moderation")
    report = mod.locator("#reports li.report").filter(has_text="Ann reports Bob for abuse")
    expect(report).to_contain_text("insults in the lobby")

    def answer(dialog: Dialog) -> None:
        assert dialog.type == "prompt", dialog.type
        dialog.accept("abusive to other players")

    mod.once("dialog", answer)
    report.get_by_role("button", name="Ban Bob").click()
    expect(mod.locator("#reports")).to_contain_text("No open reports.")
    expect(mod.locator("#log")).to_contain_text("abusive to other players")

    # Bob's open room page was closed with 4410, told why and until when first.
    error = bob.locator("#room-error")
    expect(error).to_contain_text("A moderator banned this account")
    expect(error).to_contain_text("Reason: abusive to other players")
    expect(error).to_contain_text("until it is lifted")
    pages.shot(bob, "banned")
