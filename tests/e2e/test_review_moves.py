"""The review's list of moves in a real browser: every move is listed in the server's words,
a click shows it, the arrow keys, Home and End move between entries and show each (one entry
in the Tab order, the one shown marked aria-current), and each entry has a place for marks."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.accessibility import assert_accessible
from tests.e2e.flows import api_json, create_room, pace, play_to_end, wait_table

pytestmark = pytest.mark.e2e


def test_the_move_list_is_clickable_and_keyboard_navigable(pages: Any) -> None:
    ivy = pages.open("ivy", width=1200, height=900)
    pace(ivy, 0)
    room_id = create_room(ivy, game="cupid", name="Ivy", options={"target": 40})
    ivy.locator('[data-action="bot"][data-seat="1"]').click()
    expect(ivy.locator('.seat.taken[data-seat="1"]')).to_contain_text("computer")
    ivy.locator("#start-btn").click()
    wait_table(ivy)
    play_to_end([ivy])
    room = api_json(ivy, f"/api/rooms/{room_id}")
    review = api_json(ivy, f"/api/matches/{room['match_id']}/review")
    last = len(review["frames"]) - 1

    ivy.goto(f"/matches/{room['match_id']}")
    entries = ivy.locator("#move-list .move-button")
    expect(entries).to_have_count(last + 1)
    expect(ivy.locator("#move-list .move-entry .move-marks")).to_have_count(last + 1)
    current = ivy.locator('#move-list [aria-current="step"]')
    expect(current).to_have_attribute("data-step", "0")
    # Only the entry shown is in the Tab order.
    expect(ivy.locator('#move-list .move-button[tabindex="0"]')).to_have_count(1)
    # The server's words for a move, and a click shows that move.
    third = review["frames"][3]["event"]["text"].split(" ")[-1]
    expect(entries.nth(3)).to_contain_text(third)
    entries.nth(3).click()
    expect(ivy.locator("#step-label")).to_have_text(f"Move 3 of {last}")
    expect(current).to_have_attribute("data-step", "3")
    # The keyboard, from the focused entry: one step per key, and Home and End.
    ivy.keyboard.press("ArrowDown")
    expect(ivy.locator("#step-label")).to_have_text(f"Move 4 of {last}")
    expect(current).to_have_attribute("data-step", "4")
    expect(entries.nth(4)).to_be_focused()
    ivy.keyboard.press("ArrowUp")
    ivy.keyboard.press("ArrowUp")
    expect(ivy.locator("#step-label")).to_have_text(f"Move 2 of {last}")
    expect(entries.nth(2)).to_be_focused()
    ivy.keyboard.press("End")
    expect(ivy.locator("#step-label")).to_have_text(f"Move {last} of {last}")
    expect(entries.nth(last)).to_be_focused()
    expect(entries.nth(last)).to_be_in_viewport()
    ivy.keyboard.press("Home")
    expect(current).to_have_attribute("data-step", "0")
    expect(ivy.locator('#move-list .move-button[tabindex="0"]')).to_have_count(1)
    # Stepping with the review's own buttons moves the mark too.
    ivy.locator("#next-step").click()
    expect(current).to_have_attribute("data-step", "1")
    pages.shot(ivy, "move-list")
    assert_accessible(ivy, "the review's move list")
