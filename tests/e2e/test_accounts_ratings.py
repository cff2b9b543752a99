"""Accounts and ratings in a real browser: two people sign up, play a rated Cupid match,
both see both rating changes at the end, then open a player page (with its rating chart)
and the leaderboard; the match is in history with its rating changes and downloads; Ann
logs in on a second device, sees her match there, and logs out everywhere, which ends
her first session too."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.flows import api_json, play_to_end, wait_table

pytestmark = pytest.mark.e2e

PASSWORD = "correct horse battery"


def signed(n: int) -> str:
    """A rating change as the pages write it."""
    if n > 0:
        return f"+{n}"
    return f"\u2212{-n}" if n < 0 else "\u00b10"


def account_dialog(page: Page, button: str, username: str) -> None:
    page.goto("/")
    page.locator(button).click()
    page.locator("#account-username").fill(username)
    page.locator("#account-password").fill(PASSWORD)
    page.locator("#account-submit").click()
    expect(page.locator("#account-button")).to_contain_text(username)


def test_a_rated_cupid_match_between_two_accounts(pages) -> None:
    ann = pages.open("ann")
    account_dialog(ann, "#signup-btn", "Ann")
    pages.shot(ann, "signed-up")
    bob = pages.open("bob", width=390, height=844)
    account_dialog(bob, "#signup-btn", "Bob")

    # Ann opens a rated table: her name is her username, and rated is offered to accounts.
    ann.goto("/")
    expect(ann.locator("#my-name")).to_have_value("Ann")
    ann.locator('.game-choice[data-game="cupid"]').click()
    ann.locator("#opt-target").fill("25")
    ann.locator("#rated").check()
    pages.shot(ann, "rated-table-form")
    ann.locator("#create-btn").click()
    ann.wait_for_url("**/rooms/*")
    expect(ann.locator("#lobby-options")).to_contain_text("Rated")
    # A rated table offers no computer players.
    expect(ann.locator('[data-action="bot"]')).to_have_count(0)
    room_id = ann.url.rstrip("/").split("/")[-1]
    bob.goto(ann.locator("#invite-url").input_value())
    bob.locator('[data-action="sit"][data-seat="1"]').click()
    expect(bob.locator(".seat.mine")).to_contain_text("Bob")
    expect(ann.locator('.seat[data-seat="1"]')).to_contain_text("Bob")
    ann.locator("#start-btn").click()
    for page in (ann, bob):
        wait_table(page)

    play_to_end([ann, bob])
    room = api_json(ann, f"/api/rooms/{room_id}")
    record = api_json(ann, f"/api/matches/{room['match_id']}")
    assert record["rated"] and len(record["ratings"]) == 2
    # Both players see both rating changes at the end of the match.
    for page in (ann, bob):
        for change in record["ratings"]:
            shown = page.locator(f'.result [data-rating-seat="{change["seat"]}"]')
            expect(shown).to_contain_text(f"{change['before']} → {change['after']}")
            expect(shown).to_contain_text(signed(change["change"]))
    pages.shot(ann, "result-with-ratings")
    pages.shot(bob, "result-with-ratings-phone")

    # Bob's player page: his Cupid rating, its chart, the match.
    bob_change = next(c for c in record["ratings"] if c["seat"] == 1)
    ann.goto("/players/Bob")
    expect(ann.locator('[data-rating="cupid"]')).to_have_text(str(bob_change["after"]))
    expect(ann.locator('[data-chart="cupid"] svg polyline')).to_have_count(1)
    expect(ann.locator(f'.match-item[data-match="{record["id"]}"]')).to_be_visible()
    pages.shot(ann, "player-page")

    # The leaderboard, best first.
    ann.goto("/leaderboard?game=cupid")
    best_first = sorted(record["ratings"], key=lambda c: -c["after"])
    rows = ann.locator("#board tbody tr")
    expect(rows).to_have_count(2)
    for index, change in enumerate(best_first):
        name = ["Ann", "Bob"][change["seat"]]
        expect(rows.nth(index)).to_contain_text(name)
        expect(rows.nth(index).locator("[data-rating]")).to_have_text(str(change["after"]))
    pages.shot(ann, "leaderboard")

    # History: the row shows the rating changes and offers the downloads.
    ann.goto("/history")
    item = ann.locator(f'#mine .match-item[data-match="{record["id"]}"]')
    expect(item.locator(".rating-change")).to_have_count(2)
    with ann.expect_download() as download:
        item.get_by_role("link", name="Transcript").click()
    assert download.value.suggested_filename == f"parlour-cupid-{record['id']}.txt"
    pages.shot(ann, "history-rated")

    # On a second device Ann logs in and finds her match; logging out everywhere from
    # there ends the first device's session too.
    phone = pages.open("ann-phone", width=390, height=844)
    account_dialog(phone, "#login-btn", "Ann")
    phone.goto("/history")
    expect(phone.locator(f'#mine .match-item[data-match="{record["id"]}"]')).to_be_visible()
    phone.locator("#account-button").click()
    phone.locator("#logout-all-btn").click()
    expect(phone.locator("#signup-btn")).to_be_visible()
    ann.reload()
    expect(ann.locator("#signup-btn")).to_be_visible()
    expect(ann.locator("#account-button")).to_have_count(0)
