"""Small pieces of wording shared by the games' describers, as told values
(games.kit.account): cards with their article, points, score lines, completed tricks."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.kit.account import N_, Told, card, commas, ngettext, render, say, seat
from games.kit.tricks import cards_played

SEAT_SCORE = N_("{seat} {score}")


def the(code: str, pack: str = "french", titles: dict[str, str] | None = None) -> Told:
    """``the queen of diamonds``; with a title where the game gives the card one."""
    return card(code, pack, (titles or {}).get(code))


def points(count: int) -> Told:
    """``3 points``, ``1 point``."""
    return ngettext("{n} point", "{n} points", count)


def scores(values: Sequence[int], unit: str = "") -> Told:
    """``Seat 1 12, Seat 2 7``; with ``unit`` (``point`` or ``Hand Point``) after each
    value, agreeing with it: ``Seat 1 12 points, Seat 2 1 point``."""

    def counted(value: int) -> Told:
        if unit == "point":
            return points(value)
        if unit == "Hand Point":
            return ngettext("{n} Hand Point", "{n} Hand Points", value)
        return value

    return commas([say(SEAT_SCORE, seat=seat(s), score=counted(v)) for s, v in enumerate(values)])


def scoreline(values: Sequence[int], unit: str = "") -> str:
    """:func:`scores` in English."""
    return render(scores(values, unit))


def trick(cards: Sequence[tuple[int, str]], winner: int, worth: int | None) -> dict[str, Any]:
    """A completed trick as an account carries it: every card face up, its winner, points."""
    return {
        "cards": cards_played(cards),
        "winner": winner,
        "points": worth,
    }
