"""How Coins is shown: the drawing of its cards and its sentence in the lobby."""

from __future__ import annotations

from games.kit.game import Presentation

PRESENTATION = Presentation(
    pack="spanish",
    blurb=(
        "Three players, the Spanish deck and a cycle of suits: three different suits "
        "and the missing one decides who wins. Only Coins score."
    ),
)
