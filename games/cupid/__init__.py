"""Cupid, whole: its rules, the account of its moves, its computer players' sampler and
how it is shown, bundled as ``GAME`` for the registry (games/__init__.py).

The folder: rules.py (the engine), describe.py (each move in words), sampler.py
(the searching computer player's view of the unseen cards), presentation.py (pack and blurb).
The rules for players are docs/rules/cupid.md.
"""

from __future__ import annotations

from games.cupid import sampler
from games.cupid.describe import describe
from games.cupid.presentation import PRESENTATION
from games.cupid.rules import RULES, CupidState
from games.kit.game import Game, Marks, Sampler

GAME: Game[CupidState] = Game(
    rules=RULES,
    describe=describe,
    sampler=Sampler(sample=sampler.sample, standing=sampler.standing, scale=sampler.SCALE),
    presentation=PRESENTATION,
    marks=Marks(unit="points", inaccuracy=3.0, mistake=6.0, blunder=12.0),
    short_match={"target": 40},
)
