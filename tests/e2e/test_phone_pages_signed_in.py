"""No page scrolls sideways on a phone for a signed-in moderator with the live channel's
notices shown, in real Chromium.

A moderator ("Mod") has a report in the queue whose words are 1000 characters with no
space, the audit log filled, and a mute in force; on each page, at 360 x 740 and 390 x 844,
another moderator warns Mod three times and the warnings arrive on the page's live channel
(the corner notices, stacked). The page must then be no wider than the screen, and the
notices no higher than a third of it.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from app.admin import change_role
from app.db import make_engine, make_session_factory
from tests.e2e.flows import post_json
from tests.e2e.test_friends_invite_and_play import sign_up
from tests.e2e.test_phone_and_accessibility import LARGER_PHONE, PHONE

pytestmark = pytest.mark.e2e

PAGES = ["/", "/tables", "/friends", "/history", "/leaderboard", "/rules/cupid", "/moderation"]

MEASURE = """() => {
  const notices = document.querySelector('#live-notices');
  const box = notices ? notices.getBoundingClientRect() : null;
  return {
    page: document.documentElement.scrollWidth,
    screen: innerWidth,
    height: innerHeight,
    notices: box ? { left: box.left, right: box.right, height: box.height } : null,
  };
}"""


def grant(server: object, *usernames: str) -> None:
    engine = make_engine(server.database_url)  # type: ignore[attr-defined]
    try:
        for username in usernames:
            change_role(make_session_factory(engine), "grant", username)
    finally:
        engine.dispose()


def test_no_page_scrolls_sideways_for_a_moderator_with_notices(pages, server) -> None:
    mod, other, dan = pages.open("mod", **PHONE), pages.open("other"), pages.open("dan")
    for page, username in ((mod, "Mod"), (other, "Other"), (dan, "Dan")):
        sign_up(page, username)
    grant(server, "Mod", "Other")
    post_json(dan, "/api/reports", {"username": "Other", "reason": "spam", "text": "x" * 1000})
    for n in range(3):  # the audit log's widest entries
        body = {"username": "Dan", "reason": f"a long reason number {n} " * 5}
        post_json(other, "/api/moderation/warnings", body)
    post_json(other, "/api/moderation/mutes", {"username": "Mod", "reason": "spam", "minutes": 60})

    warned = 0
    for size in (PHONE, LARGER_PHONE):
        mod.set_viewport_size(size)
        for path in PAGES:
            mod.goto(path)
            expect(mod.locator("body")).to_have_attribute("data-live", "open")
            # The mute in force is shown when the page loads.
            expect(mod.locator("#live-notices")).to_contain_text("muted you everywhere")
            if path == "/moderation":
                expect(mod.locator("#reports")).to_contain_text("x" * 50)
                expect(mod.locator("#moderation-link")).to_have_attribute("aria-current", "page")
            for _ in range(3):
                warned += 1
                body = {"username": "Mod", "reason": f"warning {warned}"}
                post_json(other, "/api/moderation/warnings", body)
                notice = mod.locator(".live-notice").filter(has_text=f"warning {warned}")
                expect(notice).to_be_visible()
            measured = mod.evaluate(MEASURE)
            where = f"{path} at {size['width']}x{size['height']}"
            assert measured["page"] <= measured["screen"], (where, measured)
            box = measured["notices"]
            assert box["left"] >= 0 and box["right"] <= measured["screen"], (where, box)
            assert box["height"] <= measured["height"] / 3 + 1, (where, box)
            assert_links_reachable(mod, where)
        pages.shot(mod, f"moderation-{size['width']}")


def assert_links_reachable(page: Page, where: str) -> None:
    """Every header link lies within the screen's width (none cut off at the right)."""
    outside = page.evaluate(
        """() => [...document.querySelectorAll('.site-nav a')]
          .filter((a) => a.getBoundingClientRect().right > innerWidth + 1)
          .map((a) => a.textContent.trim())"""
    )
    assert outside == [], (where, outside)
