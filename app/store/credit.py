"""Who played each seat's moves, and whose a seat's result is.

Every move is logged with who made it — ``{"user_id": ...}`` or ``{"bot": kind}`` — and
whether the clock played it for a person who ran out of time (``timeout``). When a match
ends, each seat of its record gets:

- ``stand_ins``: the runs of the seat's moves that a computer standing in for its person
  played, ``{"from": seq, "to": seq, "bot": kind}`` with the first and last move of the
  run ("Bob — a computer played moves 61 to 120");
- ``timeouts``: how many of the seat's moves the clock played for its person;
- ``credited``: whether the seat's result belongs to whoever the seat names;
- ``left``: whether its person walked away — a computer was standing in for them when the
  match ended (a person who took the seat back before the end did not leave). A rated
  match ranks such a person last (app/ratings/model.py).

The rule: a seat's result is its person's only when the person made the seat's moves.
A move the clock played while they held the seat counts as theirs — they were at the
table and let their time run out — but a single move made by a computer standing in for
them makes the result the computer's, not theirs. A seat a computer held from the start
is the computer's, and credited to it.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from typing import Any

# (seq, seat, played_by, timeout) of one logged move
Move = tuple[int, int, dict[str, Any] | None, bool]


def _stood_in(player: dict[str, Any], by: dict[str, Any] | None, timeout: bool) -> bool:
    """Whether a computer standing in for the seat's person made this move."""
    return player.get("user_id") is not None and by is not None and "bot" in by and not timeout


def seat_records(
    players: list[dict[str, Any]], moves: Iterable[Move], stood_in_at_end: Collection[int] = ()
) -> list[dict[str, Any]]:
    """The match's ``players`` (as written at its start) with who played which moves;
    ``stood_in_at_end``: the seats a computer held for their person when it ended."""
    by_seat: dict[int, list[Move]] = {}
    for move in sorted(moves):
        by_seat.setdefault(move[1], []).append(move)
    records = []
    for player in players:
        runs: list[dict[str, Any]] = []
        timeouts = 0
        previous_stood_in = False
        for seq, _seat, by, timeout in by_seat.get(player["seat"], []):
            timeouts += timeout
            stood_in = _stood_in(player, by, timeout)
            if stood_in and previous_stood_in:
                runs[-1]["to"] = seq
            elif stood_in:
                assert by is not None
                runs.append({"from": seq, "to": seq, "bot": by["bot"]})
            previous_stood_in = stood_in
        records.append(
            {
                **player,
                "stand_ins": runs,
                "timeouts": timeouts,
                "credited": not runs,
                "left": player["seat"] in stood_in_at_end,
            }
        )
    return records


def with_defaults(player: dict[str, Any]) -> dict[str, Any]:
    """A seat of a match not over yet (or logged before moves were attributed)."""
    return {"stand_ins": [], "timeouts": 0, "credited": True, "left": False, **player}
