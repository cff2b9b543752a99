"""Friends and invitations in a real browser: Ada asks Bob to be her friend from the
friends page, Bob accepts from his (told at once, on the live channel), Ada opens a table
and invites Bob by name from its lobby; Bob's open page shows the invitation at once, he
accepts it, is taken to his seat, and they play the match to its end."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.flows import play_to_end, wait_table

pytestmark = pytest.mark.e2e

PASSWORD = "correct horse battery"


def sign_up(page: Page, username: str) -> None:
    page.goto("/")
    page.locator("#signup-btn").click()
    page.locator("#account-username").fill(username)
    page.locator("#account-password").fill(PASSWORD)
    page.locator("#account-submit").click()
    expect(page.locator("#account-button")).to_contain_text(username)


def test_ada_befriends_bob_invites_him_and_they_play(pages) -> None:
    ada, bob = pages.open("ada"), pages.open("bob", width=390, height=844)
    sign_up(ada, "Ada")
    sign_up(bob, "Bob")

    # Bob waits on his friends page, its live channel open.
    bob.locator("#friends-link").click()
    expect(bob.locator("body")).to_have_attribute("data-live", "open")
    ada.locator("#friends-link").click()
    ada.locator("#ask-name").fill("Bob")
    ada.locator("#ask-btn").click()
    expect(ada.locator("#outgoing")).to_contain_text("Bob")

    # The ask reaches Bob's open page: a notice, and the list refreshed.
    expect(bob.locator(".live-notice")).to_contain_text("Ada asks to be your friend.")
    asking = bob.locator('#incoming .person[data-username="Ada"]')
    asking.get_by_role("button", name="Accept").click()
    expect(bob.locator('#friends .person[data-username="Ada"]')).to_be_visible()
    expect(ada.locator(".live-notice")).to_contain_text("Bob is now your friend.")
    friend = ada.locator('#friends .person[data-username="Bob"]')
    expect(friend).to_have_attribute("data-online", "true")
    pages.shot(ada, "friends")

    # Ada opens a short Cupid table and invites Bob from its lobby.
    ada.goto("/")
    ada.locator('.game-choice[data-game="cupid"]').click()
    ada.locator("#opt-target").fill("25")
    ada.locator("#create-btn").click()
    ada.wait_for_url("**/rooms/*")
    room_id = ada.url.rstrip("/").split("/")[-1]
    ada.locator("#invite-name").fill("Bob")
    ada.locator("#invite-btn").click()
    expect(ada.locator("#invite-status")).to_have_text("Invited Bob.")

    # Bob, still on his friends page, sees it at once and accepts: he is at the table.
    invitation = bob.locator(".live-notice[data-invitation]")
    expect(invitation).to_contain_text("Ada invites you to a seat at Cupid.")
    pages.shot(bob, "invitation")
    invitation.get_by_role("button", name="Accept").click()
    bob.wait_for_url(f"**/rooms/{room_id}")
    expect(bob.locator(".seat.mine")).to_contain_text("Bob")
    expect(ada.locator('.seat[data-seat="1"]')).to_contain_text("Bob")
    expect(ada.locator(".live-notice")).to_contain_text("Bob accepted your invitation.")

    ada.locator("#start-btn").click()
    for page in (ada, bob):
        wait_table(page)
    assert play_to_end([ada, bob]) > 0
    for page in (ada, bob):
        expect(page.locator(".table .result")).to_be_visible()
