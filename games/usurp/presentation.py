"""How Usurp is shown: the drawing of its cards and its sentence in the lobby."""

from __future__ import annotations

from games.kit.game import Presentation

PRESENTATION = Presentation(
    pack="french",
    blurb=(
        "A duel of bluffs: play by the Order, rise face down with an Uprise, and "
        "dare your opponent to Challenge or Give In."
    ),
)
