"""Usurp, whole: its rules, the account of its moves, its computer players' sampler and
how it is shown, bundled as ``GAME`` for the registry (games/__init__.py).

The folder: table.py (constants, state, card arithmetic), plays.py (each play
resolved), rules.py (the engine), describe.py (each move in words), sampler.py (the
searching computer player's view of the unseen cards), presentation.py (pack and blurb).
The rules for players are docs/rules/usurp.md.
"""

from __future__ import annotations

from games.kit.game import Game, Marks, Sampler
from games.usurp import sampler
from games.usurp.describe import describe
from games.usurp.presentation import PRESENTATION
from games.usurp.rules import RULES
from games.usurp.table import UsurpState

GAME: Game[UsurpState] = Game(
    rules=RULES,
    describe=describe,
    sampler=Sampler(sample=sampler.sample, standing=sampler.standing, scale=sampler.SCALE),
    presentation=PRESENTATION,
    marks=Marks(unit="Game Points", inaccuracy=0.1, mistake=0.2, blunder=0.4),
    short_match={"game_points": 1},
)
