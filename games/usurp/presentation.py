"""How Usurp is shown: the drawing of its cards, its sentence in the lobby
and the walkthrough of a first match."""

from __future__ import annotations

from games.kit.game import Presentation

PRESENTATION = Presentation(
    pack="french",
    blurb=(
        "A duel of bluffs: play by the Order, rise face down with an Uprise, and "
        "dare your opponent to Challenge or Give In."
    ),
    walkthrough=(
        (
            "The aim",
            "Score more Hand Points than your opponent in each hand to win Game Points.",
        ),
        (
            "The Order",
            "The dealer declares the Order: Regal (high cards win) or Common (low cards win).",
        ),
        (
            "Your turn",
            "Play on the Upcard: a Score (its suit), a Usurp (its rank: you choose the Order) "
            "or a Sluff Off (neither, when you hold none of its suit).",
        ),
        (
            "Bluffing",
            "Or Uprise: play face down. Your opponent Gives In or Challenges, and a "
            "challenged card is turned and played as it is.",
        ),
    ),
)
