"""How messages name seats: "Seat 2" for a seat (counted from 1, as players count), and,
in the views' messages (told as data, games.kit.account), the viewer's own message where
it concerns the viewer's seat: "You lead" rather than "Seat 2 leads"."""

from __future__ import annotations

from collections.abc import Sequence

from games.kit.account import Told, say
from games.kit.account import seat as seat_ref


def seat_name(seat: int) -> str:
    """``Seat 1`` for seat 0: players count from one."""
    return f"Seat {seat + 1}"


def seat_list(seats: Sequence[int]) -> str:
    """``Seat 1``, ``Seat 1 and Seat 3``, ``Seat 1, Seat 2 and Seat 3``."""
    names = [seat_name(s) for s in seats]
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def addressed(viewer: int | None, seat: int, you: str, other: str, **args: Told) -> Told:
    """A phrase addressing ``viewer``: the message ``you`` when ``seat`` is the viewer's own,
    else ``other``, whose ``{seat}`` names the seat. Two whole messages rather than "You"
    put into one, for a verb agrees with its subject in every language. Both are marked with
    ``N_`` where they are written."""
    if seat == viewer:
        return say(you, **args)
    return say(other, seat=seat_ref(seat), **args)
