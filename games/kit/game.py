"""What a game folder hands the registry: one bundle of the game's pieces.

Each game folder's ``__init__`` exports ``GAME``, a :class:`Game` made of

- ``rules``: the rules engine (the ``Rules`` contract, games.kit.base);
- ``describe``: the public account of each move (``describe(before, seat, action,
  after)``), the words the table's log, the review and the transcript all use;
- ``sampler``: what the computer players may guess of the unseen cards (games.bots);
- ``presentation``: the facts the pages and the client show;
- ``marks``: the losses from which the computer's analysis of a match marks a decision
  (games.bots.analysis);
- ``short_match``: table options that make a match short (a low target, a single hand or
  round), for benchmarks that play many matches.

games/__init__.py lists the bundles once; everything that depends on which game is
played looks the piece up there, never in a table of its own keyed by the game's name.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

from games.kit.base import Action, Rules

S = TypeVar("S")

# Which drawing of the cards a game is shown with (the client has one set of faces each).
Pack = Literal["french", "spanish", "tarot"]

# The public account of one move: ``{"says": ...}``, what happened as message ids with their
# arguments (games.kit.account), seats named by number, plus ``"trick"`` (every card face
# up, its winner and points) when the move completed one. It names no card that was not
# public.
Account = dict[str, Any]
Describer = Callable[[S, int, Action, S], Account]


@dataclass(frozen=True)
class Sampler(Generic[S]):
    """The game's knowledge for the computer players (games.bots.search, games.bots.simple).

    ``sample(state, seat, rng)`` is a whole state that ``seat`` cannot tell from the real
    one: the cards it cannot see dealt again at random into the places they could be,
    keeping what it knows (its hand, every face-up card, every pile's size, what play has
    shown), with a made-up seed so that future shuffles are guesses. It reads only the set
    of unseen cards, never where they lie. ``standing(state)`` is every seat's match
    position as one number (higher is better); ``scale`` is a difference in standing that
    decides a match more often than not. The search judges a playout it stops early by them.
    """

    sample: Callable[[S, int, random.Random], S]
    standing: Callable[[S], list[float]]
    scale: float


@dataclass(frozen=True)
class Marks:
    """How the analysis (games.bots.analysis) marks a decision: the loss, in the game's
    scoring ``unit`` (the sampler's ``standing``: "points", "cards"), from which it is an
    inaccuracy, a mistake or a blunder. docs/rules/<game>.md says the same numbers."""

    unit: str
    inaccuracy: float
    mistake: float
    blunder: float


@dataclass(frozen=True)
class Presentation:
    """What the lobby and the tables show of a game besides its rules.

    ``pack`` is the drawing of the cards (``french``, ``spanish`` or ``tarot``); ``blurb``
    is one sentence for the lobby (the full rules are docs/rules/<name>.md). ``walkthrough``
    is the first-match walkthrough the table offers a newcomer: its steps in order, each a
    heading and a sentence or two.
    """

    pack: Pack
    blurb: str
    walkthrough: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Game(Generic[S]):
    """One game, whole: see the module docstring. Its name is ``rules.name``."""

    rules: Rules[S]
    describe: Describer[S]
    sampler: Sampler[S]
    presentation: Presentation
    marks: Marks
    short_match: Mapping[str, Any] = field(default_factory=dict)

    @property
    def name(self) -> str:
        return self.rules.name
