"""Computer players: every kind always moves legally, and every kind knows only what its
seat may know.

The samplers deal a seat's unseen cards afresh; a sampled state must look the same from
that seat (same view) and keep every pile's size. No computer player may read the real
unseen cards: two matches that differ only in where two never-seen cards lie (a stacked
deck with them swapped, the same moves) give the seat the same view, and every kind then
makes the same decisions, seed for seed; so do states whose every unseen card was dealt
again (by the sampler) — above all the easy Usurp player answering a hand's last Uprising,
whose outcome the opponent's face-down card decides.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

import games
from games.bots import KINDS, choose, simple
from games.bots.search import Budget, search
from games.kit.base import IllegalAction
from tests.games.randomplay import random_match, seat_counts

GAMES = sorted(games.REGISTRY)
SMALL = Budget(simulations=40, playout=20)


def _decisions(rules: Any, state: Any, seat: int, kind: str = "search") -> list[Any]:
    """The decisions of ``kind`` (the search, or a kind of games.bots.simple) for three seeds."""
    if kind == "search":
        return [search(rules, state, seat, random.Random(k), SMALL) for k in range(3)]
    return [simple.choose(rules, state, seat, f"decide:{k}", kind) for k in range(3)]


def _redealt(rules: Any, state: Any, seat: int, rng: random.Random) -> Any:
    """Another state the seat cannot tell from ``state``: every card it may not see dealt
    again into the places it could be (the game's sampler), checked against its view."""
    world = games.game(rules.name).sampler.sample(state, seat, rng)
    assert rules.view(world, seat) == rules.view(state, seat)
    assert rules.legal_actions(world, seat) == rules.legal_actions(state, seat)
    return world


@pytest.mark.parametrize("name", GAMES)
def test_samples_look_the_same_from_the_seat(name: str) -> None:
    rules = games.get(name)
    sample = games.game(name).sampler.sample
    checked = 0
    for i, seats in enumerate(seat_counts(rules)):
        played = random_match(rules, seats, seed=8000 + i)
        rng = random.Random(i)
        for state in played.states[:: max(1, len(played.states) // 40)]:
            if rules.is_over(state):
                continue
            for seat in range(seats):
                world = sample(state, seat, rng)
                assert rules.view(world, seat) == rules.view(state, seat)
                assert sorted(c for z in rules.zones(world).values() for c in z) == sorted(
                    c for z in rules.zones(state).values() for c in z
                )
                assert {k: len(v) for k, v in rules.zones(world).items()} == {
                    k: len(v) for k, v in rules.zones(state).items()
                }
                checked += 1
    assert checked > 0


def _never_known(rules: Any, played: Any, step: int, seat: int) -> list[str]:
    unseen = set(rules.deck(played.seats, played.options))
    for state in played.states[: step + 1]:
        unseen &= rules.hidden_cards(state, seat)
    return sorted(unseen)


@pytest.mark.parametrize("kind", ["search", *simple.KINDS])
@pytest.mark.parametrize("name", GAMES)
def test_every_kind_decides_the_same_when_unseen_cards_are_swapped(name: str, kind: str) -> None:
    rules = games.get(name)
    compared = 0
    for i, seats in enumerate(seat_counts(rules) * 2):
        deck = random.Random(i).sample(rules.deck(seats, None), len(rules.deck(seats, None)))
        played = random_match(rules, seats, seed=9000 + i, options={"dealer": 0}, deck=deck)
        rng = random.Random(i)
        steps = [s for s in range(1, len(played.log), max(1, len(played.log) // 6))]
        for step in steps[:4]:
            state = played.states[step]
            seat = rules.to_act(state)[0]
            if len(rules.legal_actions(state, seat)) < 2:
                continue
            pool = _never_known(rules, played, step, seat)
            if len(pool) < 2:
                continue
            x, y = rng.sample(pool, 2)
            swapped_deck = [y if c == x else x if c == y else c for c in deck]
            try:
                other = games.replay(
                    name, seats, played.seed, played.options, swapped_deck, played.log[:step]
                )
            except IllegalAction:
                continue  # a swapped card was played face down: that match went otherwise
            if other == state:
                continue  # both cards lay in one place (a sorted hand, say)
            assert rules.view(other, seat) == rules.view(state, seat)
            assert _decisions(rules, other, seat, kind) == _decisions(rules, state, seat, kind)
            compared += 1
    assert compared > 0


@pytest.mark.parametrize("kind", simple.KINDS)
@pytest.mark.parametrize("name", GAMES)
def test_easy_and_random_players_decide_the_same_whatever_the_unseen_cards(
    name: str, kind: str
) -> None:
    rules = games.get(name)
    compared = 0
    for i, seats in enumerate(seat_counts(rules)):
        played = random_match(rules, seats, seed=7000 + i)
        rng = random.Random(i)
        for state in played.states[:: max(1, len(played.states) // 30)]:
            for seat in rules.to_act(state):
                if len(rules.legal_actions(state, seat)) < 2:
                    continue
                decided = _decisions(rules, state, seat, kind)
                for _ in range(2):
                    world = _redealt(rules, state, seat, rng)
                    assert _decisions(rules, world, seat, kind) == decided
                    compared += 1
    assert compared > 0


def _last_uprisings(count: int) -> list[Any]:
    """Usurp states awaiting the answer to a hand's last Uprising: both hands are empty, and
    the face-down card may decide who wins the hand."""
    rules = games.get("usurp")
    found: list[Any] = []
    seed = 0
    while len(found) < count:
        played = random_match(rules, 2, seed=6000 + seed)
        found.extend(s for s in played.states if s.phase == "answer" and not any(s.hands))
        seed += 1
    return found[:count]


def test_the_easy_usurp_player_answers_the_last_uprising_from_what_it_knows() -> None:
    rules = games.get("usurp")
    rng = random.Random(1)
    for state in _last_uprisings(120):
        seat = rules.to_act(state)[0]
        decided = _decisions(rules, state, seat, "heuristic")
        for _ in range(4):
            world = _redealt(rules, state, seat, rng)
            assert world.pending.card != state.pending.card or world.stock != state.stock
            assert _decisions(rules, world, seat, "heuristic") == decided


@pytest.mark.parametrize("name", GAMES)
def test_every_kind_moves_legally_to_the_end(name: str) -> None:
    rules = games.get(name)
    seats = rules.min_seats
    state = rules.new_game(seats, 5, {})
    steps = 0
    while not rules.is_over(state) and steps < 40:
        seat = rules.to_act(state)[0]
        kind = KINDS[steps % len(KINDS)]
        action = choose(rules, state, seat, f"5:{steps}", kind, out_of_time=lambda: True)
        assert action in rules.legal_actions(state, seat)
        state = rules.apply(state, seat, action)
        steps += 1
    assert steps > 0
