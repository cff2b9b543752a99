"""Usurp's table: the constants, the point tables, the frozen state and the card
arithmetic every other module of the game reads (docs/rules/usurp.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.kit.cards import FRENCH_SUITS, SUIT_NAMES, rank_of, suit_of
from games.kit.frozen import Record

# --- constants -------------------------------------------------------------------------

SEATS = 2
HAND_SIZE = 13
MAX_HANDS = 15  # "after 15 hands, more Game Points wins" (our ruling)
ORDERS = ("regal", "common")
SUIT_WORDS = SUIT_NAMES["french"]

# Rank strength with the Crown (A) highest; Common reverses it. The Plow/Crown exception is
# applied in beats, not here.
HIGH = {
    r: i
    for i, r in enumerate(("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"), 2)
}

# Phases (also the view's "phase"): what the seat in state.turn is awaited for.
ORDER = "order"  # the dealer declares the Leading Order
PLAY = "play"  # a normal turn: Score, Usurp, Sluff Off or Uprise
FREE = "free_play"  # the turn after a Sluff Off: any card face up, scoring the sluffed card
ANSWER = "answer"  # the opponent of an Uprising: Give In or Challenge
USURP_ORDER = "usurp_order"  # a challenged Downcard turned out a Usurp: its player picks the Order
OVER = "over"


@dataclass(frozen=True)
class PointTable:
    """One of the two point tables of the rule text ("Ye Olde" and "Alternative")."""

    values: tuple[tuple[str, int], ...]
    beater: int
    reneg: int
    bonus: int

    def value(self, card: str) -> int:
        return dict(self.values)[rank_of(card)]


def _values(high: Mapping[str, int]) -> tuple[tuple[str, int], ...]:
    return tuple(sorted(high.items()))


POINT_TABLES = {
    "standard": PointTable(
        _values({"A": 15, "K": 13, "Q": 12, "J": 11, **{str(n): n for n in range(2, 11)}}),
        beater=20,
        reneg=20,
        bonus=10,
    ),
    "alternative": PointTable(
        _values(
            {"A": 15, "K": 10, "Q": 10, "J": 10, "10": 10, **{str(n): 5 for n in range(2, 10)}}
        ),
        beater=25,
        reneg=25,
        bonus=20,
    ),
}


# --- state -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Downcard:
    """A card played face down in an Uprising, with whether it broke following suit."""

    seat: int
    card: str
    reneg: bool  # its player held the Upcard's suit and it is neither that suit nor rank


@dataclass(frozen=True)
class HandResult:
    """What a finished hand left behind: its totals and the Downcards turned at its end."""

    hand: int
    dealer: int
    hand_points: tuple[int, ...]
    reneg_points: tuple[int, ...]  # scored when unchallenged Downcards were turned at the end
    winner: int  # -1 for a tied hand (no Game Point)
    turned: tuple[Downcard, ...]  # the Downcards never challenged, turned face up at the end


@dataclass(frozen=True)
class UsurpState:
    seed: int | str
    options: tuple[tuple[str, Any], ...]
    counter: int  # random events used so far (first-dealer draw, shuffles)
    hand_no: int  # 1-based
    dealer: int
    phase: str
    turn: int  # the awaited seat (-1 when over)
    hands: tuple[tuple[str, ...], ...]
    discard: tuple[str, ...]  # face-up cards, bottom first; the last one is the Upcard
    stock: tuple[str, ...]  # top first; out of play except as the reveal pile's source
    reveal: tuple[str, ...]  # the reveal pile, oldest first
    order: str  # "regal" | "common"; "" until the dealer declares
    downcards: tuple[Downcard, ...]  # given in, still face down
    pending: Downcard | None  # the Uprising awaiting Give In or Challenge
    hand_points: tuple[int, ...]
    game_points: tuple[int, ...]
    last: Record | None  # public record of the last action
    history: tuple[HandResult, ...]

    def option(self, key: str) -> Any:
        return dict(self.options)[key]

    @property
    def upcard(self) -> str:
        return self.discard[-1]

    @property
    def table(self) -> PointTable:
        return POINT_TABLES[self.option("points")]


# --- helpers -----------------------------------------------------------------------------


def sort_hand(cards: Sequence[str]) -> tuple[str, ...]:
    """Hands are kept sorted by suit then rank (the deal order carries no information)."""
    return tuple(sorted(cards, key=lambda c: (FRENCH_SUITS.index(suit_of(c)), HIGH[rank_of(c)])))


def beats(card: str, upcard: str, order: str) -> bool:
    """Does ``card`` (same suit, other rank) win against ``upcard`` in ``order``?"""
    mine, theirs = HIGH[rank_of(card)], HIGH[rank_of(upcard)]
    crown, plow = HIGH["A"], HIGH["2"]
    if order == "regal":
        if (mine, theirs) == (plow, crown):
            return True  # the Plow may win against the Crown
        if (mine, theirs) == (crown, plow):
            return False
        return mine > theirs
    if (mine, theirs) == (crown, plow):
        return True  # the Crown may win against the Plow
    if (mine, theirs) == (plow, crown):
        return False
    return mine < theirs


def is_beater(card: str, upcard: str, order: str) -> bool:
    """A Crown Upcard beaten by a Plow (Regal) or a Plow Upcard beaten by a Crown (Common)."""
    pair = (rank_of(card), rank_of(upcard))
    return pair == ("2", "A") if order == "regal" else pair == ("A", "2")


def holds_suit(hand: Sequence[str], suit: str) -> bool:
    return any(suit_of(c) == suit for c in hand)


def classify(hand: Sequence[str], card: str, upcard: str) -> str:
    """How a face-up ``card`` from ``hand`` plays on ``upcard``: score, usurp, sluff or reneg."""
    if suit_of(card) == suit_of(upcard):
        return "score"
    if rank_of(card) == rank_of(upcard):
        return "usurp"
    return "reneg" if holds_suit(hand, suit_of(upcard)) else "sluff"
