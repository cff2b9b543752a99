"""How Cups is shown: the drawing of its cards and its sentence in the lobby."""

from __future__ import annotations

from games.kit.game import Presentation

PRESENTATION = Presentation(
    pack="tarot",
    blurb=(
        "Shed your hand with the tarot's minor arcana: beat the active card, make your "
        "rivals draw, reverse the play, and give gifts with an Ace."
    ),
)
