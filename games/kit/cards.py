"""Card codes, decks and seeded shuffles.

A card code is its rank then its suit with no separator: ``10H``, ``QD``, ``AS``; the Joker
is ``JK``. French suits are S H D C; the Spanish 48-card pack (Coins) uses C O S B with
ranks A K N J 9..2; the tarot minor arcana (Cups) uses C O S W with ranks A 2..10 P N Q K.

Randomness is data: a shuffle is a pure function of the match seed and a shuffle counter
kept in the state, using its own ``random.Random`` so that nothing touches the global RNG
and (seed, actions) rebuilds every deal exactly.
"""

from __future__ import annotations

import random
from collections.abc import Sequence

JOKER = "JK"

FRENCH_SUITS = ("S", "H", "D", "C")
FRENCH_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SPANISH_SUITS = ("C", "O", "S", "B")
SPANISH_RANKS = ("A", "K", "N", "J", "9", "8", "7", "6", "5", "4", "3", "2")
TAROT_SUITS = ("C", "O", "S", "W")
TAROT_RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "P", "N", "Q", "K")

SUIT_NAMES = {
    "french": {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"},
    "spanish": {"C": "cups", "O": "coins", "S": "swords", "B": "clubs"},
    "tarot": {"C": "cups", "O": "coins", "S": "swords", "W": "wands"},
}
RANK_NAMES = {
    "A": "ace",
    "J": "jack",
    "Q": "queen",
    "K": "king",
    "N": "knight",
    "P": "page",
}
# The Spanish pack's courts by their English names with the Spanish ones beside, as the
# rules name them (docs/rules/coins.md) and the cards show them.
SPANISH_RANK_NAMES = {
    **RANK_NAMES,
    "J": "knave (Sota)",
    "N": "knight (Caballo)",
    "K": "king (Rey)",
}


def rank_of(code: str) -> str:
    """The rank part of a card code (``10H`` -> ``10``)."""
    return code[:-1]


def suit_of(code: str) -> str:
    """The suit letter of a card code (``10H`` -> ``H``)."""
    return code[-1]


def make_deck(ranks: Sequence[str], suits: Sequence[str]) -> list[str]:
    """Every rank of every suit, suit by suit."""
    return [rank + suit for suit in suits for rank in ranks]


def french_deck() -> list[str]:
    """The standard 52-card pack without jokers."""
    return make_deck(FRENCH_RANKS, FRENCH_SUITS)


def spanish_deck() -> list[str]:
    """The Spanish 48-card pack (Coins)."""
    return make_deck(SPANISH_RANKS, SPANISH_SUITS)


def tarot_deck() -> list[str]:
    """The tarot minor arcana: 56 cards (Cups)."""
    return make_deck(TAROT_RANKS, TAROT_SUITS)


def rng_for(seed: int | str, counter: int) -> random.Random:
    """A private RNG for the ``counter``-th random event of the match with ``seed``.

    Seeding with a string is deterministic across processes (it is hashed with SHA-512,
    not Python's salted ``hash``).
    """
    return random.Random(f"parlour:{seed}:{counter}")


def shuffled(cards: Sequence[str], seed: int | str, counter: int) -> tuple[str, ...]:
    """``cards`` in the order of the ``counter``-th shuffle of the match with ``seed``."""
    order = list(cards)
    rng_for(seed, counter).shuffle(order)
    return tuple(order)


def card_name(code: str, pack: str = "french") -> str:
    """A readable name for screen readers and messages: ``QD`` -> "queen of diamonds";
    in the Spanish pack ``JB`` -> "knave (Sota) of clubs"."""
    if code == JOKER:
        return "joker"
    rank, suit = rank_of(code), suit_of(code)
    names = SPANISH_RANK_NAMES if pack == "spanish" else RANK_NAMES
    return f"{names.get(rank, rank)} of {SUIT_NAMES[pack][suit]}"
