"""How Royal Wife-Swap is shown: the drawing of its cards and its sentence in the lobby."""

from __future__ import annotations

from games.kit.game import Presentation

PRESENTATION = Presentation(
    pack="french",
    blurb=(
        "Win tricks, then rearrange the royal families on the table to score — "
        "swapping wives between kings is the whole art."
    ),
)
