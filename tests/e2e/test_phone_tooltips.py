"""On a phone, a tooltip never outlives the next tap.

A card that cannot be played is dimmed, and its reason shows in a tooltip on hover and on
keyboard focus (static/css/cards.css). A phone has no hover, but the element a finger
tapped stays hovered and focused until the next tap, so a tooltip tied to hover or focus
could stay over the table. In real Chromium emulating a phone (360 x 740, touch screen,
mobile), Bob, mid-play and waiting for his opponent, taps one of his cards: its reason is
said under the hand, and after his next tap on a plain part of the table no tooltip is
visible anywhere.
"""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.e2e.flows import post_json, settle, wait_moved, wait_table

pytestmark = pytest.mark.e2e

PHONE = {"width": 360, "height": 740}

# Every tooltip on screen: a card's reason drawn over it (its ::after), or an element in the
# role of a tooltip that is visible.
SHOWN_TOOLTIPS = """() => {
  const shown = [];
  for (const el of document.querySelectorAll('[data-reason]')) {
    const content = getComputedStyle(el, '::after').content;
    if (content && content !== 'none' && content !== 'normal') {
      shown.push(`${el.dataset.key}: ${content}`);
    }
  }
  for (const el of document.querySelectorAll('[role="tooltip"]')) {
    if (el.checkVisibility()) shown.push(el.textContent);
  }
  return shown;
}"""

# Whether the element at a point is a plain part of the page: nothing a tap would operate.
PLAIN_AT = """([x, y]) => {
  const el = document.elementFromPoint(x, y);
  const operable = 'button, a, input, select, textarea, [data-key], [tabindex]:not(main)';
  return el !== null && !el.closest(operable);
}"""


def tap(page: Page, card: Locator) -> None:
    """A finger's tap on a card's left edge (the part an overlapping neighbour never covers)."""
    box = card.bounding_box()
    assert box is not None, "the card is not on screen"
    page.touchscreen.tap(box["x"] + 8, box["y"] + 24)


def test_a_tapped_cards_tooltip_is_gone_after_the_next_tap_on_a_phone(pages: Any) -> None:
    ann = pages.open("ann")
    ann.goto("/")
    post_json(ann, "/api/session", {"name": "Ann"})
    # Bob deals, so he leads the first trick (an option the home page does not offer: the
    # table is opened through the API).
    body = {"game": "cupid", "options": {"dealer": 1}}
    room_id = str(post_json(ann, "/api/rooms", body)["id"])
    ann.goto(f"/rooms/{room_id}")
    bob = pages.open("bob", **PHONE, touch=True)
    bob.goto(f"/rooms/{room_id}")
    bob.locator("#sit-name").fill("Bob")
    bob.locator('[data-action="sit"][data-seat="1"]').click()
    expect(ann.locator('.seat[data-seat="1"]')).to_contain_text("Bob")
    ann.locator("#start-btn").click()
    wait_table(bob)
    assert bob.evaluate("matchMedia('(hover: none)').matches"), "the phone has hover"

    # Mid-play, Ann to act: Bob leads with a tap on a card, and Ann (a person) then keeps
    # the turn, so none of Bob's cards can be played while he taps them.
    expect(bob.locator(".table.my-turn")).to_have_count(1)
    settle(bob)
    before = int(bob.locator(".table").get_attribute("data-version") or -1)
    tap(bob, bob.locator(".hand .card.playable").first)
    wait_moved(bob, before)
    expect(bob.locator(".table.my-turn")).to_have_count(0)
    expect(bob.locator(".hand .card.playable")).to_have_count(0)
    expect(bob.locator(".hand .card.blocked").first).to_be_visible()
    settle(bob)  # the move's animation has run its course: the cards stay where they are

    card = bob.locator(".hand .card.blocked").last
    reason = card.get_attribute("data-reason")
    assert reason and reason.startswith("Not your turn"), reason
    tap(bob, card)
    expect(bob.locator('.action-error[data-slot="hand"]')).to_have_text(reason)
    # The tapped card keeps the focus (and, on a phone, the hover) until the next tap: a
    # tooltip tied to either would stay over the table.
    assert card.evaluate("el => el === document.activeElement"), "the tap did not reach the card"

    middle = bob.locator(".table-center").bounding_box()
    assert middle is not None
    spot = (middle["x"] + middle["width"] / 2, middle["y"] + 8)
    assert bob.evaluate(PLAIN_AT, list(spot)), "the spot tapped is not a plain part of the table"
    bob.touchscreen.tap(*spot)
    try:
        bob.wait_for_function(f"() => ({SHOWN_TOOLTIPS})().length === 0", timeout=5_000)
    except PlaywrightTimeoutError:
        shown = bob.evaluate(SHOWN_TOOLTIPS)
        raise AssertionError(f"a tooltip stayed after the next tap: {shown}") from None
    pages.shot_viewport(bob, "after-the-next-tap")
