"""On a laptop's 1280 x 800 screen the table talk sits beside the table, its box to write
in on the screen while you play, in real Chromium."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import create_room, wait_table

pytestmark = pytest.mark.e2e


def test_the_talk_is_beside_the_table_on_a_laptop_screen(pages: Any) -> None:
    ann = pages.open("ann", width=1280, height=800)
    create_room(ann, game="cupid", name="Ann")
    ann.locator('[data-action="bot"][data-seat="1"]').click()
    expect(ann.locator('.seat.taken[data-seat="1"]')).to_contain_text("computer")
    ann.locator("#start-btn").click()
    wait_table(ann)
    ann.evaluate("window.scrollTo(0, 0)")
    boxes = ann.evaluate(
        """() => {
            const box = (selector) => document.querySelector(selector).getBoundingClientRect();
            const [table, talk, input] = ['#table-wrap', '#talk', '#chat-input'].map(box);
            return {tableRight: table.right, talkLeft: talk.left, talkTop: talk.top,
                    inputBottom: input.bottom, height: innerHeight};
        }"""
    )
    assert boxes["talkLeft"] >= boxes["tableRight"] - 1, boxes
    assert boxes["talkTop"] < boxes["height"] / 2, boxes
    assert boxes["inputBottom"] <= boxes["height"], boxes
    expect(ann.locator("#chat-input")).to_be_in_viewport(ratio=1)
    pages.shot_viewport(ann, "talk-beside-the-table")
