"""What the searching computer player needs to know of each game, one module per game.

Each module has ``sample(state, seat, rng)``: a whole state that ``seat`` cannot tell from
the real one. The cards the seat cannot see are dealt again, at random, into the places
they could be (other hands, the stock, face-down piles), keeping what the seat knows: its
own hand, every face-up card, the sizes of every pile, and what the public play has shown
(a card laid face up and then covered, a suit a player failed to follow). The match seed
is replaced too, so future shuffles are guesses, not the real ones. A sampler never
reads where the unseen cards really are: it takes only the set of them, sorts it and
deals it afresh, so states that differ only in where those cards lie give the same
samples.

Each module also has ``standing(state)``: every seat's match position as one number
(higher is better), and ``SCALE``: a difference in standing that decides a match more often
than not. The search judges a playout it stops early by them.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any, NamedTuple

from games.bots.samplers import coins, cupid, cups, usurp, wifeswap
from games.bots.samplers.common import deal_unseen, fresh_seed

Sample = Callable[[Any, int, random.Random], Any]
Standing = Callable[[Any], list[float]]


class Knowledge(NamedTuple):
    """A game's sampler module, as the search uses it."""

    sample: Sample
    standing: Standing
    scale: float


# Each game's, by the game's name (games.REGISTRY).
SAMPLERS: dict[str, Knowledge] = {
    "coins": Knowledge(coins.sample, coins.standing, coins.SCALE),
    "cupid": Knowledge(cupid.sample, cupid.standing, cupid.SCALE),
    "cups": Knowledge(cups.sample, cups.standing, cups.SCALE),
    "usurp": Knowledge(usurp.sample, usurp.standing, usurp.SCALE),
    "wifeswap": Knowledge(wifeswap.sample, wifeswap.standing, wifeswap.SCALE),
}

__all__ = ["SAMPLERS", "Knowledge", "Sample", "Standing", "deal_unseen", "fresh_seed"]
