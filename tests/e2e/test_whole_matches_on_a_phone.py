"""A whole match of every game played on a 360 x 740 phone (a touch screen, as Chromium
emulates one), in real Chromium, dealt from a fixed seed so that every run meets the same
decisions.

At every decision of the phone's player, from the top of the page and without scrolling,
the turn banner, the hand (on Royal Wife-Swap's arrangement board, the cards to lay) and
every action button are on the screen together, and nothing scrolls sideways. The first
time each kind of state shows up (the game's phase with the kinds of move offered: Cupid's
draw step, Usurp's Uprising answer, Wife-Swap's arrangement board among them) the same is
checked at 390 x 844, and axe-core finds nothing wrong there. When the match is over the
result and the rematch are on the screen. Then, at both sizes, no page of the site a
player goes to next scrolls sideways: the lobby, the review, the history, the player's
page, the leaderboard and the rules.

Usurp's opponent is a second person (on a desktop) who rises up whenever a card allows
it, so that the phone's player answers Uprisings; the other games are played against
computers, whose choices come from the seeded match too.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

from tests.conftest import LiveServer
from tests.e2e.accessibility import assert_accessible
from tests.e2e.flows import (
    act_once,
    api_json,
    next_mover,
    pace,
    post_json,
    settle,
    table_state,
    version,
    wait_moved,
    wait_table,
)
from tests.e2e.seeded import seeded_server

pytestmark = pytest.mark.e2e

PHONE = {"width": 360, "height": 740}
LARGER_PHONE = {"width": 390, "height": 844}
SEED = 3

# Short matches, opened through the API (so that the first dealer is fixed as well).
MATCHES: dict[str, dict[str, Any]] = {
    "cupid": {"seats": 2, "options": {"target": 30, "dealer": 0}},
    "coins": {"seats": 3, "options": {"target": 10, "dealer": 0}},
    "cups": {"seats": 2, "options": {"dealer": 0}},
    "usurp": {"seats": 2, "options": {"game_points": 2, "dealer": 0}},
    "wifeswap": {"seats": 3, "options": {"target": 50, "dealer": 0}},
}

# The states each game's match must meet (a phase, or a kind of move offered).
MUST_MEET = {
    "cupid": {"draw"},
    "usurp": {"challenge"},
    "wifeswap": {"board"},
}

# What a decision shows: the turn banner, the hand (or the cards the arrangement board
# offers), the action buttons; what lies outside the screen; the state's kind.
DECISION = """() => {
  window.scrollTo(0, 0);
  const all = (selector) => [...document.querySelectorAll(selector)];
  const board = document.querySelector('.arrange-board');
  const parts = {
    banner: all('.turn-banner'),
    hand: board ? all('.arrange-board .board-pool .card') : all('.hand .card'),
    actions: board
      ? all('.arrange-board .board-actions .btn')
      : all('.table .actions .btn, .table .pile.clickable'),
  };
  const outside = [];
  for (const [part, els] of Object.entries(parts)) {
    for (const el of els) {
      if (!el.getClientRects().length) continue;  // not drawn at this size
      const r = el.getBoundingClientRect();
      if (r.top < 0 || r.left < -1 || r.bottom > innerHeight + 1 || r.right > innerWidth + 1) {
        const what = el.dataset.card || el.dataset.key || el.className;
        outside.push(`${part} ${what} at ${Math.round(r.top)},${Math.round(r.left)}`
          + ` to ${Math.round(r.bottom)},${Math.round(r.right)}`);
      }
    }
  }
  const state = window.__states?.[document.querySelector('.table')?.dataset.version];
  const kinds = [...new Set((state?.view.legal_actions || []).map((a) => a.type))].sort();
  return {
    banner: parts.banner.length,
    hand: parts.hand.length,
    holds: board ? 1 : (state?.view.hand || []).length,
    outside,
    wide: document.documentElement.scrollWidth > innerWidth,
    kind: [document.querySelector('.table')?.dataset.phase || '', ...kinds,
      board ? 'board' : ''].filter(Boolean).join(' '),
  };
}"""

FITS = f"""() => {{
  const found = ({DECISION})();
  return found.banner && (found.hand || !found.holds) && !found.outside.length && !found.wide;
}}"""

WIDE = "() => document.documentElement.scrollWidth > innerWidth"


@pytest.fixture
def server(tmp_path: Path, sqlite_template: Path) -> Iterator[LiveServer]:
    with seeded_server(tmp_path, sqlite_template, SEED, BOT_DELAY="0.02") as live:
        yield live


def decision(page: Page, size: dict[str, int]) -> dict[str, Any]:
    """The decision the page shows, judged at ``size`` once its layout has settled there."""
    if page.viewport_size != size:
        page.set_viewport_size(size)
    settle(page)
    # The hand lays itself out again after a change of width, sooner or later on a busy
    # machine: what is judged is the layout the page reaches.
    with suppress(PlaywrightTimeoutError):
        page.wait_for_function(FITS, timeout=3_000)
    found: dict[str, Any] = page.evaluate(DECISION)
    return found


def assert_decision_fits(found: dict[str, Any], where: str) -> None:
    assert found["banner"], f"no turn banner at {where}"
    assert found["hand"] or not found["holds"], f"no hand at {where}"
    assert not found["outside"], f"off the screen at {where}: {found['outside']}"
    assert not found["wide"], f"the page scrolls sideways at {where}"


def open_match(phone: Page, game: str, partner: Page | None) -> str:
    """The phone's player opens the table (and signs up, for a player page of their own);
    computers, or ``partner``, fill the other seats; the match starts. Returns the room id."""
    match = MATCHES[game]
    phone.goto("/")
    post_json(phone, "/api/session", {"name": "Ann"})
    post_json(phone, "/api/accounts", {"username": f"ann_{game}", "password": "phone-play-1"})
    body = {"game": game, "seats": match["seats"], "options": match["options"]}
    room_id = str(post_json(phone, "/api/rooms", body)["id"])
    phone.goto(f"/rooms/{room_id}")
    expect(phone.locator("#lobby")).to_be_visible()
    if partner is not None:
        partner.goto(f"/rooms/{room_id}")
        partner.locator("#sit-name").fill("Bob")
        partner.locator('[data-action="sit"][data-seat="1"]').click()
        expect(phone.locator('.seat[data-seat="1"]')).to_contain_text("Bob")
    for seat in range(1 if partner is None else 2, match["seats"]):
        phone.locator(f'[data-action="bot"][data-seat="{seat}"]').click()
        expect(phone.locator(f'.seat.taken[data-seat="{seat}"]')).to_contain_text("computer")
    phone.locator("#start-btn").click()
    wait_table(phone)
    if partner is not None:
        wait_table(partner)
    return room_id


def rise_up_when_offered(page: Page) -> None:
    """The partner's move: an Uprising when a card allows one, else what is offered first."""
    riser = page.locator(".hand .card.playable").filter(has_text="Uprise")
    if page.locator(".actions .btn").count() or not riser.count():
        assert act_once(page), f"its turn, but nothing to click: {table_state(page)}"
        return
    before = version(page)
    page.mouse.move(1, 1)
    riser.first.click(position={"x": 8, "y": 24})
    menu = page.locator(".choice-menu")
    if menu.count():
        menu.locator('[data-kind="uprise"]').first.click()
    wait_moved(page, before)


def play_the_last_card(page: Page) -> None:
    """The phone's move: a button or pile when one is offered, else the last card it may
    play (the hand runs low to high, so it wins tricks now and then, and has draws and
    arrangements to make)."""
    cards = page.locator(".hand .card.playable")
    if page.locator(".table .actions .btn, .table .pile.clickable").count() or not cards.count():
        assert act_once(page), f"its turn, but nothing to click: {table_state(page)}"
        return
    before = version(page)
    page.mouse.move(1, 1)
    cards.last.click(position={"x": 8, "y": 24})
    menu = page.locator(".choice-menu .btn.primary")
    if menu.count():
        menu.first.click()
    wait_moved(page, before)


def play_on_the_phone(
    pages: Any, phone: Page, partner: Page | None, game: str
) -> tuple[int, set[str]]:
    """The phone's move at each of its decisions, each checked first, and the partner's
    moves. Returns how many decisions the phone had and the kinds of state met."""
    decisions, met = 0, set()
    deadline = time.monotonic() + 420
    players = [phone] if partner is None else [phone, partner]
    while (mover := next_mover(players, deadline)) is not None:
        if mover is not phone:
            rise_up_when_offered(mover)
            continue
        found = decision(phone, PHONE)
        decisions += 1
        where = f"{game}, decision {decisions} ({found['kind']}), 360 x 740"
        if found["outside"] or found["wide"]:
            pages.shot_viewport(phone, f"{game}-decision-{decisions}-does-not-fit")
        assert_decision_fits(found, where)
        if found["kind"] not in met:
            met.add(found["kind"])
            pages.shot_viewport(phone, f"{game}-{found['kind'].replace(' ', '-')}")
            larger = decision(phone, LARGER_PHONE)
            assert_decision_fits(larger, where.replace("360 x 740", "390 x 844"))
            assert_accessible(phone, where)
            decision(phone, PHONE)
        before = version(phone)
        board_pass = phone.locator('.arrange-board [data-key="act:pass"]')
        if board_pass.count():
            board_pass.click()
            wait_moved(phone, before)
        else:
            play_the_last_card(phone)
    return decisions, {word for kind in met for word in kind.split()}


def assert_no_page_scrolls_sideways(phone: Page, room_id: str, game: str) -> None:
    room = api_json(phone, f"/api/rooms/{room_id}")
    paths = [
        f"/rooms/{room_id}",
        f"/matches/{room['match_id']}",
        "/history",
        f"/players/ann_{game}",
        f"/leaderboard?game={game}",
        f"/rules/{game}",
    ]
    for size in (PHONE, LARGER_PHONE):
        phone.set_viewport_size(size)
        for path in paths:
            phone.goto(path)
            phone.wait_for_load_state("networkidle")
            assert not phone.evaluate(WIDE), f"{path} scrolls sideways at {size}"


@pytest.mark.parametrize("game", sorted(MATCHES))
def test_every_decision_of_a_match_fits_a_phone_and_is_accessible(pages: Any, game: str) -> None:
    phone = pages.open("player", **PHONE, touch=True)
    pace(phone, 40)
    partner = pages.open("partner", width=1280, height=900) if game == "usurp" else None
    if partner is not None:
        pace(partner, 40)
    room_id = open_match(phone, game, partner)

    decisions, met = play_on_the_phone(pages, phone, partner, game)
    assert decisions > 5, (decisions, met)
    missing = MUST_MEET.get(game, set()) - met
    assert not missing, f"the match never offered {missing}; met {met}"

    # The match is over: the result and the rematch are on the screen.
    phone.set_viewport_size(PHONE)
    expect(phone.locator(".table .result")).to_be_visible()
    settle(phone)
    phone.evaluate("window.scrollTo(0, 0)")
    rematch = phone.locator('.table .result [data-key="rematch-propose"]')
    expect(rematch).to_be_in_viewport(ratio=1)
    pages.shot_viewport(phone, f"{game}-the-end")
    assert_accessible(phone, f"{game}: the end, on a phone")

    assert_no_page_scrolls_sideways(phone, room_id, game)
