"""Royal Wife-Swap, whole: its rules, the account of its moves, its computer players' sampler and
how it is shown, bundled as ``GAME`` for the registry (games/__init__.py).

The folder: families.py (what a family is and what it scores), rules.py (the
engine), describe.py (each move in words), sampler.py (the searching computer player's
view of the unseen cards), presentation.py (pack and blurb).
The rules for players are docs/rules/wifeswap.md.
"""

from __future__ import annotations

from games.kit.game import Game, Marks, Sampler
from games.wifeswap import sampler
from games.wifeswap.describe import describe
from games.wifeswap.presentation import PRESENTATION
from games.wifeswap.rules import RULES, WifeSwapState

GAME: Game[WifeSwapState] = Game(
    rules=RULES,
    describe=describe,
    sampler=Sampler(sample=sampler.sample, standing=sampler.standing, scale=sampler.SCALE),
    presentation=PRESENTATION,
    marks=Marks(unit="points", inaccuracy=10.0, mistake=20.0, blunder=40.0),
    short_match={"rounds": 1},
)
