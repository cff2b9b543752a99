"""The big clocks, the low-time warning and the thinking sign in a real browser, on a phone:
each awaited seat's clock is shown big at the top of the table and stays on screen while the
page scrolls; when your own time runs low the table warns you once a turn, in sight and in
sound; and a computer's plate says it is thinking while the table waits for it, until it
moves. The computers here wait a second before each move, so the wait can be seen."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import LiveServer
from tests.e2e.accessibility import assert_accessible
from tests.e2e.flows import SOUND_RECORDER, act_once, post_json, set_name, sounds, wait_table

pytestmark = pytest.mark.e2e


@pytest.fixture
def server(live_server_factory: Callable[..., LiveServer]) -> LiveServer:
    return live_server_factory(BOT_DELAY="1.0")


def open_clocked_table(page: Page, turn: int) -> None:
    """Ann opens a Cupid table with a turn clock of ``turn`` seconds and no bank, against a
    computer, and starts it."""
    page.goto("/")
    set_name(page, "Ann")
    room = post_json(page, "/api/rooms", {"game": "cupid", "clock": {"turn": turn, "bank": 0}})
    page.goto(f"/rooms/{room['id']}")
    page.locator('[data-action="bot"][data-seat="1"]').click()
    expect(page.locator('.seat.taken[data-seat="1"]')).to_contain_text("computer")
    page.locator("#start-btn").click()
    wait_table(page)


def low_time_warnings(page: Page) -> int:
    return sum(1 for s in sounds(page) if s["sound"] == "low-time")


def test_big_clocks_stay_in_sight_and_warn_once_a_turn_when_time_runs_low(pages: Any) -> None:
    ann = pages.open("ann", width=360, height=740)
    ann.add_init_script(SOUND_RECORDER)
    open_clocked_table(ann, turn=13)
    mine = ann.locator('.big-clocks .big-clock.mine[data-seat="0"]')
    theirs = ann.locator('.big-clocks .big-clock[data-seat="1"]')
    thinking = ann.locator('.plate[data-seat="1"] .thinking')

    # The computer's turn (now, or after Ann's first move): its big clock and its thinking.
    if not theirs.count():
        expect(mine).to_be_visible()
        ann.locator(".hand .card.playable").first.click(position={"x": 8, "y": 24})
    expect(theirs).to_be_visible()
    expect(theirs).to_be_in_viewport()
    expect(thinking).to_have_text(re.compile("thinking"))
    expect(ann.locator('.plate[data-seat="1"]')).to_have_attribute(
        "aria-label", re.compile("thinking")
    )
    expect(mine).to_have_count(0)

    # Ann's turn: no more thinking; her clock is big, and on screen wherever she scrolls.
    expect(mine).to_be_visible(timeout=30_000)
    expect(thinking).to_have_count(0)
    size = mine.locator(".clock.big").evaluate("el => parseFloat(getComputedStyle(el).fontSize)")
    assert size >= 22, size
    ann.mouse.wheel(0, 5000)
    ann.wait_for_function("() => window.scrollY > 200")
    expect(mine).to_be_in_viewport()

    # At 10 s left, the warning: seen, heard once, and not again in the same turn. The
    # picture and the accessibility check come first: they are the slow steps, and what
    # they take comes out of the seconds Ann has left to move.
    note = mine.locator(".low-time-note")
    expect(note).to_be_hidden()
    expect(note).to_be_visible(timeout=10_000)
    expect(mine.locator(".clock.big")).to_have_class(re.compile(r"\blow-time\b"))
    assert low_time_warnings(ann) == 1
    pages.shot_viewport(ann, "low-time")
    assert_accessible(ann, "the big clocks warning of low time")
    expect(mine.locator(".clock.big")).to_have_text(re.compile(r"^0:0[0-6]"))
    assert low_time_warnings(ann) == 1

    # She moves in time; her next turn runs low and warns again, once.
    assert act_once(ann)
    expect(mine).to_be_visible(timeout=30_000)
    ann.wait_for_function(
        "() => window.__sounds.filter((s) => s.sound === 'low-time').length === 2",
        timeout=20_000,
    )
