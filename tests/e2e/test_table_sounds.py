"""The table's sounds in a real browser: with sound on, a card played, a trick taken and a new
deal each make their sound at the move that did it (checked against the state behind the
table at that moment), and so does the your-turn chime; the one "Sound" switch on the table,
remembered by the browser, silences every one of them."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.flows import (
    SOUND_RECORDER,
    create_room,
    pace,
    play_until,
    received_states,
    sounds,
    table_state,
    wait_table,
)

pytestmark = pytest.mark.e2e


def start_against_a_computer(page: Page) -> None:
    create_room(page, game="cupid", name="Ann", options={"target": 121})
    page.locator('[data-action="bot"][data-seat="1"]').click()
    expect(page.locator('.seat.taken[data-seat="1"]')).to_contain_text("computer")
    page.locator("#start-btn").click()
    wait_table(page)


def test_each_move_makes_its_sound_and_the_switch_silences_them_all(pages: Any) -> None:
    ann = pages.open("ann")
    pace(ann, 0)
    ann.add_init_script(SOUND_RECORDER)
    start_against_a_computer(ann)
    toggle = ann.locator(".table .sound-toggle")
    expect(toggle).to_have_attribute("aria-pressed", "true")  # on until turned off

    def dealt_again() -> bool:
        return any(s["sound"] == "shuffle" and s["version"] > 0 for s in sounds(ann))

    # Played until a second deal: every kind of move has happened by then.
    play_until([ann], dealt_again, timeout=240)
    heard = sounds(ann)
    states = received_states(ann)
    kinds = {s["sound"] for s in heard}
    assert {"shuffle", "card", "trick", "turn"} <= kinds, kinds
    assert ann.evaluate("window.__tones") > 0  # the notes were played, not only counted
    for played in heard:
        state = states[played["version"]]
        event = state["event"]
        if played["sound"] == "trick":
            assert event and event.get("trick"), played
        elif played["sound"] == "card":
            assert event and not event.get("trick"), played
        elif played["sound"] == "shuffle" and played["version"] > 0:
            before = states.get(played["version"] - 1)
            assert before is None or before["view"]["dealer"] != state["view"]["dealer"]
        elif played["sound"] == "turn":
            assert 0 in states[played["wire"]]["view"]["to_act"], played
    # No sound for a move on any frame that shows none: each version sounds once at most.
    moves = [s["version"] for s in heard if s["sound"] in ("card", "trick", "shuffle")]
    assert len(moves) == len(set(moves)), moves

    # Off: no sound of any kind, the chime included, and the browser remembers it — at this
    # table after a reload, and at the next.
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    ann.reload()
    wait_table(ann)
    expect(ann.locator(".table .sound-toggle")).to_have_attribute("aria-pressed", "false")
    start_against_a_computer(ann)
    expect(ann.locator(".table .sound-toggle")).to_have_attribute("aria-pressed", "false")
    before_tones = ann.evaluate("window.__tones")
    moves_made = play_until([ann], lambda: len(received_states(ann)) > 12)
    assert moves_made > 0, table_state(ann)
    assert sounds(ann) == []
    assert ann.evaluate("window.__tones") == before_tones


def test_a_page_makes_no_audio_before_its_first_gesture(pages: Any) -> None:
    """A browser keeps sound made before a page's first gesture silent, and making the page's
    audio costs a phone a long task while the table is first drawn: a watcher who has not
    clicked yet is told of each move's sound, but no audio is made until the first click."""
    ann = pages.open("ann")
    start_against_a_computer(ann)
    room_id = ann.url.rstrip("/").split("/")[-1]
    watcher = pages.open("watcher")
    watcher.add_init_script(SOUND_RECORDER)
    watcher.goto(f"/rooms/{room_id}/watch")
    wait_table(watcher)
    play_until([ann], lambda: len(sounds(watcher)) >= 2, timeout=120)
    assert watcher.evaluate("window.__contexts") == 0
    watcher.locator("body").click(position={"x": 2, "y": 2})
    heard = len(sounds(watcher))
    play_until([ann], lambda: len(sounds(watcher)) > heard, timeout=120)
    assert watcher.evaluate("window.__contexts") == 1
    assert watcher.evaluate("window.__tones") > 0
