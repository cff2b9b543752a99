"""Rematch by acceptance in a real browser: at the end of a match Ann proposes a rematch in
place; Bob and the watcher see the offer; Bob declines, Ann proposes again, Bob accepts — and
every page, the watcher's too, moves to the new match at once, without loading a page and
without asking the HTTP API for anything (the socket carries it)."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.accessibility import assert_accessible
from tests.e2e.flows import api_json, create_room, pace, play_to_end, wait_table, watch

pytestmark = pytest.mark.e2e


def test_a_rematch_proposed_and_accepted_in_place_starts_at_once(pages: Any) -> None:
    ann = pages.open("ann")
    pace(ann, 0)
    room_id = create_room(ann, game="cupid", name="Ann", options={"target": 10})
    bob = pages.open("bob", width=390, height=844)
    pace(bob, 0)
    bob.goto(f"/rooms/{room_id}")
    bob.locator("#sit-name").fill("Bob")
    bob.locator('[data-action="sit"][data-seat="1"]').click()
    eve = watch(pages, room_id, "eve")
    expect(ann.locator('.seat.taken[data-seat="1"]')).to_contain_text("Bob")
    ann.locator("#start-btn").click()
    for page in (ann, bob, eve):
        wait_table(page)
    play_to_end([ann, bob])

    # Each page marks its document (a page loaded anew would lose the mark) and notes every
    # page and API request it makes from the acceptance on.
    asked: list[str] = []
    for page in (ann, bob, eve):
        page.evaluate("window.__samePage = true")
        page.on(
            "request",
            lambda r: (
                asked.append(r.url) if "/api/" in r.url or r.resource_type == "document" else None
            ),
        )

    ann.get_by_role("button", name="Propose a rematch").click()
    expect(ann.locator(".rematch-offer")).to_have_text("You propose a rematch; waiting for Bob.")
    expect(bob.locator(".rematch-offer")).to_have_text("Ann proposes a rematch; waiting for you.")
    expect(eve.locator(".rematch-offer")).to_have_text("Ann proposes a rematch; waiting for Bob.")
    expect(eve.get_by_role("button", name="Accept the rematch")).to_have_count(0)
    pages.shot(bob, "rematch-offered")
    assert_accessible(bob, "a rematch offered")
    bob.get_by_role("button", name="Decline").click()
    expect(ann.locator(".rematch-offer")).to_have_text("Bob declined the rematch.")

    ann.get_by_role("button", name="Propose a rematch").click()
    asked.clear()
    bob.get_by_role("button", name="Accept the rematch").click()
    ann.wait_for_url(lambda url: "/rooms/" in url and room_id not in url)
    new_id = ann.url.rstrip("/").split("/")[-1]
    for page, path in ((ann, new_id), (bob, new_id), (eve, f"{new_id}/watch")):
        page.wait_for_url(f"**/rooms/{path}")
        expect(page.locator(".table .result")).to_have_count(0)
        wait_table(page)
        expect(page.locator(".table")).to_have_attribute("data-version", "0")
        assert page.evaluate("window.__samePage") is True
    expect(ann.locator(".mine .plate")).to_contain_text("Ann")
    expect(bob.locator(".mine .plate")).to_contain_text("Bob")
    expect(eve.locator(".mine.spectator")).to_be_visible()
    assert asked == [], asked
    pages.shot(bob, "rematch-started")
    room = api_json(ann, f"/api/rooms/{room_id}")
    assert room["rematch_id"] == new_id
    rematch = api_json(ann, f"/api/rooms/{new_id}")
    assert [s["name"] for s in rematch["seats"]] == ["Ann", "Bob"]
    assert rematch["status"] == "playing"
