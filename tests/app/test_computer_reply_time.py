"""A computer player's move goes out a fixed time after its turn began, whatever it holds.

A search with one legal action has nothing to think about; one with a choice thinks its
whole time. Were each move sent as soon as it was ready, the time a computer took would tell
the table whether it had a choice (void in the led suit, say). So a forced move and a
searched one must go out at the same moment after the turn starts. Time is a hand-moved
clock (the rooms' time source): the test moves it only to each moment the driver waits for,
and reads it when the move reaches the referee — no real time is measured.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any

import pytest

import games
from app.rooms.bot_driver import BotDriver
from app.rooms.records import LiveRoom, SeatHolder
from app.rooms.thinking import THINKING_SECONDS, Thinkers
from app.rooms.time_source import Timer
from tests.app.manual_clock import ManualClock
from tests.games.randomplay import random_match

DELAY = 0.6  # the default BOT_DELAY


class WatchedClock(ManualClock):
    """A hand-moved clock that says when something starts waiting on it."""

    def __init__(self) -> None:
        super().__init__()
        self.waited_on = asyncio.Event()

    def call_at(self, when: float, callback: Callable[[], None]) -> Timer:
        timer = super().call_at(when, callback)
        self.waited_on.set()
        return timer


class RecordingReferee:
    """Takes a computer's move, noting the clock's time; the match is then over."""

    def __init__(self, clock: ManualClock) -> None:
        self.clock = clock
        self.moves: asyncio.Queue[tuple[float, dict[str, Any]]] = asyncio.Queue()

    async def act(self, room: LiveRoom, *, action: dict[str, Any], **_: Any) -> None:
        self.moves.put_nowait((self.clock.now(), action))
        room.status = "finished"  # nothing more for the computer to do


class RecordingThinkers(Thinkers):
    """The real worker pool, noting how long each search was given."""

    def __init__(self) -> None:
        super().__init__(1)
        self.given: list[float] = []

    async def move(self, *work: Any) -> dict[str, Any]:
        # (game, state, seat, seed, kind, seconds the search may take)
        self.given.append(work[5] if len(work) > 5 else None)
        return await super().move(*work)


def _turns(name: str) -> tuple[Any, Any]:
    """A state of ``name`` whose one awaited seat has a single legal action, and one whose
    awaited seat has a choice."""
    rules = games.get(name)
    forced = chosen = None
    for seed in range(20):
        for state in random_match(rules, rules.min_seats, seed=seed).states:
            awaited = rules.to_act(state)
            if len(awaited) != 1:
                continue
            legal = len(rules.legal_actions(state, awaited[0]))
            if legal == 1 and forced is None:
                forced = state
            elif legal > 1 and chosen is None:
                chosen = state
        if forced is not None and chosen is not None:
            return forced, chosen
    raise AssertionError(f"no forced move found in {name}")


def _room(name: str, state: Any, kind: str) -> LiveRoom:
    """A playing table whose awaited seat is a computer of ``kind`` (people elsewhere)."""
    rules = games.get(name)
    computer = rules.to_act(state)[0]
    seats: list[SeatHolder | None] = [
        SeatHolder(None, kind, "Ada") if seat == computer else SeatHolder(f"u{seat}", None, "P")
        for seat in range(len(rules.scores(state)))
    ]
    return LiveRoom(
        id=f"{name}-{kind}",
        code=None,
        rules=rules,
        seat_count=len(seats),
        options={},
        visibility="public",
        status="playing",
        host_id="u0",
        created_at="2030-01-01T00:00:00Z",
        seats=seats,
        match_id="m",
        seed=1,
        state=state,
        version=7,
    )


async def _reply_time(
    driver: BotDriver, clock: WatchedClock, referee: RecordingReferee, room: LiveRoom
) -> tuple[float, dict[str, Any]]:
    """Seconds from the turn's start to the computer's move, and the move: the clock is
    moved on only to each moment the driver waits for, once it waits for it."""
    began = clock.now()
    driver.room_changed(room)
    sent = asyncio.ensure_future(referee.moves.get())
    async with asyncio.timeout(120):
        while not sent.done():
            due = clock.next_due()
            if due is None:  # the computer is thinking (real time, in a worker) or deciding
                waiting = asyncio.ensure_future(clock.waited_on.wait())
                await asyncio.wait({sent, waiting}, return_when=asyncio.FIRST_COMPLETED)
                waiting.cancel()
                continue
            clock.waited_on.clear()
            clock.advance(due - clock.now())
    at, action = sent.result()
    return at - began, action


@pytest.mark.parametrize(("kind", "game"), [("normal", "cups"), ("strong", "wifeswap")])
def test_a_forced_move_goes_out_when_a_searched_one_does(kind: str, game: str) -> None:
    forced, chosen = _turns(game)

    thinkers = RecordingThinkers()

    async def scenario() -> list[tuple[float, dict[str, Any]]]:
        clock = WatchedClock()
        referee = RecordingReferee(clock)
        driver = BotDriver(referee, clock, delay=DELAY, thinkers=thinkers)  # type: ignore[arg-type]
        try:
            return [
                await _reply_time(driver, clock, referee, _room(game, state, kind))
                for state in (forced, chosen)
            ]
        finally:
            driver.stop()

    (forced_after, forced_move), (chosen_after, chosen_move) = asyncio.run(scenario())
    rules = games.get(game)
    assert forced_move == rules.legal_actions(forced, rules.to_act(forced)[0])[0]
    assert chosen_move in rules.legal_actions(chosen, rules.to_act(chosen)[0])
    assert forced_after == chosen_after
    # Both waited out the pause and the whole of the search's time (the clock's float
    # arithmetic aside).
    assert forced_after >= DELAY + THINKING_SECONDS[kind] - 1e-6
    # Both searches, forced or not, were given the level's whole time after the pause.
    assert thinkers.given == [pytest.approx(THINKING_SECONDS[kind])] * 2


@pytest.mark.parametrize("kind", ["heuristic", "random"])
def test_a_quick_computer_moves_after_the_delay_whether_forced_or_not(kind: str) -> None:
    forced, chosen = _turns("usurp")

    async def scenario() -> list[float]:
        clock = WatchedClock()
        referee = RecordingReferee(clock)
        driver = BotDriver(referee, clock, delay=DELAY, thinkers=Thinkers(1))  # type: ignore[arg-type]
        try:
            return [
                (await _reply_time(driver, clock, referee, _room("usurp", state, kind)))[0]
                for state in (forced, chosen)
            ]
        finally:
            driver.stop()

    assert asyncio.run(scenario()) == [pytest.approx(DELAY), pytest.approx(DELAY)]
