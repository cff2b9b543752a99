"""What a lobby and the list of open tables say, in a real browser: the table's options as
labels and values in words (never the raw keys), who of the seated is away (never
"Everyone is here." while someone is), and which seats of an open table computers hold."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import api_json, create_room

pytestmark = pytest.mark.e2e


def test_a_lobby_words_its_options_and_says_who_is_away_and_lists_mark_computers(
    pages: Any,
) -> None:
    ann = pages.open("ann")
    room_id = create_room(ann, game="cups", name="Ann", seats=3)
    options = ann.locator("#lobby-options")
    expect(options).to_contain_text("Played Cups go to a side pile: no")
    expect(options).to_contain_text("Drawing from a short stack: forgiven")
    expect(options).not_to_contain_text("cups aside")
    expect(options).not_to_contain_text("_")

    ann.locator('[data-action="bot"][data-seat="1"]').click()
    expect(ann.locator('.seat.taken[data-seat="1"]')).to_contain_text("computer")
    bob = pages.open("bob")
    bob.goto(f"/rooms/{room_id}")
    bob.locator("#sit-name").fill("Bob")
    bob.locator('[data-action="sit"][data-seat="2"]').click()
    expect(ann.locator("#lobby-hint")).to_have_text("Everyone is here.")
    # Bob's page goes: he still holds his seat, but he is away, and the host is told so.
    bob.context.close()
    expect(ann.locator("#lobby-hint")).to_have_text("Every seat is taken. Bob is away.")
    pages.shot(ann, "lobby-bob-away")

    # The open tables on the home page mark the computer player.
    cat = pages.open("cat")
    cat.goto("/")
    item = cat.locator(f'.room-item[data-room="{room_id}"]')
    expect(item).to_contain_text("(computer)")
    name = api_json(ann, f"/api/rooms/{room_id}")["seats"][1]["name"]
    expect(item.locator(".room-players")).to_contain_text(f"{name} (computer)")
    expect(item.locator(".room-players")).not_to_contain_text("Ann (computer)")
    pages.shot(cat, "open-tables-mark-computers")
