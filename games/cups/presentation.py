"""How Cups is shown: the drawing of its cards, its sentence in the lobby
and the walkthrough of a first match."""

from __future__ import annotations

from games.kit.game import Presentation

PRESENTATION = Presentation(
    pack="tarot",
    blurb=(
        "Shed your hand with the tarot's minor arcana: beat the active card, make your "
        "rivals draw, reverse the play, and give gifts with an Ace."
    ),
    walkthrough=(
        ("The aim", "Get rid of every card you hold: the fewest cards at the end wins."),
        (
            "Your turn",
            "On a Coin, Sword or Wand play a higher card of its suit or its Ace, a card of "
            "another suit but Cups (then draw its value), or the Cup of the same value.",
        ),
        ("Cups", "On an active Cup play any card but a Cup; then play reverses."),
        (
            "Stuck?",
            "When you cannot play, lay your whole hand as a graveyard and draw as many cards.",
        ),
    ),
)
