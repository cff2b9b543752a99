"""How messages name seats: "Seat 2" for a seat (counted from 1, as players count), and,
in games that address the viewer, "You" for the viewer with the verb agreeing."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


def seat_name(seat: int) -> str:
    """``Seat 1`` for seat 0: players count from one."""
    return f"Seat {seat + 1}"


def seat_list(seats: Sequence[int]) -> str:
    """``Seat 1``, ``Seat 1 and Seat 3``, ``Seat 1, Seat 2 and Seat 3``."""
    names = [seat_name(s) for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def plural(count: int, word: str) -> str:
    """``1 point``, ``2 points``."""
    return f"{count} {word}" if count == 1 else f"{count} {word}s"


@dataclass(frozen=True)
class Phrasing:
    """Seat names for one viewer's messages: that seat is "You", the others "Seat n".

    ``start`` says whether the name begins the sentence ("You" rather than "you"). A
    spectator (``viewer`` None) sees every seat by its name.
    """

    viewer: int | None

    def who(self, seat: int, start: bool = True) -> str:
        if seat == self.viewer:
            return "You" if start else "you"
        return seat_name(seat)

    def whose(self, seat: int, start: bool = True) -> str:
        if seat == self.viewer:
            return "Your" if start else "your"
        return f"{seat_name(seat)}'s"

    def who_does(self, seat: int, you: str, other: str, start: bool = True) -> str:
        """The seat and its verb: ``You lead`` to the viewer, ``Seat 2 leads`` otherwise."""
        return f"{self.who(seat, start)} {you if seat == self.viewer else other}"
