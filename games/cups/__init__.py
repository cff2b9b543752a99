"""Cups, whole: its rules, the account of its moves, its computer players' sampler and
how it is shown, bundled as ``GAME`` for the registry (games/__init__.py).

The folder: rules.py (the engine), describe.py (each move in words), sampler.py
(the searching computer player's view of the unseen cards), presentation.py (pack and blurb).
The rules for players are docs/rules/cups.md.
"""

from __future__ import annotations

from games.cups import sampler
from games.cups.describe import describe
from games.cups.presentation import PRESENTATION
from games.cups.rules import RULES, CupsState
from games.kit.game import Game, Marks, Sampler

GAME: Game[CupsState] = Game(
    rules=RULES,
    describe=describe,
    sampler=Sampler(sample=sampler.sample, standing=sampler.standing, scale=sampler.SCALE),
    presentation=PRESENTATION,
    marks=Marks(unit="cards", inaccuracy=1.0, mistake=2.0, blunder=4.0),
)
