"""People who stop playing, in a real browser: at a Cupid table with the clock at 5+0, Bob
stops playing. His plate counts his turn down (urgent in the last seconds); when it runs
out the computer moves for him; after two such moves a computer takes his seat, his page
says why and offers "Take back my seat", and he takes it back and plays on."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Page, expect

from tests.e2e.flows import STATES, act_once, api_json, pace, post_json, wait_table

pytestmark = pytest.mark.e2e


def timeouts_seen(page: Page, seat: int) -> int:
    """The most timeouts in a row the page's state messages showed for ``seat``."""
    return max(
        (m["clocks"][seat]["timeouts"] for m in STATES.get(page, {}).values() if m["clocks"]),
        default=0,
    )


def test_a_clock_plays_for_an_idle_player_who_then_takes_the_seat_back(pages) -> None:
    ann, bob = pages.open("ann"), pages.open("bob")
    for page in (ann, bob):
        pace(page, 40)
    ann.goto("/")
    expect(ann.locator("#clock option")).to_have_count(4)  # no clock and three presets
    post_json(ann, "/api/session", {"name": "Ann"})
    # Bob's seat leads the first trick, so his clock runs from the start.
    body = {"game": "cupid", "clock": {"turn": 5, "bank": 0}, "options": {"dealer": 1}}
    room_id = str(post_json(ann, "/api/rooms", body)["id"])
    ann.goto(f"/rooms/{room_id}")
    bob.goto(f"/rooms/{room_id}")
    bob.locator("#sit-name").fill("Bob")
    bob.locator('[data-action="sit"][data-seat="1"]').click()
    expect(ann.locator('.seat[data-seat="1"]')).to_contain_text("Bob")
    ann.locator("#start-btn").click()
    for page in (ann, bob):
        wait_table(page)

    # Bob does nothing. Ann plays her turns; the clock plays Bob's, and after two in a row
    # a computer takes his seat. Meanwhile Bob's plate, on Ann's table, counts his turns
    # down (urgent all along: 5 s is under the last 10).
    bob_plate = ann.locator('.opponents .plate[data-seat="1"]')
    countdowns: list[str] = []
    deadline = time.monotonic() + 90
    while bob_plate.locator(".badge.computer").count() == 0:
        assert time.monotonic() < deadline, "a computer never took Bob's seat"
        clock = bob_plate.locator(".clock.urgent")
        if clock.count():
            try:
                countdowns.append(clock.first.inner_text(timeout=1_000))
            except PlaywrightError:  # redrawn meanwhile: look again
                continue
            if len(countdowns) == 1:
                pages.shot(ann, "bob-on-the-clock")
        if not act_once(ann):
            ann.wait_for_timeout(100)
    assert countdowns, "Bob's plate never showed his turn's countdown"
    assert all(re.fullmatch(r"0:0[0-5]", shown) for shown in countdowns), countdowns
    expect(bob_plate.locator(".badge.computer")).to_contain_text("for Bob")
    pages.shot(ann, "computer-for-bob")

    # Bob's page says why he only watches now, and offers his seat back.
    take_back = bob.get_by_role("button", name="Take back my seat")
    expect(take_back).to_be_visible(timeout=20_000)
    expect(bob.locator(".reclaim")).to_contain_text("Your time ran out twice")
    # What his page was sent says so too: the clock played two of his moves in a row.
    deadline = time.monotonic() + 20
    while timeouts_seen(bob, 1) < 2:
        assert time.monotonic() < deadline, "Bob's page never heard of a second timeout"
        bob.wait_for_timeout(50)
    assert timeouts_seen(bob, 1) == 2
    expect(bob.locator(".hand")).to_have_count(0)
    pages.shot(bob, "take-back-offered")
    take_back.click()
    expect(bob.locator(".mine .plate")).to_contain_text("Bob")
    expect(bob.locator(".mine .plate")).to_contain_text("(you)")
    expect(bob.locator(".hand .card").first).to_be_visible()
    expect(bob_plate.locator(".badge.computer")).to_have_count(0)

    # Bob plays a move of his own again.
    deadline = time.monotonic() + 60
    while not act_once(bob):
        assert time.monotonic() < deadline, "Bob never got to play again"
        if not act_once(ann):
            bob.wait_for_timeout(100)
    pages.shot(bob, "bob-back")
    room = api_json(ann, f"/api/rooms/{room_id}")
    assert room["seats"][1]["bot"] is None and room["seats"][1]["name"] == "Bob"
