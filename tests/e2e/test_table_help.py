"""A word of help at the table in a real browser: every control that takes one of Usurp's
actions is described (aria-describedby) in the words of the game's rules, and shows them in a
tooltip under the pointer or the focus; and the first time a person plays a game, its
walkthrough opens over the table — step by step, skippable, remembered by the browser, and
opened again from the table's "How to play" button."""

from __future__ import annotations

import re
from typing import Any

import pytest
from playwright.sync_api import Page, expect

from app.routes.guide import action_help
from tests.e2e.accessibility import assert_accessible
from tests.e2e.flows import act_once, create_room, settle, wait_table

pytestmark = pytest.mark.e2e


def start_against_a_computer(page: Page, game: str) -> None:
    create_room(page, game=game, name="Ann")
    page.locator('[data-action="bot"][data-seat="1"]').click()
    expect(page.locator('.seat.taken[data-seat="1"]')).to_contain_text("computer")
    page.locator("#start-btn").click()
    wait_table(page)


def within_the_window(page: Page, tip: Any) -> None:
    """The tooltip lies wholly inside the window, 8 px from its sides."""
    box = tip.bounding_box()
    width = page.evaluate("() => window.innerWidth")
    assert box is not None and box["x"] >= 8 and box["x"] + box["width"] <= width - 8, (
        box,
        width,
    )


def described(page: Page, control: Any, kind: str) -> None:
    """``control`` is described by the help on ``kind``, and shows it when focused."""
    help_ = action_help("usurp")[kind]
    words = f"{help_['name']}: {help_['text']}"
    expect(control).to_have_accessible_description(words)
    # As if the tooltip was last shown for a control at the window's right edge.
    page.evaluate(
        "() => { const tip = document.querySelector('.help-tip');"
        " if (tip) tip.style.left = `${innerWidth - 60}px`; }"
    )
    control.focus()
    tip = page.locator(".help-tip")
    expect(tip).to_be_visible()
    expect(tip).to_have_text(words)
    within_the_window(page, tip)
    page.keyboard.press("Escape")
    expect(tip).to_be_hidden()


@pytest.mark.parametrize("width", [1280, 360])
def test_usurp_actions_say_what_they_mean(pages: Any, width: int) -> None:
    # At 360 px with a mouse too: a phone-wide window, the tooltips near its right edge.
    ann = pages.open("ann", width=width, height=740)
    start_against_a_computer(ann, "usurp")
    checked: set[str] = set()
    for _ in range(20):
        ann.wait_for_function("() => document.querySelector('.table.my-turn')")
        settle(ann)
        buttons = ann.locator(".table .actions [data-help]")
        if buttons.count():
            kind = buttons.first.get_attribute("data-help") or ""
            described(ann, buttons.first, kind)
            checked.add(kind)
            buttons.first.click()
            continue
        # A card that offers several plays: its menu's buttons, Uprise among them. (A free
        # play offers one play a card: then play on.)
        several = ann.locator('.hand .card.playable[aria-haspopup="true"]')
        if not several.count():
            assert act_once(ann)
            continue
        ann.mouse.move(1, 1)
        several.first.click(position={"x": 8, "y": 24})
        menu = ann.locator(".choice-menu [data-help]")
        expect(menu.first).to_be_visible()
        uprise = ann.locator('.choice-menu [data-help="uprise"]')
        # Under the pointer.
        uprise.hover()
        expect(ann.locator(".help-tip")).to_have_text(re.compile("^Uprise: "))
        pages.shot(ann, "help-on-uprise")
        assert_accessible(ann, "usurp's choice menu with help shown")
        for kind in menu.evaluate_all("els => els.map((el) => el.dataset.help)"):
            expect(ann.locator(f'.choice-menu [data-help="{kind}"]').first).to_have_attribute(
                "aria-describedby", f"help-{kind}"
            )
            checked.add(kind)
        # Under the focus (Escape then hides it, and closes the menu).
        described(ann, uprise, "uprise")
        break
    assert "uprise" in checked, checked


def test_a_first_match_opens_the_walkthrough_once(pages: Any) -> None:
    ann = pages.open("ann", newcomer=True)
    start_against_a_computer(ann, "cupid")
    # Named by its step's heading: the game's name first.
    expect(ann.get_by_role("dialog", name="Cupid")).to_be_visible()
    dialog = ann.locator("dialog.walkthrough")
    expect(dialog).to_contain_text("step 1 of")
    total = int(re.findall(r"of (\d+)", dialog.locator(".walkthrough-count").inner_text())[0])
    assert total >= 5
    pages.shot(ann, "walkthrough")
    assert_accessible(ann, "the walkthrough")
    # Step by step to the end.
    for step in range(2, total + 1):
        dialog.get_by_role("button", name="Next").click()
        expect(dialog).to_contain_text(f"step {step} of {total}")
    dialog.get_by_role("button", name="Back").click()
    expect(dialog).to_contain_text(f"step {total - 1} of {total}")
    dialog.get_by_role("button", name="Next").click()
    dialog.get_by_role("button", name="Start playing").click()
    expect(ann.locator("dialog.walkthrough")).to_be_hidden()

    # Not again at this game, even after a reload; opened again from the table.
    ann.reload()
    wait_table(ann)
    settle(ann)
    expect(ann.locator("dialog.walkthrough")).to_have_count(0)
    ann.get_by_role("button", name="How to play").click()
    expect(ann.get_by_role("dialog", name="Cupid")).to_be_visible()
    expect(dialog).to_contain_text("step 1 of")
    dialog.get_by_role("button", name="Skip").click()
    expect(dialog).to_be_hidden()

    # Another game is new to Ann: skipped at once, with Escape, it is not offered again.
    start_against_a_computer(ann, "cups")
    cups = ann.get_by_role("dialog", name="Cups")
    expect(cups).to_be_visible()
    ann.keyboard.press("Escape")
    expect(cups).to_be_hidden()
    ann.reload()
    wait_table(ann)
    settle(ann)
    expect(ann.locator("dialog.walkthrough")).to_have_count(0)
