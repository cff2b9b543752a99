"""The computer's analysis of a match (games.bots.analysis): its judgements keep the
contract's rules, read only what the judged seat could know, and tell a poor player from
the strong computer."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

import games
from games.bots import choose
from games.bots.analysis import (
    Judgement,
    Rounds,
    accuracy,
    analyse_match,
    judge,
    mark_for,
    move_accuracy,
)
from games.cupid.rules import POSITION
from games.kit.base import IllegalAction
from tests.games.randomplay import random_match

GAMES = sorted(games.REGISTRY)
ROOT = Path(__file__).resolve().parents[2]
# A small budget where only the rules of the answer are checked, not its quality.
QUICK = Rounds(batch=10, simulations=60)
# Half the server's budget: the difference between the players is far wider than its noise.
HALF = Rounds(batch=100, simulations=6000)
MOVES = 120  # the part of a long match (Cups, Royal Wife-Swap) these tests analyse
# Options that leave cards unseen by seat 0 for a whole match (the deck is the first deal's).
NEVER_SEEN: dict[str, dict[str, Any]] = {"cupid": {"target": 10}}


def short_match(name: str, seed: int, deck: list[str] | None = None, **options: Any) -> Any:
    rules = games.get(name)
    options = {**games.game(name).short_match, "dealer": 0, **options}
    return random_match(rules, rules.min_seats, seed, options, deck)


def check_rules(rules: Any, played: Any, judged: list[Judgement]) -> None:
    """Every judgement keeps the contract: a legal best move, a loss of 0 exactly when the
    best was played, forced exactly when there was no choice worth making."""
    marks = games.game(rules.name).marks
    for judgement in judged:
        state = played.states[judgement.seq - 1]
        seat, action = played.log[judgement.seq - 1]
        assert (judgement.seat, judgement.played) == (seat, action)
        rules.apply(state, seat, judgement.best)  # legal: no IllegalAction
        assert judgement.loss >= 0
        legal = rules.legal_actions(state, seat)
        if len(legal) == 1:
            assert judgement.mark == "forced"
        if judgement.mark == "forced" or judgement.best == judgement.played:
            assert judgement.loss == 0 and judgement.best == judgement.played
        else:
            assert judgement.mark == mark_for(judgement.loss, marks) or (
                # the mark is made from the unrounded loss
                abs(judgement.loss - min(marks.inaccuracy, marks.mistake, marks.blunder)) < 0.01
            )
        assert len(judgement.expected) == played.seats


@pytest.mark.parametrize("name", GAMES)
def test_judgements_keep_the_contract(name: str) -> None:
    rules = games.get(name)
    played = short_match(name, seed=31)
    log = played.log[:MOVES]
    judged = analyse_match(
        rules, played.seats, played.seed, played.options, None, log, rounds=QUICK
    )
    assert [j.seq for j in judged] == list(range(1, len(log) + 1))
    check_rules(rules, played, judged)
    assert any(j.mark == "forced" for j in judged) or all(
        len(rules.legal_actions(played.states[j.seq - 1], j.seat)) > 1 for j in judged
    )
    figures = accuracy(judged, games.game(name).marks)
    assert set(figures) <= set(range(played.seats)) and all(0 <= f <= 100 for f in figures.values())


def test_a_judgement_is_a_function_of_its_seed() -> None:
    rules = games.get("cupid")
    played = short_match("cupid", seed=5)
    state, (seat, action) = played.states[2], played.log[2]
    first = judge(rules, state, seat, action, 3, "s", QUICK)
    assert judge(rules, state, seat, action, 3, "s", QUICK) == first
    assert Judgement.from_json(first.as_json()) == first


def test_accuracy_falls_with_the_loss() -> None:
    marks = games.game("cupid").marks
    assert move_accuracy(0, marks) == 100
    assert move_accuracy(marks.mistake, marks) == pytest.approx(50)
    assert move_accuracy(marks.blunder, marks) < move_accuracy(marks.inaccuracy, marks)
    judged = [
        Judgement(1, 0, {}, {}, 0.0, None, (0.0, 0.0)),
        Judgement(2, 0, {}, {}, marks.mistake, "mistake", (0.0, 0.0)),
        Judgement(3, 0, {}, {}, 0.0, "forced", (0.0, 0.0)),
        Judgement(4, 1, {}, {}, 0.0, "forced", (0.0, 0.0)),
    ]
    assert accuracy(judged, marks) == {0: 75.0, 1: 100.0}


def _never_known(rules: Any, played: Any, upto: int, seat: int) -> list[str]:
    """The cards ``seat`` could not know at any point of the first ``upto`` moves."""
    unseen = set(rules.deck(played.seats, played.options))
    for state in played.states[: upto + 1]:
        unseen &= rules.hidden_cards(state, seat)
    return sorted(unseen)


def _apart(rules: Any, played: Any, pool: list[str], i: int) -> tuple[str, str] | None:
    """Two cards of ``pool`` dealt into different places, or None."""
    where = {card: zone for zone, cards in rules.zones(played.states[0]).items() for card in cards}
    pairs = [(x, y) for x in pool for y in pool if x < y and where[x] != where[y]]
    return random.Random(i).choice(pairs) if pairs else None


@pytest.mark.parametrize("name", GAMES)
def test_cards_the_seat_never_knew_change_no_mark(name: str) -> None:
    """Two matches alike in everything seat 0 saw, move for move, but with two cards it
    never knew trading places in the deal: every judgement of its decisions is the same.
    (It fails if the analysis plays on the real state instead of the sampler's worlds.)"""
    rules = games.get(name)
    compared = 0
    for i in range(6):
        seats = rules.min_seats
        deck = random.Random(i).sample(rules.deck(seats, None), len(rules.deck(seats, None)))
        # Cupid to 10 points: over within the first deal, whose unplayed cards stay unseen.
        played = short_match(name, seed=700 + i, deck=deck, **NEVER_SEEN.get(name, {}))
        # The whole match where seat 0 never sees cards that lie in different places (a
        # hand and the stock, say: swapping two cards of one place can change nothing);
        # failing that, the longest start of it where it does.
        log, pair = [], None
        for moves in (MOVES, 60, 40, 20):
            log = played.log[:moves]
            pair = _apart(rules, played, _never_known(rules, played, len(log), 0), i)
            if pair is not None:
                break
        if pair is None:
            continue
        x, y = pair
        swapped = [y if c == x else x if c == y else c for c in deck]
        try:
            other = list(games.states(rules, seats, played.seed, played.options, swapped, log))
        except IllegalAction:
            continue  # a swapped card was played face down: that match went otherwise
        if all(a == b for a, b in zip(other, played.states, strict=False)):
            continue  # both cards lay in one place (a sorted hand, say)
        for mine, theirs in zip(played.states, other, strict=False):
            assert rules.view(mine, 0) == rules.view(theirs, 0)
        seat_zero = {seq for seq, (seat, _) in enumerate(log, start=1) if seat == 0}
        judged = [
            analyse_match(
                rules, seats, played.seed, played.options, d, log, only=seat_zero, rounds=QUICK
            )
            for d in (deck, swapped)
        ]
        assert judged[0] == judged[1]
        compared += 1
        if compared == 4:
            break
    assert compared > 0


def _lowest(rules: Any, state: Any, seat: int) -> dict[str, Any]:
    """The lowest card the seat may play (any other choice, such as a draw: the first)."""
    legal = rules.legal_actions(state, seat)
    cards = [a for a in legal if "card" in a]
    return min(cards, key=lambda a: POSITION[a["card"]]) if cards else legal[0]


def _cupid_match(seed: int, seat_zero: str) -> tuple[Any, list[tuple[int, dict[str, Any]]]]:
    """A Cupid match of the strong computer (seat 1) against ``seat_zero``: ``strong`` or
    ``lowest`` (always the lowest card), dealt from the same seed."""
    rules = games.get("cupid")
    options = {"target": 40, "dealer": 0}
    state = rules.new_game(2, seed, options)
    log: list[tuple[int, dict[str, Any]]] = []
    while not rules.is_over(state):
        seat = rules.to_act(state)[0]
        if seat == 0 and seat_zero == "lowest":
            action = _lowest(rules, state, seat)
        else:
            action = choose(rules, state, seat, f"{seed}:{len(log)}", "strong")
        log.append((seat, action))
        state = rules.apply(state, seat, action)
    return options, log


def test_the_lowest_card_every_time_is_less_accurate_than_the_strong_computer() -> None:
    rules = games.get("cupid")
    marks = games.game("cupid").marks
    figures: dict[str, list[float]] = {"strong": [], "lowest": []}
    for seed in (3,):
        for kind, found in figures.items():
            options, log = _cupid_match(seed, kind)
            seat_zero = {seq for seq, (seat, _) in enumerate(log, start=1) if seat == 0}
            judged = analyse_match(rules, 2, seed, options, None, log, only=seat_zero, rounds=HALF)
            found.append(accuracy(judged, marks)[0])
    mean = {kind: sum(found) / len(found) for kind, found in figures.items()}
    assert mean["lowest"] < mean["strong"], figures


@pytest.mark.parametrize("name", GAMES)
def test_the_rules_page_gives_the_games_marks(name: str) -> None:
    """docs/rules/<game>.md says the thresholds the analysis marks by."""
    text = (ROOT / "docs" / "rules" / f"{name}.md").read_text(encoding="utf-8")
    section = text.split("## Analysis marks", 1)[1].split("\n## ", 1)[0]
    marks = games.game(name).marks
    for mark, threshold in (
        ("inaccuracy", marks.inaccuracy),
        ("mistake", marks.mistake),
        ("blunder", marks.blunder),
    ):
        assert f"| {mark} |" in section and f"| {threshold:g} or more |" in section, mark
    assert f"2^(\u2212loss ÷ {marks.mistake:g})" in section
