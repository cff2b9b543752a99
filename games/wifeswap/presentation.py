"""How Royal Wife-Swap is shown: the drawing of its cards, its sentence in the lobby
and the walkthrough of a first match."""

from __future__ import annotations

from games.kit.game import Presentation

PRESENTATION = Presentation(
    pack="french",
    blurb=(
        "Win tricks, then rearrange the royal families on the table to score — "
        "swapping wives between kings is the whole art."
    ),
    walkthrough=(
        ("The aim", "Lay families of cards on the table; their points win the match."),
        (
            "Tricks",
            "Follow suit when you can; the highest card takes the trick, unless a court card "
            "meets its nemesis (a 2 beats a King, a 3 a Queen, a 4 a Jack, a 5 a Ten).",
        ),
        (
            "Families",
            "The trick's winner may lay families: a King and a Queen, or a Jack and a Ten, "
            "with members of their suits. A King and Queen of one suit are Royal: double.",
        ),
        ("Refill", "Cards not laid go under the stock, and everyone draws back to seven."),
    ),
)
