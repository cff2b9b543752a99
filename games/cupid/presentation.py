"""How Cupid is shown: the drawing of its cards, its sentence in the lobby
and the walkthrough of a first match."""

from __future__ import annotations

from games.kit.game import Presentation

PRESENTATION = Presentation(
    pack="french",
    blurb=(
        "A racing trick-taking duel with 24 cards: every trick's worth depends on both "
        "cards in it, and the Queen alone takes the King."
    ),
    walkthrough=(
        ("The aim", "Two players race to the target score; every trick is one card each."),
        (
            "Winning a trick",
            "The higher card in the ruled order takes the trick, but Anima, the Queen of "
            "Diamonds, takes Cupid, the King of Hearts.",
        ),
        (
            "What a trick is worth",
            "Both cards decide: a character with a number scores the number, two hearts "
            "their difference, two spades 1; the Joker makes the trick worth nothing.",
        ),
        (
            "After the trick",
            "The winner takes the stock's top card or the turn-up, the other player gets "
            "the other, and the winner leads the next trick.",
        ),
    ),
)
