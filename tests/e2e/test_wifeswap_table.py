"""Royal Wife-Swap in a real browser: a whole three-seat match in which the trick winner
arranges families on the arrangement board (by tapping cards and places, and by loading
the server's suggestions), a spectator who never sees a hidden card, and the match
reviewable."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.e2e.flows import (
    act_once,
    create_room,
    finish_and_review,
    is_over,
    pace,
    shown_state,
    version,
    wait_moved,
    wait_table,
    watch,
)

pytestmark = pytest.mark.e2e


def arrange_through_board(page: Page, layout: dict) -> None:
    """Build ``layout`` on the arrangement board by tapping cards and places."""
    page.locator('.arrange-board [data-key="act:clear"]').click()
    for index, family in enumerate(layout["families"]):
        for position, card in enumerate(family):
            select_on_board(page, card)
            place = "new" if position == 0 else str(index)
            page.locator(f'.arrange-board [data-place="{place}"]').click()
    for card in layout.get("orphans", []):
        select_on_board(page, card)
        page.locator('.arrange-board [data-place="orphans"]').click()


def load_first_suggestion(page: Page) -> None:
    """Open the suggested layouts (unless still open from the last time; a redraw may close
    them again meanwhile) and load the first into the board."""
    for _ in range(5):
        if not page.locator(".arrange-board details.suggestions[open]").count():
            page.locator(".arrange-board .suggestions summary").click()
        try:
            page.locator('.arrange-board [data-key="suggest:0"]').click(timeout=2_000)
            return
        except PlaywrightTimeoutError:
            continue
    raise AssertionError("the first suggested layout could not be loaded")


def select_on_board(page: Page, card: str) -> None:
    """Tap ``card`` so that it is the board's selected card (a tap on the card already
    selected would let go of it instead)."""
    button = page.locator(f'.arrange-board [data-board-card="{card}"]')
    if button.get_attribute("aria-pressed") != "true":
        button.click()
    expect(button).to_have_attribute("aria-pressed", "true")


def play_wifeswap(pages, gus: Page, arranged: int) -> int:
    """Play one match as Gus, arranging through the board; returns arrangements so far."""
    deadline = time.monotonic() + 300
    while not is_over(gus):
        assert time.monotonic() < deadline, "the Wife-Swap match did not finish"
        if gus.locator(".arrange-board").count() and not gus.locator(".pending").count():
            before = version(gus)
            legal = shown_state(gus)["view"]["legal_actions"]
            layouts = [a for a in legal if a["type"] == "arrange"]
            if layouts and arranged < 2:
                arrange_through_board(gus, layouts[0])
                # Before it is laid out, the board shows the server's verdict on the layout.
                verdict = gus.locator(".arrange-board .board-verdict")
                expect(verdict).to_have_attribute("data-verdict", "ok")
                expect(verdict).to_contain_text("The server accepts this layout")
                pages.shot(gus, f"board-{arranged}")
                gus.locator('.arrange-board [data-key="act:arrange"]').click()
                wait_moved(gus, before)
                # The accepted families are on the table, with the server's points.
                expect(gus.locator(".mine .family-line").first).to_be_visible()
                arranged += 1
                continue
            if layouts:
                # Later arrangements load the server's first suggestion into the board.
                load_first_suggestion(gus)
                gus.locator('.arrange-board [data-key="act:arrange"]').click()
                arranged += 1
            else:
                gus.locator('.arrange-board [data-key="act:pass"]').click()
            wait_moved(gus, before)
            continue
        if not act_once(gus):
            gus.wait_for_timeout(40)
    return arranged


def test_wifeswap_three_seats_with_an_arrangement_on_the_board(pages) -> None:
    gus = pages.open("gus", width=1280, height=1000)
    pace(gus, 30)
    room_id = create_room(
        gus, game="wifeswap", name="Gus", seats=3, options={"target": 50, "rounds": 1}
    )
    for seat in (1, 2):
        gus.locator(f'[data-action="bot"][data-seat="{seat}"]').click()
        expect(gus.locator(f'.seat[data-seat="{seat}"]')).to_contain_text("computer")
    watcher = watch(pages, room_id)
    gus.locator("#start-btn").click()
    wait_table(gus)
    pages.shot(gus, "table-start")
    arranged = play_wifeswap(pages, gus, 0)
    finish_and_review(pages, gus, watcher, room_id, 3)
    # If the cards never offered Gus a family, play rematches until they do.
    current = room_id
    for _ in range(3):
        if arranged:
            break
        gus.goto(f"/rooms/{current}")
        gus.get_by_role("button", name="Rematch").click()
        gus.wait_for_url(lambda url, old=current: "/rooms/" in url and old not in url)
        current = gus.url.rstrip("/").split("/")[-1]
        gus.locator("#start-btn").click()
        wait_table(gus)
        arranged = play_wifeswap(pages, gus, arranged)
    assert arranged >= 1, "no arrangement was made through the board"
