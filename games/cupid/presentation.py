"""How Cupid is shown: the drawing of its cards and its sentence in the lobby."""

from __future__ import annotations

from games.kit.game import Presentation

PRESENTATION = Presentation(
    pack="french",
    blurb=(
        "A racing trick-taking duel with 24 cards: every trick's worth depends on both "
        "cards in it, and the Queen alone takes the King."
    ),
)
