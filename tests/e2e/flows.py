"""What a person does in the browser, as small steps the e2e tests share: open a table,
take a seat, play whatever the server offers by clicking, and read the table's state."""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import Page, WebSocketRoute, expect

from tests.games.randomplay import card_codes_in

# Records every card face a page ever shows, with the table version it was shown at, so a
# test can check a spectator never saw a hidden card (compared with the match's review).
RECORD_CARDS = """
(() => {
  window.__seen = [];
  const record = () => {
    const table = document.querySelector('.table');
    if (!table) return;
    const version = Number(table.dataset.version);
    // A finished deal's summary (data-past-deal) names that deal's cards, public since it
    // ended; the same codes may be in a hand of the deal in play: recorded apart.
    const cards = [];
    const past = [];
    for (const el of document.querySelectorAll('[data-card]')) {
      (el.closest('[data-past-deal]') ? past : cards).push(el.dataset.card);
    }
    const hands = document.querySelectorAll('.hand').length;
    window.__seen.push({ version, cards, past, hands });
  };
  new MutationObserver(record).observe(document, { childList: true, subtree: true });
})();
"""


# The state messages each page received over its room's WebSocket, by version: what the
# server sent, for tests that need the legal actions behind the table a page shows.
STATES: dict[Page, dict[int, dict[str, Any]]] = {}

# Changes waiting to be made to a page's next move on its way to the server.
REWRITES: dict[Page, list[Callable[[dict[str, Any]], dict[str, Any]]]] = {}


def listen_to_wire(page: Page) -> None:
    """Keep every state message the page receives (``shown_state`` reads them)."""
    states = STATES.setdefault(page, {})

    def on_frame(payload: str | bytes) -> None:
        if isinstance(payload, bytes):
            return
        try:
            message = json.loads(payload)
        except ValueError:
            return
        if message.get("type") == "state":
            states[message["version"]] = message

    page.on("websocket", lambda ws: ws.on("framereceived", on_frame))


def pass_moves_through_test(page: Page) -> None:
    """Route the page's room WebSocket through the test, so that ``rewrite_next_move`` can
    change a move on its way to the server. Call before the page opens the room."""
    waiting = REWRITES.setdefault(page, [])

    def route(ws: WebSocketRoute) -> None:
        server = ws.connect_to_server()

        def from_page(message: str | bytes) -> None:
            if waiting and isinstance(message, str):
                sent = json.loads(message)
                if sent.get("type") == "act":
                    message = json.dumps(waiting.pop(0)(sent))
            server.send(message)

        ws.on_message(from_page)

    page.route_web_socket(re.compile(r"/ws/rooms/"), route)


def rewrite_next_move(page: Page, change: Callable[[dict[str, Any]], dict[str, Any]]) -> None:
    """The page's next ``act`` message is sent as ``change(message)``."""
    REWRITES[page].append(change)


def shown_state(page: Page) -> dict[str, Any]:
    """The state message behind the table the page shows now."""
    shown = version(page)
    deadline = time.monotonic() + 5
    while shown not in STATES.get(page, {}):
        assert time.monotonic() < deadline, f"no state message for version {shown}"
        page.wait_for_timeout(20)
    return STATES[page][shown]


def table_state(page: Page) -> dict[str, Any]:
    """What a failing test reports about a page's live table."""
    shown = page.evaluate(
        """() => ({
            version: document.querySelector('.table')?.dataset.version,
            phase: document.querySelector('.table')?.dataset.phase,
            pending: document.querySelectorAll('.pending').length > 0,
            myTurn: document.querySelectorAll('.table.my-turn').length,
            errors: [...document.querySelectorAll('.action-error:not([hidden])')]
                .map((e) => e.textContent),
            socket: document.querySelector('#conn')?.dataset.status,
        })"""
    )
    received = STATES.get(page, {})
    if received:
        newest = received[max(received)]
        view = newest["view"]
        shown["received"] = {
            "version": newest["version"],
            "toAct": view.get("to_act"),
            "legal": view.get("legal_actions"),
            "message": view.get("message"),
        }
    return shown


def set_name(page: Page, name: str) -> None:
    """Rename through the header dialog (any page)."""
    page.get_by_role("button", name="Your name").click()
    field = page.locator("#name-input")
    field.fill(name)
    page.locator("#name-save").click()
    expect(page.locator("#who-name .who-text")).to_have_text(name)


def create_room(
    page: Page,
    *,
    game: str,
    name: str,
    seats: int | None = None,
    options: dict[str, Any] | None = None,
    visibility: str = "public",
) -> str:
    """From the home page: fill in the form and open a table; returns the room id."""
    page.goto("/")
    page.locator("#my-name").fill(name)
    page.locator(f'.game-choice[data-game="{game}"]').click()
    if seats is not None:
        page.locator("#seats").select_option(str(seats))
    for key, value in (options or {}).items():
        field = page.locator(f"#opt-{key}")
        tag = field.evaluate("el => el.tagName")
        if tag == "SELECT":
            field.select_option(str(value))
        elif isinstance(value, bool):
            field.set_checked(value)
        else:
            field.fill(str(value))
    page.locator(f'input[name="visibility"][value="{visibility}"]').check(force=True)
    page.locator("#create-btn").click()
    page.wait_for_url("**/rooms/*")
    expect(page.locator("#lobby")).to_be_visible()
    return page.url.rstrip("/").split("/")[-1]


def wait_table(page: Page) -> None:
    expect(page.locator(".table")).to_be_visible(timeout=20_000)


def version(page: Page) -> int:
    value = page.locator(".table").get_attribute("data-version")
    return int(value) if value not in (None, "") else -1


def is_over(page: Page) -> bool:
    return page.locator(".table .result").count() > 0


LAST_CLICK_ERROR: dict[Page, list[str]] = {}


def act_once(page: Page, *, keyboard: bool = False) -> bool:
    """If it is this page's turn, click the first thing the server offers; True if it did.

    Offered things: a clickable pile or action button, else a highlighted card. Cards are
    clicked on their left edge (the part an overlapping neighbour never covers), or, with
    ``keyboard``, focused and played with Enter."""
    if page.locator(".table.my-turn").count() == 0 or page.locator(".pending").count():
        return False
    before = version(page)
    menu = page.locator(".choice-menu .btn.primary")
    if menu.count():
        menu.first.click()
        return wait_moved(page, before)
    target = page.locator(".table .actions .btn, .table .pile.clickable")
    card = target.count() == 0
    if card:
        target = page.locator(".hand .card.playable")
    if target.count() == 0:
        return False
    try:
        if card and keyboard:
            target.first.focus()
            page.keyboard.press("Enter")
        elif card:
            # A hovered card is raised over its neighbours: move the pointer off the hand.
            page.mouse.move(1, 1)
            target.first.click(position={"x": 8, "y": 24}, timeout=2_000)
        else:
            target.first.click(timeout=2_000)
    except Exception as error:  # the table re-rendered under the pointer: look again
        LAST_CLICK_ERROR[page] = str(error).splitlines()[0:12]
        return False
    if page.locator(".choice-menu").count():
        return act_once(page)
    return wait_moved(page, before)


def wait_moved(page: Page, before: int) -> bool:
    """Wait until the table moved on from version ``before`` (or an error was shown)."""
    try:
        page.wait_for_function(
            """([v]) => {
                const t = document.querySelector('.table');
                const err = [...document.querySelectorAll('.action-error')].some((e) => !e.hidden);
                return err || (t && Number(t.dataset.version) !== v);
            }""",
            arg=[before],
            timeout=15_000,
        )
    except Exception as error:
        state = table_state(page)
        raise AssertionError(f"the table did not move on from version {before}: {state}") from error
    errors = page.locator(".action-error:not([hidden])")
    if errors.count():
        raise AssertionError(f"the server refused a move: {errors.first.inner_text()}")
    return True


def play_to_end(
    players: list[Page], *, timeout: float = 150, on_step=None, keyboard: bool = False
) -> int:
    """Let every page play whatever it is offered until one shows the final result."""
    deadline = time.monotonic() + timeout
    moves = 0
    while time.monotonic() < deadline:
        if all(is_over(p) for p in players):
            return moves
        acted = False
        for page in players:
            if act_once(page):
                moves += 1
                acted = True
                if on_step is not None:
                    on_step(moves)
        if not acted:
            players[0].wait_for_timeout(60)
    states = [(table_state(page), LAST_CLICK_ERROR.get(page)) for page in players]
    raise AssertionError(f"the match did not finish in {timeout} s ({moves} moves): {states}")


def pace(page: Page, ms: int) -> None:
    """Show each pushed change for at least ``ms`` (the table's "parlour-pace" setting)."""
    page.add_init_script(f"localStorage.setItem('parlour-pace', '{ms}')")


def assert_no_hidden_cards_seen(watcher: Page, frames: list[dict[str, Any]]) -> int:
    """Every card face the spectator page showed was in no hand at that version, except the
    cards of the last completed trick in the spectator's view at that version (public as
    played, though in Royal Wife-Swap some may have been drawn into hands since), and in a
    finished deal's summary or its last trick, whose cards the spectator's view at that
    version, or the public account of the move that led to it, named."""
    seen = watcher.evaluate("window.__seen")
    assert seen, "the spectator page recorded nothing"
    for entry in seen:
        assert entry["hands"] == 0, "a spectator was shown a hand"
        frame = frames[entry["version"]]
        last_trick = frame["view"].get("last_trick") or {}
        public = {shown["card"] for shown in last_trick.get("cards", [])}
        hidden = {card for seat_hand in frame["hands"] for card in seat_hand} - public
        leaked = hidden & set(entry["cards"])
        assert not leaked, f"spectator saw hidden {leaked} at version {entry['version']}"
        past = frozenset(entry["past"])
        told = (frame["event"] or {}).get("trick")
        unnamed = past - card_codes_in([frame["view"], told], past)
        assert not unnamed, f"a summary showed {unnamed}, not public at {entry['version']}"
    return len(seen)


def hand(page: Page) -> list[str]:
    return page.locator(".hand .card").evaluate_all("els => els.map((e) => e.dataset.card)")


def shown_scores(page: Page, seats: int) -> list[int]:
    return [int(page.locator(f'.scoreboard [data-score="{s}"]').inner_text()) for s in range(seats)]


def api_json(page: Page, path: str) -> Any:
    response = page.request.get(path)
    assert response.ok, f"{path}: {response.status} {response.text()}"
    return json.loads(response.text())


def post_json(page: Page, path: str, body: dict[str, object]) -> dict[str, object]:
    """POST a JSON body as the page's person (its cookie); the answer's JSON."""
    response = page.request.post(
        path, data=json.dumps(body), headers={"content-type": "application/json"}
    )
    assert response.ok, f"{path}: {response.status} {response.text()}"
    return dict(json.loads(response.text()))


def watch(pages: Any, room_id: str, label: str = "watcher") -> Page:
    """A spectator opens the room's watch link, recording every card face it is shown."""
    watcher = pages.open(label, width=1100, height=850)
    watcher.add_init_script(RECORD_CARDS)
    pace(watcher, 40)
    watcher.goto(f"/rooms/{room_id}/watch")
    expect(watcher.locator("#room")).to_have_attribute("aria-busy", "false")
    return watcher


def finish_and_review(pages: Any, page: Page, watcher: Page, room_id: str, seats: int) -> None:
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
    item = page.locator(f'#mine .match-item[data-match="{room["match_id"]}"]')
    item.get_by_role("link", name="Review this").click()
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
