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


# What the page's room WebSocket receives, kept by the page itself (an init script, so it
# runs before the client's own code): every state message by version, and the version of
# the last one. Kept in the page, it is read in the same step as what the page shows.
RECORD_WIRE = """
(() => {
  window.__states = {};
  window.__lastState = null;
  const Native = window.WebSocket;
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      // Registered before the client's handler, so it runs first for every message.
      this.addEventListener('message', (event) => {
        if (typeof event.data !== 'string') return;
        let message;
        try { message = JSON.parse(event.data); } catch { return; }
        if (message.type === 'state') {
          window.__states[message.version] = message;
          window.__lastState = message.version;
        }
      });
    }
  };
})();
"""

# The live table is settled: it shows the last state the wire brought and no move of its
# own is on its way, so nothing is about to replace what the test looks at. ``still``: and
# no animation of a change is running either (an endless one, such as a pulse, does not
# count), for tests that read where things are on screen. A click needs no ``still``:
# Playwright waits for its target to stop moving and checks the click would reach it.
SETTLED = """([still]) => {
  const table = document.querySelector('.table');
  if (!table || document.querySelector('.pending')) return false;
  if (table.dataset.version !== String(window.__lastState)) return false;
  return !still || document.getAnimations().every(
    (a) => a.playState !== 'running'
      || !Number.isFinite(a.effect?.getComputedTiming().endTime ?? Infinity)
  );
}"""

# Web Audio replaced by a recorder of the notes started, and every sound the page says it
# played (a `parlour-sound` event) kept with the table version on screen at that moment and
# the version of the last state the wire brought (the chime sounds as a state arrives).
SOUND_RECORDER = """
(() => {
  window.__tones = 0;
  window.__contexts = 0;
  window.__sounds = [];
  class FakeAudio {
    constructor() {
      window.__contexts += 1;
      this.state = "running"; this.currentTime = 0; this.destination = {};
    }
    resume() { return Promise.resolve(); }
    createOscillator() {
      return { type: "", frequency: { setValueAtTime() {} }, connect: (node) => node,
               start: () => { window.__tones += 1; }, stop() {} };
    }
    createGain() {
      return { gain: { setValueAtTime() {}, exponentialRampToValueAtTime() {} },
               connect: (node) => node };
    }
  }
  window.AudioContext = FakeAudio;
  document.addEventListener('parlour-sound', (event) => {
    const table = document.querySelector('.table');
    window.__sounds.push({
      sound: event.detail,
      version: table ? Number(table.dataset.version) : null,
      wire: window.__lastState,
    });
  });
})();
"""


def sounds(page: Page) -> list[dict[str, Any]]:
    """Every sound the page played since it loaded (SOUND_RECORDER), oldest first."""
    return list(page.evaluate("window.__sounds"))


# Changes waiting to be made to a page's next move on its way to the server.
REWRITES: dict[Page, list[Callable[[dict[str, Any]], dict[str, Any]]]] = {}


def listen_to_wire(page: Page) -> None:
    """Keep every state message the page receives (``shown_state``, ``received_states``).
    Pages.open does it for every page; a second call changes nothing."""
    if page not in WIRED:
        WIRED.add(page)
        page.add_init_script(RECORD_WIRE)


WIRED: set[Page] = set()


def received_states(page: Page) -> dict[int, dict[str, Any]]:
    """Every state message the page's current document received, by version."""
    states = page.evaluate("window.__states || {}")
    return {int(v): message for v, message in states.items()}


def settle(page: Page, *, still: bool = True, timeout: float = 20_000) -> None:
    """Wait until the page's live table is settled (SETTLED), and with ``still`` until
    nothing on it moves."""
    try:
        page.wait_for_function(SETTLED, arg=[still], timeout=timeout)
    except Exception as error:
        raise AssertionError(f"the table never settled: {table_state(page)}") from error


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
    """The state message behind the table the page shows, once it shows the last one the
    wire brought."""
    settle(page, still=False)
    state = page.evaluate("window.__states[document.querySelector('.table').dataset.version]")
    assert state is not None, f"no state message behind the table: {table_state(page)}"
    return dict(state)


def table_state(page: Page) -> dict[str, Any]:
    """What a failing test reports about a page's live table."""
    return dict(
        page.evaluate(
            """() => {
            const newest = window.__states?.[window.__lastState];
            return {
              version: document.querySelector('.table')?.dataset.version,
              phase: document.querySelector('.table')?.dataset.phase,
              pending: document.querySelectorAll('.pending').length > 0,
              myTurn: document.querySelectorAll('.table.my-turn').length,
              animations: document.getAnimations().map((a) => a.playState),
              errors: [...document.querySelectorAll('.action-error:not([hidden])')]
                .map((e) => e.textContent),
              socket: document.querySelector('#conn')?.dataset.status,
              received: newest && {
                version: newest.version,
                toAct: newest.view.to_act,
                legal: newest.view.legal_actions,
                message: newest.view.message,
              },
            };
          }"""
        )
    )


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
    days_per_move: int | None = None,
) -> str:
    """From the home page: fill in the form and open a table (turn-based with
    ``days_per_move``); returns the room id."""
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
    if days_per_move is not None:
        page.locator("#pace").select_option(str(days_per_move))
    page.locator("#create-btn").click()
    page.wait_for_url("**/rooms/*")
    expect(page.locator("#lobby")).to_be_visible()
    return page.url.rstrip("/").split("/")[-1]


def wait_table(page: Page) -> None:
    expect(page.locator(".table")).to_be_visible(timeout=30_000)


def version(page: Page) -> int:
    value = page.locator(".table").get_attribute("data-version")
    return int(value) if value not in (None, "") else -1


def is_over(page: Page) -> bool:
    return page.locator(".table .result").count() > 0


def act_once(page: Page, *, keyboard: bool = False) -> bool:
    """If it is this page's turn, click the first thing the server offers; True if it did.

    The table is settled first (it shows the last state the wire brought, nothing is
    moving), so the click lands on what was looked at. Offered things: a clickable pile or
    action button, else a highlighted card. Cards are clicked on their left edge (the part
    an overlapping neighbour never covers), or, with ``keyboard``, focused and played with
    Enter."""
    turn = turn_of(page)
    if not turn["mine"]:
        return False
    before = turn["version"]
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
    if card and keyboard:
        target.first.focus()
        page.keyboard.press("Enter")
    elif card:
        # A hovered card is raised over its neighbours: move the pointer off the hand.
        page.mouse.move(1, 1)
        target.first.click(position={"x": 8, "y": 24})
    else:
        target.first.click()
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
            timeout=20_000,
        )
    except Exception as error:
        state = table_state(page)
        raise AssertionError(f"the table did not move on from version {before}: {state}") from error
    errors = page.locator(".action-error:not([hidden])")
    if errors.count():
        raise AssertionError(f"the server refused a move: {errors.first.inner_text()}")
    return True


def wait_next_state(page: Page, shown: int, timeout: float = 30_000) -> None:
    """Wait until the wire brings the page a state other than version ``shown``."""
    try:
        page.wait_for_function(
            "([v]) => window.__lastState !== null && window.__lastState !== v",
            arg=[shown],
            timeout=timeout,
        )
    except Exception as error:
        state = table_state(page)
        raise AssertionError(f"no state after version {shown} came: {state}") from error


# What next_mover decides on, read from a settled page in one step (a page read in
# several steps may move on between them: a turn seen missing at one version and the
# version read after it would belong to different states).
TURN = """() => {
  const table = document.querySelector('.table');
  if (!table || document.querySelector('.pending')) return false;
  if (table.dataset.version !== String(window.__lastState)) return false;
  return {
    version: Number(table.dataset.version),
    over: document.querySelector('.table .result') !== null,
    mine: table.classList.contains('my-turn'),
  };
}"""


def turn_of(page: Page, timeout: float = 20_000) -> dict[str, Any]:
    """Once the page is settled: the version it shows, whether the match is over on it and
    whether it offers its person a move, all read at that one version."""
    try:
        found = page.wait_for_function(TURN, timeout=timeout)
    except Exception as error:
        raise AssertionError(f"the table never settled: {table_state(page)}") from error
    return dict(found.json_value())


def next_mover(players: list[Page], deadline: float) -> Page | None:
    """The page whose turn it is, once every page shows the last state it was sent; None
    once the match is over on every page. While none of them may move (a computer's turn,
    or a clock's), wait for the wire to bring the next state."""
    while True:
        turns = [turn_of(page) for page in players]
        if all(turn["over"] for turn in turns):
            return None
        for page, turn in zip(players, turns, strict=True):
            if turn["mine"]:
                return page
        remaining = (deadline - time.monotonic()) * 1000
        assert remaining > 0, f"no move came in time: {[table_state(p) for p in players]}"
        newest = max(turn["version"] for turn in turns)
        shown = zip(players, turns, strict=True)
        behind = [page for page, turn in shown if turn["version"] < newest]
        # Each wait is on the wire, so a state that came after the reading above ends it at once.
        if behind:
            # The others were sent a newer state already: this one is on its way.
            behind[0].wait_for_function(
                "([v]) => window.__lastState >= v", arg=[newest], timeout=remaining
            )
        else:
            wait_next_state(players[0], newest, timeout=remaining)


def play_to_end(
    players: list[Page], *, timeout: float = 150, on_step=None, keyboard: bool = False
) -> int:
    """Let every page play whatever it is offered until each shows the final result; with
    ``keyboard``, every other card is played from the keyboard (focus and Enter)."""
    return play_until(players, lambda: False, timeout=timeout, on_step=on_step, keyboard=keyboard)


def play_until(
    players: list[Page],
    done: Callable[[], bool],
    *,
    timeout: float = 150,
    on_step=None,
    keyboard: bool = False,
) -> int:
    """The pages play whatever they are offered until ``done()`` (asked whenever every page
    is settled) or the match is over; returns the moves made."""
    deadline = time.monotonic() + timeout
    moves = 0
    while True:
        for page in players:
            settle(page, still=False)
        if done():
            return moves
        mover = next_mover(players, deadline)
        if mover is None:
            return moves
        played = act_once(mover, keyboard=keyboard and moves % 2 == 1)
        assert played, f"its turn, but nothing to click: {table_state(mover)}"
        moves += 1
        if on_step is not None:
            on_step(moves)


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
    expect(page.locator("#review")).to_have_attribute("aria-busy", "false")
    last = len(review["frames"]) - 1
    page.keyboard.press("End")
    expect(page.locator("#step-label")).to_have_text(f"Move {last} of {last}")
    for seat in range(seats):
        expect(page.locator(f'.scoreboard [data-score="{seat}"]')).to_have_text(
            str(record["scores"][seat])
        )
    expect(page.locator(".result")).to_be_visible()
    pages.shot(page, "review-end")
