"""How Coins is shown: the drawing of its cards, its sentence in the lobby
and the walkthrough of a first match."""

from __future__ import annotations

from games.kit.game import Presentation

PRESENTATION = Presentation(
    pack="spanish",
    blurb=(
        "Three players, the Spanish deck and a cycle of suits: three different suits "
        "and the missing one decides who wins. Only Coins score."
    ),
    walkthrough=(
        ("The aim", "Three players; every card of Coins in the tricks you take is a point."),
        ("Playing", "Play any card to the trick: you need not follow suit."),
        (
            "Who takes the trick",
            "Three suits in a trick: the missing suit decides. Two of one suit: the higher "
            "of the pair. All of one suit: the highest.",
        ),
        ("Winning", "The first to the target wins at once, even in the middle of a hand."),
    ),
)
