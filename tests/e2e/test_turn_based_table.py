"""A turn-based table in a real browser: Ann opens one (three days a move) from the home
page, Bob takes the other seat by its link, they play a few moves by clicking, and once it
is Ann's turn she closes the page. Her "Your tables" page lists the table as awaiting her,
with its deadline, and every page's header counts it — rendered by the server, not filled
in afterwards."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.accessibility import assert_accessible
from tests.e2e.flows import api_json, create_room, play_until, turn_of, wait_table

pytestmark = pytest.mark.e2e


def test_a_turn_based_table_closed_midway_is_in_your_tables_and_the_header(pages) -> None:
    ann = pages.open("ann")
    room_id = create_room(ann, game="cupid", name="Ann", options={"target": 121}, days_per_move=3)
    room = api_json(ann, f"/api/rooms/{room_id}")
    assert room["pace"] == "turn_based" and room["days_per_move"] == 3
    invite = ann.locator("#invite-url").input_value()

    bob = pages.open("bob")
    bob.goto(invite)
    bob.locator("#sit-name").fill("Bob")
    bob.locator('[data-action="sit"][data-seat="1"]').click()
    expect(bob.locator(".seat.mine")).to_contain_text("Bob")
    ann.locator("#start-btn").click()
    for page in (ann, bob):
        wait_table(page)
    # The awaited seat's clock counts days down.
    expect(ann.locator(".plate .clock").first).to_contain_text(" d ")

    moves = []
    play_until(
        [ann, bob],
        lambda: len(moves) >= 4 and turn_of(ann)["mine"],
        on_step=moves.append,
    )
    pages.shot(ann, "table-ann-to-move")
    # Bob may act on Ann's deadline only once it has passed: the buttons count days down.
    expect(bob.locator(".deadline-actions .replace")).to_contain_text(
        "Let a computer play for Ann (in 2 d"
    )
    expect(bob.locator(".deadline-actions .claim")).to_be_disabled()
    expect(ann.locator(".deadline-actions")).to_have_count(0)
    ann.close()

    again = pages.open("ann-again")
    again.context.add_cookies(ann.context.cookies())
    again.goto("/tables")
    row = again.locator(f'tr[data-room="{room_id}"]')
    expect(row).to_be_visible()
    expect(row).to_have_attribute("data-your-turn", "true")
    expect(row).to_contain_text("Cupid")
    expect(row).to_contain_text("Bob")
    expect(row).to_contain_text("Yours")
    # The header's count is in the page as the server sent it.
    expect(again.locator("#awaiting-count")).to_contain_text("1")
    assert 'id="awaiting-count"' in again.request.get("/tables").text()
    pages.shot(again, "your-tables")
    assert_accessible(again, "Your tables")
    row.get_by_role("link", name="Cupid").click()
    again.wait_for_url(f"**/rooms/{room_id}")
    wait_table(again)
    assert turn_of(again)["mine"]
    # Bob, whose move it is not, has no count.
    bob.goto("/tables")
    expect(bob.locator(f'tr[data-room="{room_id}"]')).to_contain_text("Ann")
    expect(bob.locator("#awaiting-count")).to_have_count(0)
