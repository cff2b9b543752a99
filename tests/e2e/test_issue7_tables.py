"""Issue 7 in a real browser: whole matches of Cups, Royal Wife-Swap and Usurp through their
tables, a spectator at each who never sees a hidden card, and each match reviewable."""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import Page, expect

from tests.e2e.flows import (
    RECORD_CARDS,
    act_once,
    api_json,
    assert_no_hidden_cards_seen,
    create_room,
    is_over,
    pace,
    play_to_end,
    shown_scores,
    version,
    wait_moved,
    wait_table,
)

pytestmark = pytest.mark.e2e


def watch(pages, room_id: str, label: str = "watcher") -> Page:
    watcher = pages.open(label, width=1100, height=850)
    watcher.add_init_script(RECORD_CARDS)
    pace(watcher, 40)
    watcher.goto(f"/rooms/{room_id}/watch")
    expect(watcher.locator("#room")).to_have_attribute("aria-busy", "false")
    return watcher


def finish_and_review(pages, page: Page, watcher: Page, room_id: str, seats: int) -> None:
    """The match is over everywhere; the spectator saw no hidden card; the review ends right."""
    expect(watcher.locator(".table .result")).to_be_visible(timeout=30_000)
    room = api_json(page, f"/api/rooms/{room_id}")
    assert room["status"] == "finished"
    record = api_json(page, f"/api/matches/{room['match_id']}")
    assert shown_scores(page, seats) == record["scores"]
    pages.shot(page, "result")
    pages.shot(watcher, "spectator-result")
    review = api_json(page, f"/api/matches/{room['match_id']}/review")
    assert_no_hidden_cards_seen(watcher, review["frames"])
    page.goto("/history")
    page.locator(f'#mine .match-item[data-match="{room["match_id"]}"] a').click()
    expect(page.locator("#review-controls")).to_be_visible()
    last = len(review["frames"]) - 1
    page.keyboard.press("End")
    expect(page.locator("#step-label")).to_have_text(f"Move {last} of {last}")
    for seat in range(seats):
        expect(page.locator(f'.scoreboard [data-score="{seat}"]')).to_have_text(
            str(record["scores"][seat])
        )
    expect(page.locator(".result")).to_be_visible()
    pages.shot(page, "review-end")


def test_cups_three_seats_one_person_two_computers(pages) -> None:
    dora = pages.open("dora", width=1280, height=900)
    pace(dora, 40)
    room_id = create_room(dora, game="cups", name="Dora", seats=3)
    for seat in (1, 2):
        dora.locator(f'[data-action="bot"][data-seat="{seat}"]').click()
        expect(dora.locator(f'.seat[data-seat="{seat}"]')).to_contain_text("computer")
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


def test_usurp_between_two_people_with_challenge_and_give_in(pages) -> None:
    eve = pages.open("eve", width=1280, height=900)
    pace(eve, 40)
    room_id = create_room(eve, game="usurp", name="Eve", options={"game_points": 1})
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
    deadline = time.monotonic() + 240
    while not (is_over(eve) and is_over(fay)):
        assert time.monotonic() < deadline, "the Usurp match did not finish"
        moved = False
        for page in (eve, fay):
            if page.locator(".table.my-turn").count() == 0 or page.locator(".pending").count():
                continue
            before = version(page)
            answer = page.locator(
                '.actions [data-kind="challenge"], .actions [data-kind="give_in"]'
            )
            if answer.count():
                # The first Uprising is challenged, the second given in, then alternate.
                kind = "challenge" if len(answers) % 2 == 0 else "give_in"
                pages.shot(page, f"answer-{kind}") if len(answers) < 2 else None
                page.locator(f'.actions [data-kind="{kind}"]').click()
                answers.append(kind)
                if kind == "challenge":
                    wait_moved(page, before)
                    # The challenged Downcard is revealed to both players.
                    expect(page.locator(".callout.reveal")).to_be_visible()
                    if answers.count("challenge") == 1:
                        pages.shot(page, "challenge-revealed")
                    continue
            elif page.locator(".actions .btn").count():
                page.locator(".actions .btn").first.click()  # the Order
            else:
                cards = page.locator(".hand .card.playable")
                riser = page.locator('.hand .card.playable[aria-label*="Uprise"]')
                want_uprise = uprisings < 4 and riser.count() > 0
                target = riser.first if want_uprise else cards.first
                page.mouse.move(1, 1)
                target.click(position={"x": 8, "y": 24})
                menu = page.locator(".choice-menu")
                if menu.count():
                    kind = "uprise" if want_uprise else None
                    selector = f'[data-kind="{kind}"]' if kind else ".btn.primary"
                    option = menu.locator(selector)
                    if uprisings == 0 and want_uprise:
                        pages.shot(page, "choice-menu")
                    option.first.click()
                if want_uprise:
                    uprisings += 1
            wait_moved(page, before)
            moved = True
        if not moved:
            eve.wait_for_timeout(50)
    assert "challenge" in answers and "give_in" in answers, answers
    finish_and_review(pages, eve, watcher, room_id, 2)


def arrange_through_board(page: Page, layout: dict) -> None:
    """Build ``layout`` on the arrangement board by tapping cards and places."""
    page.locator('.arrange-board [data-key="act:clear"]').click()
    for index, family in enumerate(layout["families"]):
        for position, card in enumerate(family):
            page.locator(f'.arrange-board [data-board-card="{card}"]').click()
            place = "new" if position == 0 else str(index)
            page.locator(f'.arrange-board [data-place="{place}"]').click()
    for card in layout.get("orphans", []):
        page.locator(f'.arrange-board [data-board-card="{card}"]').click()
        page.locator('.arrange-board [data-place="orphans"]').click()


def play_wifeswap(pages, gus: Page, arranged: int) -> int:
    """Play one match as Gus, arranging through the board; returns arrangements so far."""
    deadline = time.monotonic() + 300
    while not is_over(gus):
        assert time.monotonic() < deadline, "the Wife-Swap match did not finish"
        if gus.locator(".arrange-board").count() and not gus.locator(".pending").count():
            before = version(gus)
            legal = gus.evaluate("window.parlourTable.current.view.legal_actions")
            layouts = [a for a in legal if a["type"] == "arrange"]
            if layouts and arranged < 2:
                arrange_through_board(gus, layouts[0])
                pages.shot(gus, f"board-{arranged}")
                gus.locator('.arrange-board [data-key="act:arrange"]').click()
                wait_moved(gus, before)
                # The accepted families are on the table, with the server's points.
                expect(gus.locator(".mine .family").first).to_be_visible()
                arranged += 1
                continue
            if layouts:
                # Later arrangements load the server's first suggestion into the board.
                gus.locator(".arrange-board .suggestions summary").click()
                gus.locator('.arrange-board [data-key="suggest:0"]').click()
                gus.locator('.arrange-board [data-key="act:arrange"]').click()
                arranged += 1
            else:
                gus.locator('.arrange-board [data-key="act:pass"]').click()
            wait_moved(gus, before)
            continue
        if not act_once(gus):
            gus.wait_for_timeout(40)
    return arranged


def test_wifeswap_three_seats_with_an_arrangement_on_the_board(pages) -> None:
    gus = pages.open("gus", width=1280, height=1000)
    pace(gus, 30)
    room_id = create_room(
        gus, game="wifeswap", name="Gus", seats=3, options={"target": 50, "rounds": 1}
    )
    for seat in (1, 2):
        gus.locator(f'[data-action="bot"][data-seat="{seat}"]').click()
        expect(gus.locator(f'.seat[data-seat="{seat}"]')).to_contain_text("computer")
    watcher = watch(pages, room_id)
    gus.locator("#start-btn").click()
    wait_table(gus)
    pages.shot(gus, "table-start")
    arranged = play_wifeswap(pages, gus, 0)
    finish_and_review(pages, gus, watcher, room_id, 3)
    # If the cards never offered Gus a family, play rematches until they do.
    current = room_id
    for _ in range(3):
        if arranged:
            break
        gus.goto(f"/rooms/{current}")
        gus.get_by_role("button", name="Rematch").click()
        gus.wait_for_url(lambda url, old=current: "/rooms/" in url and old not in url)
        current = gus.url.rstrip("/").split("/")[-1]
        gus.locator("#start-btn").click()
        wait_table(gus)
        arranged = play_wifeswap(pages, gus, arranged)
    assert arranged >= 1, "no arrangement was made through the board"
