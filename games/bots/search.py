"""The searching computer player: determinized information-set Monte Carlo tree search.

Each simulation deals the cards the player cannot see afresh (the game's sampler,
games.kit.game.Sampler), so every simulation plays in a world the player cannot tell from the
real one, then walks one tree shared by all those worlds (single-observer ISMCTS, Cowling,
Powley and Whitehouse 2012): a node is a sequence of actions, an action available in some
worlds only counts as a candidate in those (UCB with availability counts), each node's
mover is whoever acts there in that world. Below the tree a playout takes random legal
actions, for at most ``Budget.playout`` actions, and the result is judged for every seat:
against each other seat, 1 for finishing ahead, 0 for behind, and in between, by the
difference in ``standing`` measured against the game's ``scale``, while the match goes on.

The budget is a number of simulations and, optionally, ``out_of_time``: a callable the
caller (the server, with its clock) makes, asked between simulations. Nothing here reads
the real unseen cards: the real state is only handed to the sampler, which keeps what the
player may know, and to ``legal_actions`` for the player's own choices.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from typing import Any

import games
from games.kit.base import Action, Rules
from games.kit.game import Sampler

# The exploration constant of UCB1 for rewards in [0, 1].
EXPLORATION = 0.7


@dataclass(frozen=True)
class Budget:
    """How much a search may do: ``simulations`` at most, each playout ``playout`` actions
    at most past the tree."""

    simulations: int
    playout: int = 40


class _Node:
    """A node of the shared tree: the action that led to it, as its parent's mover saw it."""

    __slots__ = ("available", "children", "reward", "visits")

    def __init__(self) -> None:
        self.children: dict[Hashable, _Node] = {}
        self.reward = 0.0  # summed rewards of the mover who chose this node's action
        self.visits = 0
        self.available = 0  # simulations in which this node's action was legal


def action_key(action: Action) -> Hashable:
    """A hashable stand-in for an action (lists become tuples)."""
    return tuple((k, _frozen(v)) for k, v in action.items())


def _frozen(value: Any) -> Hashable:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value  # type: ignore[no-any-return]


def search(
    rules: Rules[Any],
    state: Any,
    seat: int,
    rng: random.Random,
    budget: Budget,
    out_of_time: Callable[[], bool] | None = None,
) -> Action:
    """The action the search prefers for ``seat`` (one of ``legal_actions``)."""
    legal = rules.legal_actions(state, seat)
    if not legal:
        raise ValueError(f"seat {seat} has nothing to do")
    if len(legal) == 1:
        return legal[0]
    knowledge = games.game(rules.name).sampler
    root = _Node()
    for done in range(budget.simulations):
        if done and out_of_time is not None and out_of_time():
            break
        _simulate(rules, knowledge, root, knowledge.sample(state, seat, rng), seat, rng, budget)
    by_key = {action_key(a): a for a in legal}
    ranked = sorted(
        (
            (child.visits, child.reward, key)
            for key, child in root.children.items()
            if key in by_key
        ),
        key=lambda entry: (entry[0], entry[1]),
        reverse=True,
    )
    if not ranked:
        return rng.choice(legal)
    return by_key[ranked[0][2]]


def _simulate(
    rules: Rules[Any],
    knowledge: Sampler[Any],
    root: _Node,
    world: Any,
    seat: int,
    rng: random.Random,
    budget: Budget,
) -> None:
    """One simulation: down the tree in ``world``, add one node, play out, back up."""
    node = root
    path: list[tuple[_Node, int]] = []
    mover = seat  # at the root the searching seat moves (others may be awaited with it)
    while not rules.is_over(world):
        legal = rules.legal_actions(world, mover)
        keys = [action_key(a) for a in legal]
        children = node.children
        untried = [i for i, key in enumerate(keys) if key not in children]
        for key in keys:
            if key in children:
                children[key].available += 1
        if untried:
            pick = rng.choice(untried)
            child = children[keys[pick]] = _Node()
            child.available = 1
            world = rules.apply(world, mover, legal[pick])
            path.append((child, mover))
            break
        log_weights = {key: math.log(children[key].available) for key in keys}
        best_index = max(
            range(len(keys)),
            key=lambda i: _ucb(children[keys[i]], log_weights[keys[i]]),
        )
        node = children[keys[best_index]]
        world = rules.apply(world, mover, legal[best_index])
        path.append((node, mover))
        awaited = rules.to_act(world)
        if not awaited:
            break
        mover = awaited[0]
    world = random_playout(rules, world, rng, budget.playout)
    rewards = _rewards(rules, knowledge, world)
    for visited, who in path:
        visited.visits += 1
        visited.reward += rewards[who]


def _ucb(node: _Node, log_available: float) -> float:
    return node.reward / node.visits + EXPLORATION * math.sqrt(log_available / node.visits)


def random_playout(rules: Rules[Any], world: Any, rng: random.Random, steps: int) -> Any:
    """``world`` after at most ``steps`` random legal actions (games.bots.analysis too)."""
    for _ in range(steps):
        awaited = rules.to_act(world)
        if not awaited:
            break
        mover = awaited[0] if len(awaited) == 1 else rng.choice(awaited)
        world = rules.apply(world, mover, rng.choice(rules.legal_actions(world, mover)))
    return world


def _rewards(rules: Rules[Any], knowledge: Sampler[Any], world: Any) -> list[float]:
    """Each seat's result in [0, 1]: how it stands against every other seat, on average."""
    standing = knowledge.standing(world)
    seats = len(standing)
    over = rules.is_over(world)
    winners = set(rules.winners(world)) if over else set()
    rewards = []
    for me in range(seats):
        total = 0.0
        for other in range(seats):
            if other != me:
                total += _against(standing, me, other, winners, over, knowledge.scale)
        rewards.append(total / (seats - 1))
    return rewards


def _against(
    standing: Sequence[float], me: int, other: int, winners: set[int], over: bool, scale: float
) -> float:
    """How ``me`` stands against ``other``: 1 ahead, 0 behind (a finished match is decided
    by who won, then by standing)."""
    if over and (me in winners) != (other in winners):
        return 1.0 if me in winners else 0.0
    difference = standing[me] - standing[other]
    if over:
        return 1.0 if difference > 0 else 0.0 if difference < 0 else 0.5
    return 0.5 + 0.5 * math.tanh(difference / scale)
