"""Every game on a phone and for assistive technology, in real Chromium.

For each game, one person on a 360 x 740 phone plays a short match against computers: at
their turn the hand, the middle of the table and every action button are on screen without
scrolling (and again at 390 x 844), nothing is wider than the screen, and a screenshot of
the table is saved under test-artifacts/. axe-core finds nothing wrong — of any impact — in
the lobby, mid-play for the player and for a spectator, at the end, in the review and in
the history. The home page, every rules page and the not-found page are checked as well.
"""

from __future__ import annotations

import time
from contextlib import suppress
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.e2e.accessibility import assert_accessible
from tests.e2e.flows import (
    act_once,
    api_json,
    create_room,
    next_mover,
    pace,
    post_json,
    settle,
    table_state,
    version,
    wait_moved,
    wait_table,
    watch,
)

pytestmark = pytest.mark.e2e

PHONE = {"width": 360, "height": 740}
LARGER_PHONE = {"width": 390, "height": 844}

# Short matches: the smallest targets the games allow.
MATCHES: dict[str, dict[str, Any]] = {
    "cupid": {"options": {"target": 10}},
    "coins": {"options": {"target": 10}},
    "cups": {"seats": 2},
    # You deal (an option the home page does not offer: the table is opened through the
    # API): your first turn is the Order's two choices above a 13-card hand, the tallest
    # first turn of any game.
    "usurp": {"options": {"game_points": 1}, "dealer": 0},
    "wifeswap": {"options": {"target": 50}},
}

# The middle of each game's table: the trick, the piles, the Upcard.
OFF_SCREEN = """() => {
  const outside = [];
  const where = (el) => el.dataset.card || el.dataset.key || el.className;
  const boxes = [
    ...document.querySelectorAll('.hand .card'),
    ...document.querySelectorAll('.table .actions .btn, .table .pile.clickable'),
    ...document.querySelectorAll('.table-center > [class$="-center"], .turn-banner'),
  ];
  for (const el of boxes) {
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1) {
      outside.push(`${where(el)} at ${Math.round(r.top)},${Math.round(r.left)}`
        + ` to ${Math.round(r.bottom)},${Math.round(r.right)}`);
    }
  }
  const wide = document.documentElement.scrollWidth > innerWidth;
  const hand = document.querySelectorAll('.hand .card').length;
  return { checked: boxes.length, outside, wide, hand };
}"""


# Whether the table fits the screen, as OFF_SCREEN judges it (from the top of the page).
FITS = f"""() => {{
  window.scrollTo(0, 0);
  const found = ({OFF_SCREEN})();
  return found.hand > 0 && !found.outside.length && !found.wide;
}}"""


def assert_fits(page: Page, size: dict[str, int], timeout_ms: float = 10_000) -> None:
    page.set_viewport_size(size)
    # The hand lays itself out again for the new width, sooner or later on a busy machine:
    # what is judged is the layout the page reaches, not the one it shows at some moment.
    settle(page)
    with suppress(PlaywrightTimeoutError):  # it never fitted: the asserts say what is wrong
        page.wait_for_function(FITS, timeout=timeout_ms)
    page.evaluate("window.scrollTo(0, 0)")
    found = page.evaluate(OFF_SCREEN)
    where = f"{size['width']} x {size['height']}"
    assert found["hand"] > 0, f"no hand shown at {where}"
    assert not found["outside"], f"off screen at {where}: {found['outside']}"
    assert not found["wide"], f"the page is wider than the screen at {where}"


def play_to_the_end(page: Page, timeout: float = 240) -> None:
    """Play whatever is offered; on Royal Wife-Swap's arrangement board, pass."""
    deadline = time.monotonic() + timeout
    while (mover := next_mover([page], deadline)) is not None:
        board_pass = mover.locator('.arrange-board [data-key="act:pass"]')
        if board_pass.count():
            before = version(mover)
            board_pass.click()
            wait_moved(mover, before)
        else:
            assert act_once(mover), f"its turn, but nothing to click: {table_state(mover)}"


def wait_my_turn(page: Page) -> None:
    """Wait until the page's settled table offers its person a move."""
    assert next_mover([page], time.monotonic() + 30) is page, "the match ended first"


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_a_match_on_a_phone_is_accessible_throughout(pages: Any, game: str) -> None:
    match = MATCHES[game]
    phone = pages.open("player", **PHONE)
    pace(phone, 40)
    if "dealer" in match:
        phone.goto("/")
        post_json(phone, "/api/session", {"name": "Ann"})
        body = {"game": game, "options": {**match["options"], "dealer": match["dealer"]}}
        room_id = str(post_json(phone, "/api/rooms", body)["id"])
        phone.goto(f"/rooms/{room_id}")
        expect(phone.locator("#lobby")).to_be_visible()
    else:
        room_id = create_room(phone, game=game, name="Ann", **match)
    assert_accessible(phone, f"{game}: the lobby")
    seats = phone.locator(".seat").count()
    for seat in range(1, seats):
        phone.locator(f'[data-action="bot"][data-seat="{seat}"]').click()
        expect(phone.locator(f'.seat.taken[data-seat="{seat}"]')).to_contain_text("computer")
    phone.locator("#start-btn").click()
    wait_table(phone)
    expect(phone.locator(".plate .badge.computer").first).to_be_visible()

    wait_my_turn(phone)
    assert_fits(phone, LARGER_PHONE)
    assert_fits(phone, PHONE)
    pages.shot_viewport(phone, f"{game}-phone-mid-play")
    assert_accessible(phone, f"{game}: mid-play, as a player")

    watcher = watch(pages, room_id)
    wait_table(watcher)
    assert_accessible(watcher, f"{game}: mid-play, as a spectator")

    play_to_the_end(phone)
    expect(phone.locator(".table .result")).to_be_visible()
    assert_accessible(phone, f"{game}: the match over")
    room = api_json(phone, f"/api/rooms/{room_id}")
    watcher.goto(f"/matches/{room['match_id']}")
    expect(watcher.locator("#review")).to_have_attribute("aria-busy", "false")
    assert_accessible(watcher, f"{game}: the review")
    watcher.keyboard.press("End")
    assert_accessible(watcher, f"{game}: the review's last move")
    watcher.goto("/history")
    expect(watcher.locator(".match-item").first).to_be_visible()
    assert_accessible(watcher, "the history")


def test_home_rules_and_not_found_pages_are_accessible(pages: Any) -> None:
    pages.allow("status of 404")  # the not-found page, on purpose
    page = pages.open("visitor")
    page.goto("/")
    expect(page.locator(".game-choice").first).to_be_visible()
    assert_accessible(page, "the home page")
    for game in sorted(MATCHES):
        page.goto(f"/rules/{game}")
        expect(page.locator("h1").first).to_be_visible()
        assert_accessible(page, f"the rules of {game}")
    response = page.goto("/rooms/NOPE12")
    assert response is not None and response.status == 404
    assert_accessible(page, "the not-found page")
