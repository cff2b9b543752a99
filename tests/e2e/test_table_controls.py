"""The table's own controls in a real browser: a name already at the table is refused where
you can see it and not kept; a lobby click made before the previous one is answered is
carried out, not lost, and so is one pressed while someone else sits down; the "Rules"
drawer; the skip link to your hand; the play log, newest first, numbered by move, in the
server's words."""

from __future__ import annotations

import time
from typing import Any

import pytest
from playwright.sync_api import Route, expect

from tests.e2e.accessibility import assert_accessible
from tests.e2e.flows import act_once, create_room, next_mover, pace, set_name, settle, wait_table

pytestmark = pytest.mark.e2e


def test_a_name_already_at_the_table_is_refused_visibly_and_not_kept(pages: Any) -> None:
    pages.allow("status of 409")  # the refusal, on purpose
    ann = pages.open("ann")
    room_id = create_room(ann, game="cupid", name="Ann")
    bob = pages.open("bob")
    bob.goto("/")
    set_name(bob, "Bob")
    bob.goto(f"/rooms/{room_id}")
    bob.locator("#sit-name").fill("ann")
    bob.locator('[data-action="sit"]').first.click()
    expect(bob.locator("#lobby-error")).to_be_visible()
    expect(bob.locator("#lobby-error")).to_contain_text("already called")
    expect(bob.locator("#who-name .who-text")).to_have_text("Bob")
    expect(bob.locator('.seat[data-seat="1"]')).not_to_contain_text("ann")
    pages.shot(bob, "name-refused")


def test_a_second_lobby_click_before_the_first_is_answered_is_carried_out(pages: Any) -> None:
    ann = pages.open("ann")
    create_room(ann, game="cups", name="Ann", seats=3)
    # The answer to the first click is held back until the second click has been made.
    held: list[Route] = []
    ann.route("**/bots", lambda route: held.append(route) if not held else route.continue_())
    ann.locator('[data-action="bot"][data-seat="1"]').click()
    ann.locator('[data-action="bot"][data-seat="2"]').click()
    # Playwright hands the request to the route when it next hears from the browser: each
    # call to the page lets it, however late the page sent the request.
    deadline = time.monotonic() + 10
    while not held:
        assert time.monotonic() < deadline, "the first click sent no request"
        ann.evaluate("0")
    assert len(held) == 1
    held[0].continue_()
    for seat in (1, 2):
        expect(ann.locator(f'.seat.taken[data-seat="{seat}"]')).to_contain_text("computer")


def test_a_lobby_click_survives_someone_else_sitting_down_mid_click(pages: Any) -> None:
    """The room is described again whenever anyone sits down; a row redrawn between the
    press and the release of its button would lose the click."""
    ann = pages.open("ann")
    room_id = create_room(ann, game="cups", name="Ann", seats=3)
    add_for_seat_2 = ann.locator('[data-action="bot"][data-seat="2"]')
    add_for_seat_2.hover()
    ann.mouse.down()
    bob = pages.open("bob")
    bob.goto("/")
    set_name(bob, "Bob")
    bob.goto(f"/rooms/{room_id}")
    bob.locator('[data-action="sit"][data-seat="1"]').click()
    # Ann's lobby has drawn Bob in seat 1 while her button is held down.
    expect(ann.locator('.seat.taken[data-seat="1"]')).to_contain_text("Bob")
    ann.mouse.up()
    expect(ann.locator('.seat.taken[data-seat="2"]')).to_contain_text("computer")


def test_rules_drawer_skip_link_and_play_log(pages: Any) -> None:
    ann = pages.open("ann")
    pace(ann, 40)
    create_room(ann, game="cupid", name="Ann")
    ann.locator('[data-action="bot"][data-seat="1"]').click()
    # Start only once the seat list shows the computer seated (it is drawn again meanwhile).
    expect(ann.locator('.seat.taken[data-seat="1"]')).to_contain_text("computer")
    ann.locator("#start-btn").click()
    wait_table(ann)

    ann.get_by_role("button", name="Rules").click()
    drawer = ann.locator("#rules-drawer")
    expect(drawer).to_be_visible()
    expect(drawer).to_contain_text("Cupid in short")
    expect(drawer.locator("li").first).to_be_visible()
    assert_accessible(ann, "the rules drawer")
    ann.locator("#rules-drawer-close").click()
    expect(drawer).to_be_hidden()

    ann.reload()  # the keyboard starts from the top of the page
    expect(ann.locator(".table.my-turn")).to_be_visible(timeout=20_000)
    ann.keyboard.press("Tab")
    skip = ann.locator("#skip-hand")
    expect(skip).to_be_focused()
    ann.keyboard.press("Enter")
    ann.keyboard.press("Tab")
    focused = ann.evaluate("document.activeElement.closest('.hand') !== null")
    assert focused, "the Tab after the skip link is not on your hand"

    deadline = time.monotonic() + 60
    for _ in range(6):
        assert next_mover([ann], deadline) is ann, "the match ended first"
        assert act_once(ann)
    # The log and the state behind it, read in one step (the computer may move meanwhile).
    settle(ann)
    shown = ann.evaluate(
        """() => ({
            numbers: [...document.querySelectorAll('.log-list li')].map((e) => e.value),
            first: document.querySelector('.log-list li')?.textContent,
            state: window.__states[document.querySelector('.table').dataset.version],
        })"""
    )
    numbers = [int(v) for v in shown["numbers"]]
    assert len(numbers) >= 6 and numbers == sorted(numbers, reverse=True)
    newest = shown["state"]
    assert numbers[0] == newest["version"]
    told = newest["event"]["text"].replace("Seat 1", "Ann").replace("Seat 2", "Ada")
    assert " ".join(shown["first"].split()) == " ".join(told.split())
