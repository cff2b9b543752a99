"""A strong computer player in a real browser: the host picks the level in the lobby, seats
a strong computer at a Cupid table and plays a whole match against it; the computer thinks
in the server's worker processes and every one of its moves is played as ``strong``."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import api_json, create_room, pace, play_to_end, wait_table

pytestmark = pytest.mark.e2e


def test_a_person_plays_a_cupid_match_against_a_strong_computer(pages) -> None:
    ann = pages.open("ann")
    pace(ann, 40)
    room_id = create_room(ann, game="cupid", name="Ann", options={"target": 25})
    level = ann.locator('[data-action="bot-level"][data-seat="1"]')
    expect(level.locator("option")).to_have_text(["Easy", "Normal", "Strong"])
    level.select_option("strong")
    ann.locator('[data-action="bot"][data-seat="1"]').click()
    expect(ann.locator('.seat.taken[data-seat="1"]')).to_contain_text("computer")
    room = api_json(ann, f"/api/rooms/{room_id}")
    assert room["seats"][1]["bot"] == "strong"
    pages.shot(ann, "lobby-with-a-strong-computer")
    ann.locator("#start-btn").click()
    wait_table(ann)
    play_to_end([ann], timeout=240)
    pages.shot(ann, "result")
    room = api_json(ann, f"/api/rooms/{room_id}")
    assert room["status"] == "finished"
    record = api_json(ann, f"/api/matches/{room['match_id']}")
    strong_moves = [e for e in record["events"] if e.get("by") == {"bot": "strong"}]
    assert strong_moves, "the computer made no move"
    assert all(e["seat"] == 1 for e in strong_moves)
    assert max(record["scores"]) >= 25
