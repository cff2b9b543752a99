"""Coins, whole: its rules, the account of its moves, its computer players' sampler and
how it is shown, bundled as ``GAME`` for the registry (games/__init__.py).

The folder: rules.py (the engine), describe.py (each move in words), sampler.py
(the searching computer player's view of the unseen cards), presentation.py (pack and blurb).
The rules for players are docs/rules/coins.md.
"""

from __future__ import annotations

from games.coins import sampler
from games.coins.describe import describe
from games.coins.presentation import PRESENTATION
from games.coins.rules import RULES, CoinsState
from games.kit.game import Game, Marks, Sampler

GAME: Game[CoinsState] = Game(
    rules=RULES,
    describe=describe,
    sampler=Sampler(sample=sampler.sample, standing=sampler.standing, scale=sampler.SCALE),
    presentation=PRESENTATION,
    marks=Marks(unit="points", inaccuracy=0.5, mistake=1.0, blunder=2.0),
    short_match={"target": 10},
)
