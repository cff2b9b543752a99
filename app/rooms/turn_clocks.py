"""Turn clocks: how long each seat may take, and what is left.

A room may be created with a clock ``{"turn": T, "bank": B}`` (seconds). Each seat starts
the match with a bank of B. When a seat becomes awaited its turn time T starts running
(its *deadline* is then + T); once the deadline passes its bank runs; when both are spent
the seat has *expired* and the server plays a move for it (app/rooms/timers.py). A move
charges the seat's bank with whatever it took beyond its deadline. In simultaneous steps
(the Cups gift) every awaited seat's clock runs at once, and a seat still awaited after
another's move keeps its deadline.

:class:`TurnClocks` is immutable; the referee replaces it with each move and it is stored
with the move's event, so a restart finds it again. A process that takes charge of a
running match (a restart, a takeover) gives each awaited seat its turn time afresh and
keeps the banks (``restarted``): it cannot know when the last process stopped, so time
while no process ran the room is never charged.
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Any

from app.i18n.marks import N_, Mark
from app.refusal import Refusal
from app.rooms.time_source import iso_at

TURN_SECONDS = (5, 600)
BANK_SECONDS = (0, 3600)
# Moves in a row the clock plays for a person before a computer takes their seat.
TIMEOUTS_BEFORE_STAND_IN = 2
# A timer may fire a moment early by the wall clock; this much early still counts.
EARLY = 0.01


def clock_setting(raw: dict[str, Any] | None) -> dict[str, int] | None:
    """A room's clock as asked for at creation, checked; ``bad_clock`` says what is wrong."""
    if raw is None:
        return None
    checked: dict[str, int] = {}
    for key, (low, high), what in (
        ("turn", TURN_SECONDS, Mark(N_("Turn time"))),
        ("bank", BANK_SECONDS, Mark(N_("The bank"))),
    ):
        value = raw.get(key)
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise Refusal(
                "bad_clock",
                N_("{what} must be a whole number of seconds from {low} to {high}."),
                422,
                what=what,
                low=low,
                high=high,
            )
        checked[key] = value
    return checked


@dataclass(frozen=True)
class TurnClocks:
    """Per seat: the bank left, the turn's deadline while awaited, timeouts in a row."""

    banks: tuple[float, ...]
    deadlines: tuple[float | None, ...]
    timeouts: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        return {
            "banks": list(self.banks),
            "deadlines": list(self.deadlines),
            "timeouts": list(self.timeouts),
        }

    @staticmethod
    def from_json(data: dict[str, Any] | None) -> TurnClocks | None:
        if data is None:
            return None
        return TurnClocks(
            tuple(float(b) for b in data["banks"]),
            tuple(None if d is None else float(d) for d in data["deadlines"]),
            tuple(int(t) for t in data["timeouts"]),
        )

    def final(self, seat: int) -> float | None:
        """When the seat's turn and bank are both spent (None: not awaited)."""
        deadline = self.deadlines[seat]
        return None if deadline is None else deadline + self.banks[seat]

    def expired(self, seat: int, now: float) -> bool:
        final = self.final(seat)
        return final is not None and now >= final - EARLY

    def wire(self) -> list[dict[str, Any]]:
        """What a state message says of the clocks (docs/protocol.md, "Turn clocks")."""
        return [
            {"bank": round(bank, 3), "deadline": iso_at(deadline), "timeouts": timeouts}
            for bank, deadline, timeouts in zip(
                self.banks, self.deadlines, self.timeouts, strict=True
            )
        ]


def started(
    setting: dict[str, int], seats: int, awaited: Collection[int], now: float
) -> TurnClocks:
    """The clocks at a match's first state."""
    return TurnClocks(
        tuple(float(setting["bank"]) for _ in range(seats)),
        tuple(now + setting["turn"] if s in awaited else None for s in range(seats)),
        tuple(0 for _ in range(seats)),
    )


def after_move(
    setting: dict[str, int],
    clocks: TurnClocks,
    *,
    seat: int,
    awaited: Collection[int],
    now: float,
    played_by: str,
) -> TurnClocks:
    """The clocks once ``seat`` has moved at ``now`` and ``awaited`` are awaited next.

    ``played_by`` is ``"person"``, ``"clock"`` (a timeout) or ``"computer"``: the seat's
    timeouts in a row count the moves the clock played for its person; the person's own
    move ends the run, and a computer's move (one holding the seat) leaves it as it is.
    """
    deadline = clocks.deadlines[seat]
    overrun = 0.0 if deadline is None else max(0.0, now - deadline)
    banks = list(clocks.banks)
    banks[seat] = max(0.0, banks[seat] - overrun)
    timeouts = list(clocks.timeouts)
    if played_by == "clock":
        timeouts[seat] += 1
    elif played_by == "person":
        timeouts[seat] = 0
    deadlines: list[float | None] = []
    for s, old in enumerate(clocks.deadlines):
        if s not in awaited:
            deadlines.append(None)
        elif s != seat and old is not None:
            deadlines.append(old)  # still awaited in the same step: its turn goes on
        else:
            deadlines.append(now + setting["turn"])
    return TurnClocks(tuple(banks), tuple(deadlines), tuple(timeouts))


def restarted(setting: dict[str, int], clocks: TurnClocks, now: float) -> TurnClocks:
    """The clocks when a process takes charge of a running match: every awaited seat's
    turn starts again now; banks and timeouts are kept."""
    deadlines = tuple(None if d is None else now + setting["turn"] for d in clocks.deadlines)
    return replace(clocks, deadlines=deadlines)


def seat_back(setting: dict[str, int], clocks: TurnClocks, seat: int, now: float) -> TurnClocks:
    """A person takes their seat back: no timeouts in a row, and a fresh turn if awaited."""
    timeouts = list(clocks.timeouts)
    timeouts[seat] = 0
    deadlines = list(clocks.deadlines)
    if deadlines[seat] is not None:
        deadlines[seat] = now + setting["turn"]
    return replace(clocks, timeouts=tuple(timeouts), deadlines=tuple(deadlines))


def stopped(clocks: TurnClocks) -> TurnClocks:
    """The clocks of a match that ended without a last move (abandoned): none runs."""
    return replace(clocks, deadlines=tuple(None for _ in clocks.deadlines))
