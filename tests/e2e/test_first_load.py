"""A page's first load: nothing moves once it is on the screen (the layout shifts the
browser reports, summed, stay under 0.05 at a live table and in a review, on a phone and on a
desktop), the home page fits a 360 px phone, and a choice made on it while it loads is kept."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from playwright.sync_api import Page, Route, expect
from websockets.sync.client import connect

from tests.e2e.flows import post_json, settle, wait_table

pytestmark = pytest.mark.e2e

# Every layout shift the page makes that no input caused, from the navigation on (buffered),
# summed as the browser's cumulative layout shift sums them.
RECORD_SHIFTS = """
window.__shifts = [];
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) {
    if (!entry.hadRecentInput) window.__shifts.push(entry.value);
  }
}).observe({ type: "layout-shift", buffered: true });
"""
MOST_SHIFT = 0.05
SCREENS = {"phone": (360, 740, True), "desktop": (1280, 900, False)}


# Nothing on the page is moving (an endless animation, such as a pulse, does not count).
STILL = """() => document.getAnimations().every(
  (a) => a.playState !== 'running'
    || !Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity)
)"""


PAINTED = """() => performance.getEntriesByType('paint')
  .some((entry) => entry.name === 'first-contentful-paint')"""


def shifted(page: Page) -> float:
    return float(page.evaluate("window.__shifts.reduce((a, b) => a + b, 0)"))


def coins_against_computers(page: Page) -> str:
    """As the page's person (a guest): a Coins table against two computer players, started;
    its id."""
    post_json(page, "/api/session", {"name": "Ann"})
    body = {"game": "coins", "seats": 3, "options": {"target": 10}}
    room = post_json(page, "/api/rooms", body)
    for seat in (1, 2):
        post_json(page, f"/api/rooms/{room['id']}/bots", {"seat": seat})
    post_json(page, f"/api/rooms/{room['id']}/start", {})
    return str(room["id"])


def play_out(page: Page, ws_url: str, room_id: str) -> str:
    """The page's person plays the first thing offered at each turn, over a socket of the
    test's own (as the page's person), until the match is over; the match id."""
    cookie = "; ".join(f"{c['name']}={c['value']}" for c in page.context.cookies())
    with connect(f"{ws_url}/ws/rooms/{room_id}", additional_headers={"Cookie": cookie}) as ws:
        while True:
            message: dict[str, Any] = json.loads(ws.recv(timeout=30))
            if message.get("type") != "state":
                continue
            view = message["view"]
            if view["over"]:
                break
            if message["seat"] in view["to_act"] and view["legal_actions"]:
                act = {"type": "act", "version": message["version"]}
                ws.send(json.dumps({**act, "action": view["legal_actions"][0]}))
    room = page.request.get(f"/api/rooms/{room_id}").json()
    return str(room["match_id"])


def open_recording(pages: Any, label: str, screen: str) -> Page:
    width, height, touch = SCREENS[screen]
    page: Page = pages.open(label, width=width, height=height, touch=touch)
    page.add_init_script(RECORD_SHIFTS)
    return page


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_the_review_does_not_move_as_it_loads(pages: Any, server: Any, screen: str) -> None:
    page = open_recording(pages, "player", screen)
    page.goto("/")
    room_id = coins_against_computers(page)
    match_id = play_out(page, server.ws_url, room_id)
    # The match's record is held until the page has painted, as on a slow network, where
    # it arrives after the first paint: what the page shows first must keep its place.
    held: list[Route] = []
    page.route("**/api/matches/*/review", lambda route: held.append(route))
    with page.expect_request("**/api/matches/*/review"):
        page.goto(f"/matches/{match_id}", wait_until="commit")
    page.wait_for_function(PAINTED)
    assert len(held) == 1, "the review asked for its record more than once"
    held[0].continue_()
    expect(page.locator("#review")).to_have_attribute("aria-busy", "false")
    expect(page.locator("#step-label")).to_contain_text("Move 0 of")
    expect(page.locator(".table")).to_be_visible()
    page.wait_for_function(STILL)
    pages.shot_viewport(page, f"review-{screen}")
    assert shifted(page) <= MOST_SHIFT, page.evaluate("window.__shifts")


@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_a_live_table_does_not_move_as_it_loads(pages: Any, screen: str) -> None:
    page = open_recording(pages, "player", screen)
    page.goto("/")
    room_id = coins_against_computers(page)
    for path, who in ((f"/rooms/{room_id}", page), (f"/rooms/{room_id}/watch", None)):
        viewer = who or open_recording(pages, "watcher", screen)
        viewer.goto(path)
        wait_table(viewer)
        expect(viewer.locator("#talk")).to_be_visible()
        settle(viewer)
        pages.shot_viewport(viewer, f"table-{screen}")
        assert shifted(viewer) <= MOST_SHIFT, (path, viewer.evaluate("window.__shifts"))


def test_the_home_page_fits_a_360_px_phone(pages: Any) -> None:
    page = pages.open("visitor", width=360, height=740, touch=True)
    page.goto("/")
    expect(page.locator(".game-choice .card").first).to_be_visible()
    expect(page.locator("#options *").first).to_be_attached()
    pages.shot_viewport(page, "home-phone")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 360, f"the home page is {width} px wide on a 360 px screen"


def test_a_choice_made_while_the_home_page_loads_is_kept(pages: Any) -> None:
    """The form is drawn from what the page was served: the answers to the page's own
    requests, however late, redraw nothing the visitor has already chosen."""
    page = pages.open("ann")
    held: list[Route] = []
    released = False

    def hold(route: Route) -> None:
        if released:
            route.continue_()
        else:
            held.append(route)

    page.route("**/api/**", hold)
    page.goto("/")
    page.locator('.game-choice[data-game="cups"]').click()
    page.locator("#seats").select_option("4")
    # Playwright hands a request to its route when it next hears from the browser.
    deadline = time.monotonic() + 10
    while not held:
        assert time.monotonic() < deadline, "the home page asked the server for nothing"
        page.evaluate("0")
    released = True
    for route in held:
        route.continue_()
    # Every answer the page asked for has come back and been handled.
    page.wait_for_load_state("networkidle")
    expect(page.locator("#seats")).to_have_value("4")
