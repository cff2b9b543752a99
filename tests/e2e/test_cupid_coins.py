"""Cupid and Coins in a real browser: two people play a whole Cupid match by clicking cards
while a third watches (and never sees a hidden card), a move the server refuses is
explained next to the hand, a reload mid-match restores the seat, the finished match is in
history and its review steps to the final score; a Coins match with one person and two
computer players completes; and a table reconnects by itself when the server comes back."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from tests.e2e.flows import (
    RECORD_CARDS,
    act_once,
    api_json,
    create_room,
    hand,
    is_over,
    next_mover,
    pace,
    pass_moves_through_test,
    play_to_end,
    play_until,
    rewrite_next_move,
    settle,
    shown_scores,
    version,
    wait_table,
)

pytestmark = pytest.mark.e2e


def test_cupid_match_between_two_browsers_with_a_spectator(pages) -> None:
    ann = pages.open("ann")
    pass_moves_through_test(ann)
    ann.goto("/")
    expect(ann.locator(".game-choice")).to_have_count(5)
    pages.shot(ann, "home")
    room_id = create_room(ann, game="cupid", name="Ann", options={"target": 25})
    invite = ann.locator("#invite-url").input_value()
    assert invite.endswith(f"/rooms/{room_id}")
    ann.locator("#copy-link").click()
    expect(ann.locator("#copy-status")).not_to_be_empty()
    pages.shot(ann, "lobby-host")

    # Bob opens the link on a phone-sized screen and takes the free seat.
    bob = pages.open("bob", width=360, height=780)
    pass_moves_through_test(bob)
    bob.goto(invite)
    expect(bob.locator("#lobby")).to_be_visible()
    bob.locator("#sit-name").fill("Bob")
    bob.locator('[data-action="sit"][data-seat="1"]').click()
    expect(bob.locator(".seat.mine")).to_contain_text("Bob")
    pages.shot(bob, "lobby-guest-phone")

    # A third person watches through the watch link and records every card face shown.
    watcher = pages.open("watcher", width=1024, height=800)
    watcher.add_init_script(RECORD_CARDS)
    watcher.goto(f"/rooms/{room_id}/watch")
    expect(watcher.locator("#lobby")).to_be_visible()

    expect(ann.locator('.seat[data-seat="1"]')).to_contain_text("Bob")
    ann.locator("#start-btn").click()
    for page in (ann, bob, watcher):
        wait_table(page)
    expect(ann.locator(".hand .card")).to_have_count(5)
    expect(bob.locator(".hand .card")).to_have_count(5)
    expect(watcher.locator(".hand")).to_have_count(0)
    pages.shot(ann, "table-start")
    pages.shot(bob, "table-start-phone")

    # A move the server refuses is explained in words next to the hand that made it: the
    # card played is changed on its way to the server into one the player does not hold.
    first = next_mover([ann, bob], time.monotonic() + 30)
    assert first is not None
    rewrite_next_move(first, lambda sent: {**sent, "action": {"type": "play", "card": "9C"}})
    first.mouse.move(1, 1)
    first.locator(".hand .card.playable").first.click(position={"x": 8, "y": 24})
    refusal = first.locator('.action-error[data-slot="hand"]')
    expect(refusal).to_be_visible()
    expect(refusal).not_to_be_empty()
    pages.shot(first, "refused-move")

    reloaded = {}

    def midway(moves: int) -> None:
        if moves == 3 and not reloaded:
            # Reloading mid-match restores Bob's seat and hand.
            settle(bob)
            before_hand, before_version = hand(bob), version(bob)
            bob.reload()
            wait_table(bob)
            settle(bob)
            expect(bob.locator(".mine .plate")).to_contain_text("Bob")
            expect(bob.locator(".mine .plate")).to_contain_text("(you)")
            if version(bob) == before_version:
                assert hand(bob) == before_hand
            reloaded["done"] = True
            pages.shot(bob, "after-reload")
        if moves == 6:
            pages.shot(ann, "mid-match")
            pages.shot(watcher, "spectator-mid-match")

    play_to_end([ann, bob], on_step=midway)
    assert reloaded, "the match ended before the reload was tried"
    expect(watcher.locator(".table .result")).to_be_visible()
    assert is_over(watcher)

    room = api_json(ann, f"/api/rooms/{room_id}")
    assert room["status"] == "finished"
    record = api_json(ann, f"/api/matches/{room['match_id']}")
    winner = record["winners"][0]
    assert max(record["scores"]) >= 25
    names = ["Ann", "Bob"]
    for page, seat in ((ann, 0), (bob, 1), (watcher, None)):
        expected = "You" if seat == winner else names[winner]
        expect(page.locator(".result h2")).to_contain_text(expected)
        assert shown_scores(page, 2) == record["scores"]
    expect(ann.get_by_role("button", name="Propose a rematch")).to_be_visible()
    pages.shot(ann, "result")
    pages.shot(bob, "result-phone")
    pages.shot(watcher, "spectator-result")

    # The spectator never saw a card that was in someone's hand at that moment.
    review = api_json(ann, f"/api/matches/{room['match_id']}/review")
    frames = review["frames"]
    seen = watcher.evaluate("window.__seen")
    assert seen, "the spectator page recorded nothing"
    for entry in seen:
        assert entry["hands"] == 0
        hidden = {card for seat_hand in frames[entry["version"]]["hands"] for card in seat_hand}
        leaked = hidden & set(entry["cards"])
        assert not leaked, f"spectator saw hidden {leaked} at version {entry['version']}"

    # A rematch in place: Ann proposes it, Bob accepts, and both tables move to the new
    # match, with the same people in the same seats.
    ann.get_by_role("button", name="Propose a rematch").click()
    expect(bob.get_by_role("button", name="Accept the rematch")).to_be_visible()
    pages.shot(bob, "rematch-offered-phone")
    bob.get_by_role("button", name="Accept the rematch").click()
    for page, name in ((ann, "Ann"), (bob, "Bob")):
        page.wait_for_url(lambda url: "/rooms/" in url and room_id not in url)
        expect(page.locator(".table .result")).to_have_count(0)
        expect(page.locator(".mine .plate")).to_contain_text(name)

    # The match is in Ann's history; its review steps to the final score.
    ann.goto("/history")
    item = ann.locator(f'#mine .match-item[data-match="{room["match_id"]}"]')
    expect(item).to_be_visible()
    pages.shot(ann, "history")
    item.get_by_role("link", name="Review this").click()
    ann.wait_for_url(f"**/matches/{room['match_id']}")
    expect(ann.locator("#review")).to_have_attribute("aria-busy", "false")
    expect(ann.locator("#step-label")).to_have_text(f"Move 0 of {len(frames) - 1}")
    pages.shot(ann, "review-start")
    ann.locator("#next-step").click()
    expect(ann.locator("#step-label")).to_have_text(f"Move 1 of {len(frames) - 1}")
    ann.keyboard.press("End")
    expect(ann.locator("#step-label")).to_have_text(f"Move {len(frames) - 1} of {len(frames) - 1}")
    for seat in range(2):
        expect(ann.locator(f'[data-legend-score="{seat}"]')).to_have_text(
            str(record["scores"][seat])
        )
        expect(ann.locator(f'.scoreboard [data-score="{seat}"]')).to_have_text(
            str(record["scores"][seat])
        )
    expect(ann.locator(".result")).to_be_visible()
    pages.shot(ann, "review-end")


def test_coins_match_one_person_two_computers(pages) -> None:
    cleo = pages.open("cleo", width=412, height=915)
    pace(cleo, 80)
    room_id = create_room(cleo, game="coins", name="Cleo", options={"target": 10})
    for seat in (1, 2):
        cleo.locator(f'[data-action="bot"][data-seat="{seat}"]').click()
        expect(cleo.locator(f'.seat.taken[data-seat="{seat}"]')).to_contain_text("computer")
    pages.shot(cleo, "lobby-with-computers")
    cleo.locator("#start-btn").click()
    wait_table(cleo)
    expect(cleo.locator(".hand .card")).to_have_count(16)
    pages.shot(cleo, "table-start")
    # Every other card is played from the keyboard (focus and Enter), the rest by clicking.
    play_to_end(
        [cleo],
        keyboard=True,
        on_step=lambda n: pages.shot(cleo, "mid-match") if n == 5 else None,
    )
    room = api_json(cleo, f"/api/rooms/{room_id}")
    record = api_json(cleo, f"/api/matches/{room['match_id']}")
    assert room["status"] == "finished"
    assert max(record["scores"]) >= 10
    assert shown_scores(cleo, 3) == record["scores"]
    pages.shot(cleo, "result")


def test_reconnect_restores_the_table_without_a_reload(pages, server) -> None:
    # The server is killed mid-match and started again: the page shows it is offline,
    # reconnects by itself (with backoff) and carries on from the same table.
    pages.allow(r"WebSocket connection to .* failed")
    hal = pages.open("hal", width=800, height=900)
    pace(hal, 60)
    create_room(hal, game="cupid", name="Hal", options={"target": 60})
    hal.locator('[data-action="bot"][data-seat="1"]').click()
    expect(hal.locator('.seat.taken[data-seat="1"]')).to_contain_text("computer")
    hal.locator("#start-btn").click()
    wait_table(hal)
    hal.evaluate("window.__sameDocument = true")
    play_until([hal], lambda: version(hal) >= 2 and hal.locator(".table.my-turn").count() > 0)
    before_hand, before_version = hand(hal), version(hal)
    server.kill()
    expect(hal.locator("#conn")).to_contain_text("Offline")
    expect(hal.locator(".table-wrap.offline")).to_have_count(1)
    pages.shot(hal, "offline")
    server.start()
    expect(hal.locator("#conn")).to_have_text("Connected", timeout=20_000)
    expect(hal.locator(".table-wrap.offline")).to_have_count(0)
    assert hal.evaluate("window.__sameDocument") is True
    assert version(hal) == before_version
    assert hand(hal) == before_hand
    pages.shot(hal, "reconnected")
    assert act_once(hal), "the restored table did not accept a move"
