"""Cups in a real browser: a whole three-seat match of one person and two computer players
through the table, a spectator who never sees a hidden card, and the match reviewable."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import (
    create_room,
    finish_and_review,
    pace,
    play_to_end,
    wait_table,
    watch,
)

pytestmark = pytest.mark.e2e


def test_cups_three_seats_one_person_two_computers(pages) -> None:
    dora = pages.open("dora", width=1280, height=900)
    pace(dora, 40)
    room_id = create_room(dora, game="cups", name="Dora", seats=3)
    for seat in (1, 2):
        dora.locator(f'[data-action="bot"][data-seat="{seat}"]').click()
        expect(dora.locator(f'.seat.taken[data-seat="{seat}"]')).to_contain_text("computer")
    watcher = watch(pages, room_id)
    dora.locator("#start-btn").click()
    wait_table(dora)
    expect(dora.locator(".hand .card")).to_have_count(7)
    expect(dora.locator(".direction")).to_be_visible()
    pages.shot(dora, "table-start")
    play_to_end(
        [dora],
        timeout=200,
        on_step=lambda n: pages.shot(dora, "mid-match") if n == 12 else None,
    )
    finish_and_review(pages, dora, watcher, room_id, 3)
