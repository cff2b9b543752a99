"""Small pieces of wording shared by the games' describers."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from games.kit.cards import card_name
from games.kit.phrasing import plural, seat_name
from games.kit.tricks import cards_played


def the(card: str, pack: str = "french", titles: dict[str, str] | None = None) -> str:
    """``the queen of diamonds``; with a title where the game gives the card one."""
    title = (titles or {}).get(card)
    name = card_name(card, pack)
    return f"the {name} ({title})" if title else f"the {name}"


def points(count: int) -> str:
    """``+3`` style points as words: ``3 points``, ``1 point``."""
    return plural(count, "point")


def scoreline(values: Sequence[int], unit: str = "") -> str:
    """``Seat 1 12, Seat 2 7``; with ``unit`` (singular) after each value, agreeing with
    it: ``Seat 1 12 points, Seat 2 1 point``."""
    if not unit:
        return ", ".join(f"{seat_name(s)} {v}" for s, v in enumerate(values))
    return ", ".join(f"{seat_name(s)} {plural(v, unit)}" for s, v in enumerate(values))


def trick(cards: Sequence[tuple[int, str]], winner: int, worth: int | None) -> dict[str, Any]:
    """A completed trick as an account carries it: every card face up, its winner, points."""
    return {
        "cards": cards_played(cards),
        "winner": winner,
        "points": worth,
    }


def sentence(*parts: str) -> str:
    """Clauses joined with semicolons, the first letter up and a full stop at the end."""
    text = "; ".join(p for p in parts if p)
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!")) else text + "."
