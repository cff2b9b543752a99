"""Usurp in a real browser: a whole match between two people that answers Uprisings with
both a Challenge (the Downcard is revealed) and a Give In, the summary of each hand that
ends (the Downcards turned at its end) shown to both players and the spectator while the
next hand is played, a spectator who never sees a hidden card, and the match reviewable."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from tests.conftest import LiveServer
from tests.e2e.flows import (
    create_room,
    finish_and_review,
    next_mover,
    pace,
    shown_state,
    version,
    wait_moved,
    wait_table,
    watch,
)
from tests.e2e.seeded import assert_dealt_from, seeded_server

pytestmark = pytest.mark.e2e

# Every match is dealt from this seed: with it, and both players choosing as below, the
# hands offer the four Uprisings the test answers (two of them Challenged, two Given In)
# and the match lasts more than one hand.
SEED = 1


@pytest.fixture
def server(tmp_path: Path, sqlite_template: Path) -> Iterator[LiveServer]:
    with seeded_server(tmp_path, sqlite_template, SEED, BOT_DELAY="0.02") as live:
        yield live


def expect_hand_summary(page: Page, summary: dict[str, Any]) -> None:
    """The table shows the hand that ended as the server sums it up: its turned Downcards,
    in order, and which were Renegs."""
    box = page.locator(".hand-summary")
    expect(box).to_contain_text(f"Hand {summary['hand']} ended")
    turned = summary["turned_downcards"]
    shown = box.locator("[data-card]").evaluate_all("els => els.map((e) => e.dataset.card)")
    assert shown == [d["card"] for d in turned]
    assert box.locator(".mini-card.reneg").count() == sum(d["reneg"] for d in turned)


def test_usurp_between_two_people_with_challenge_and_give_in(pages) -> None:
    eve = pages.open("eve", width=1280, height=900)
    pace(eve, 40)
    room_id = create_room(eve, game="usurp", name="Eve", options={"game_points": 2})
    fay = pages.open("fay", width=390, height=844)
    pace(fay, 40)
    fay.goto(f"/rooms/{room_id}")
    fay.locator("#sit-name").fill("Fay")
    fay.locator('[data-action="sit"][data-seat="1"]').click()
    expect(eve.locator('.seat[data-seat="1"]')).to_contain_text("Fay")
    watcher = watch(pages, room_id)
    eve.locator("#start-btn").click()
    for page in (eve, fay, watcher):
        wait_table(page)
    expect(eve.locator(".order-banner")).to_be_visible()
    pages.shot(eve, "table-start")

    uprisings = 0
    answers: list[str] = []
    summary: dict[str, Any] | None = None
    deadline = time.monotonic() + 240
    while (page := next_mover([eve, fay], deadline)) is not None:
        if summary is None and eve.locator(".hand-summary").count():
            # The first hand has ended and the next one is dealt: its summary stays on view.
            summary = shown_state(eve)["view"]["hand_summary"]
            for shown in (eve, fay, watcher):
                expect_hand_summary(shown, summary)
            pages.shot(watcher, "hand-summary")
        before = version(page)
        answer = page.locator('.actions [data-kind="challenge"], .actions [data-kind="give_in"]')
        if answer.count():
            # The first Uprising is challenged, the second given in, then alternate.
            kind = "challenge" if len(answers) % 2 == 0 else "give_in"
            pages.shot(page, f"answer-{kind}") if len(answers) < 2 else None
            page.locator(f'.actions [data-kind="{kind}"]').click()
            answers.append(kind)
            wait_moved(page, before)
            if kind == "challenge":
                # The challenged Downcard is revealed to both players.
                expect(page.locator(".callout.reveal")).to_be_visible()
                if answers.count("challenge") == 1:
                    pages.shot(page, "challenge-revealed")
            continue
        if page.locator(".actions .btn").count():
            page.locator(".actions .btn").first.click()  # the Order
        else:
            cards = page.locator(".hand .card.playable")
            # A hand card is named by its own text, which lists the plays it offers.
            riser = cards.filter(has_text="Uprise")
            want_uprise = uprisings < 4 and riser.count() > 0
            target = riser.first if want_uprise else cards.first
            page.mouse.move(1, 1)
            target.click(position={"x": 8, "y": 24})
            menu = page.locator(".choice-menu")
            if menu.count():
                selector = '[data-kind="uprise"]' if want_uprise else ".btn.primary"
                if uprisings == 0 and want_uprise:
                    pages.shot(page, "choice-menu")
                menu.locator(selector).first.click()
            if want_uprise:
                uprisings += 1
        wait_moved(page, before)
    assert uprisings == 4, "the hand never offered an Uprising"
    # Each Uprising chosen was answered (a card that can only go face down adds more), the
    # answers alternating from a Challenge.
    assert len(answers) >= uprisings, answers
    assert answers[:2] == ["challenge", "give_in"], answers
    assert summary is not None, "no hand ended before the last one"
    final = shown_state(eve)["view"]["hand_summary"]
    assert final["hand"] > summary["hand"]
    for page in (eve, fay, watcher):
        expect_hand_summary(page, final)
    finish_and_review(pages, eve, watcher, room_id, 2)
    assert_dealt_from(eve, room_id, SEED)
