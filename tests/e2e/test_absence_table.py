"""People who stop playing, in a real browser: at a Cupid table with 5 seconds a turn and a
bank of 20, Bob stops playing. His plate counts his turn down (urgent in the last seconds,
his bank first, then his bare turns); when it runs out the clock moves for him, and both
tables and their play logs say so; after two such moves a computer takes his seat, his page
says why and offers "Take back my seat", and he takes it back and plays on. The play log
keeps Bob's name on the moves made for his seat before the computer took it.

The bank is Ann's as much as Bob's: the checks and pictures this test takes on Ann's turns
spend her time, and a bank of 20 seconds keeps a slow machine from running her clock out
too, while Bob's bank, spent on his first turn, leaves his later turns at 5 seconds."""

from __future__ import annotations

import re
import time

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.flows import (
    act_once,
    api_json,
    next_mover,
    pace,
    post_json,
    received_states,
    settle,
    turn_of,
    wait_next_state,
    wait_table,
)

pytestmark = pytest.mark.e2e


def timeouts_seen(page: Page, seat: int) -> int:
    """The most timeouts in a row the page's state messages showed for ``seat``."""
    return max(
        (m["clocks"][seat]["timeouts"] for m in received_states(page).values() if m["clocks"]),
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
    body = {"game": "cupid", "clock": {"turn": 5, "bank": 20}, "options": {"dealer": 1}}
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
    # down: urgent in his bank's last 10 s on his first turn, and all along on the later
    # ones (his bank spent, 5 s is under the last 10).
    bob_plate = ann.locator('.opponents .plate[data-seat="1"]')
    countdowns: list[str] = []
    deadline = time.monotonic() + 120
    while True:
        settle(ann, still=False)
        if bob_plate.locator(".badge.computer").count():
            break
        assert time.monotonic() < deadline, "a computer never took Bob's seat"
        # Whose turn it is, and at which version, read in one step: a version read after
        # the turn was found not Ann's may already be the next state's, hers, which
        # nothing below would wait past.
        turn = turn_of(ann)
        if turn["mine"]:
            act_once(ann)  # False only if the turn moved on meanwhile: look again
            continue
        # Bob's turn: read his plate's countdown (in the same step as finding it: it is
        # redrawn every second), then wait for the move the clock makes for him.
        shown = turn["version"]
        countdown = ann.wait_for_function(
            """([v]) => {
                const clock = document.querySelector(
                    '.opponents .plate[data-seat="1"] .clock.urgent');
                if (clock) return { text: clock.textContent };
                return window.__lastState !== v ? { text: null } : null;
            }""",
            arg=[shown],
        ).json_value()
        if countdown["text"] is not None:
            countdowns.append(countdown["text"])
            if len(countdowns) == 1:
                pages.shot(ann, "bob-on-the-clock")
        wait_next_state(ann, shown, timeout=(deadline - time.monotonic()) * 1000)
        if len(countdowns) == 1 and not bob_plate.locator(".badge.computer").count():
            # The clock played Bob's move: both tables say so, Bob's in his own words.
            expect(ann.locator(".clock-played")).to_contain_text("Bob's time ran out")
            expect(bob.locator(".clock-played.mine")).to_contain_text("Your time ran out")
            pages.shot(bob, "the-clock-played-for-bob")
    assert countdowns, "Bob's plate never showed his turn's countdown"
    first, *later = countdowns
    assert re.fullmatch(r"bank 0:(10|0\d)", first), countdowns
    assert later and all(re.fullmatch(r"0:0[0-5]", shown) for shown in later), countdowns
    expect(bob_plate.locator(".badge.computer")).to_contain_text("for Bob")
    pages.shot(ann, "computer-for-bob")
    # The play log keeps the name of who held Bob's seat at each move: the moves the clock
    # played for him stay his after the computer took his seat, and say the clock played them.
    computer = str(api_json(ann, f"/api/rooms/{room_id}")["seats"][1]["name"])
    clock_lines = [
        line for line in ann.locator(".log-list li").all_text_contents() if "time ran out" in line
    ]
    assert len(clock_lines) >= 2, clock_lines
    for line in clock_lines:
        assert line.startswith("Bob ") and "Bob's time ran out" in line, line
        assert computer not in line, line

    # Bob's page says why he only watches now, and offers his seat back.
    take_back = bob.get_by_role("button", name="Take back my seat")
    expect(take_back).to_be_visible(timeout=20_000)
    expect(bob.locator(".reclaim")).to_contain_text("Your time ran out twice")
    # What his page was sent says so too: the clock played two of his moves in a row.
    bob.wait_for_function(
        """() => Object.values(window.__states)
            .some((m) => m.clocks && m.clocks[1].timeouts >= 2)"""
    )
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
    while True:
        mover = next_mover([ann, bob], deadline)
        assert mover is not None, "the match ended before Bob played again"
        assert act_once(mover)
        if mover is bob:
            break
    pages.shot(bob, "bob-back")
    room = api_json(ann, f"/api/rooms/{room_id}")
    assert room["seats"][1]["bot"] is None and room["seats"][1]["name"] == "Bob"
