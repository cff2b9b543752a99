"""The computer's analysis of a finished match: every decision judged from its seat's
information, against the best action found.

For one decision (a state, the seat that moved, the action it played) the analysis asks
what each candidate action — every legal action, and the one played — is worth to that
seat, by the searching players' determinisation (games.bots.search): worlds the game's
sampler deals from the seat's point of view (never the real unseen cards), each played on
by the search's random playout. Every candidate is tried in the same worlds, followed by
the same random numbers (common random numbers), so the differences between candidates
are measured rather than the noise of different samples. The root is judged flat, without
the player's tree of replies: a tree grows differently from one run to the next, and with
it the marks (a decision in nine near a threshold changed its mark between two analyses
of the same Cupid match at 2,000 worlds a candidate); flat, every world is independent of
the others, so how sure an estimate is can be told, and worlds are spent where it is not.

An action's *value* is the seat's expected standing (the sampler's ``standing``: the
game's score, match points in Cupid, cards held — counted against — in Cups, Game Points
in Usurp) less the average of the other seats', at the end of the playout: the end of the
match or ``PLAYOUT`` actions on. The best candidate has the highest value; the ``loss``
of the action played is the best value less its own, never negative, and exactly 0 when it
was the best. A decision with one legal action, or whose candidates are all worth exactly
the same, is ``forced``; the others are marked from the loss by the game's thresholds
(games.kit.game.Marks, docs/rules/<game>.md): inaccuracy, mistake, blunder, or nothing.

A seat's accuracy over a match is the mean of its unforced decisions' accuracies, each
``100 · 2^(-loss / mistake)``: 100 for the best action, 50 for a loss the size of the
game's mistake threshold, 25 for twice that.

Everything is a pure function of its arguments: the randomness of each decision comes from
the match seed, the decision's number and a ``salt`` (another salt, another analysis:
how often the marks differ measures their stability, bench/analysis.py).
"""

from __future__ import annotations

import math
import random
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import games
from games.bots.search import random_playout
from games.kit.base import Action, Rules, states
from games.kit.game import Marks


@dataclass(frozen=True)
class Rounds:
    """How many worlds each candidate is tried in: ``batch`` at a time, until the loss is
    ``certainty`` standard errors clear of every threshold or ``simulations`` playouts
    (all candidates together, at least one batch each) are spent."""

    batch: int = 200
    simulations: int = 12_000
    certainty: float = 2.5

    def most(self, candidates: int) -> int:
        """The most worlds each of so many candidates is tried in."""
        return max(self.batch, self.simulations // candidates)


# Enough that the same match analysed with another salt gets the same marks almost
# everywhere (bench/analysis.py measures how often they differ), little enough that a
# Cupid match is analysed in about a minute. The playout is half the strong player's: the
# analysis compares candidates, and random play far ahead mostly adds noise.
ROUNDS = Rounds()
PLAYOUT = 20

MARKS = ("inaccuracy", "mistake", "blunder")


@dataclass(frozen=True)
class Judgement:
    """One decision judged. ``seq`` is the match's version after the move (its event's
    number); ``expected`` each seat's expected standing after the move played, in the
    game's unit; ``loss`` what the move played gave up against ``best``."""

    seq: int
    seat: int
    played: Action
    best: Action
    loss: float
    mark: str | None
    expected: tuple[float, ...]

    def as_json(self) -> dict[str, Any]:
        return {
            "seq": self.seq,
            "seat": self.seat,
            "played": self.played,
            "best": self.best,
            "loss": self.loss,
            "mark": self.mark,
            "expected": list(self.expected),
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Judgement:
        """A judgement back from its wire form (``as_json``)."""
        return cls(
            seq=int(data["seq"]),
            seat=int(data["seat"]),
            played=dict(data["played"]),
            best=dict(data["best"]),
            loss=float(data["loss"]),
            mark=data["mark"],
            expected=tuple(float(v) for v in data["expected"]),
        )


def seed_for(match_seed: int | str, seq: int, salt: int) -> str:
    """The seed of the analysis of decision ``seq`` of the match with ``match_seed``."""
    return f"analysis:{match_seed}:{seq}:{salt}"


def judge(
    rules: Rules[Any],
    state: Any,
    seat: int,
    played: Action,
    seq: int,
    seed: str,
    rounds: Rounds = ROUNDS,
    playout: int = PLAYOUT,
) -> Judgement:
    """The decision of ``seat`` in ``state``, which played ``played``, judged (see the
    module's docstring). ``state`` is read only through the sampler and the seat's own
    legal actions."""
    bundle = games.game(rules.name)
    legal = rules.legal_actions(state, seat)
    # A game that lists a representative set of its actions (Royal Wife-Swap's layouts)
    # may have accepted one it did not list: it is a candidate too.
    candidates = legal if played in legal else [*legal, played]
    played_at = candidates.index(played)
    values = _values(rules, state, seat, candidates, played_at, seed, rounds, playout, bundle.marks)
    margins = [_margin(value, seat) for value in values]
    played_expected = tuple(round(v, 2) for v in values[played_at])
    if len(candidates) == 1 or max(margins) - min(margins) <= 1e-9:
        return Judgement(seq, seat, played, played, 0.0, "forced", played_expected)
    best_at = max(range(len(candidates)), key=lambda i: (margins[i], i == played_at))
    loss = max(0.0, margins[best_at] - margins[played_at])
    if round(loss, 2) == 0:  # as good as the best, to the loss's shown precision
        return Judgement(seq, seat, played, played, 0.0, None, played_expected)
    return Judgement(
        seq,
        seat,
        played,
        candidates[best_at],
        round(loss, 2),
        mark_for(loss, bundle.marks),
        played_expected,
    )


def mark_for(loss: float, marks: Marks) -> str | None:
    """The mark a loss earns by the game's thresholds (None: below an inaccuracy)."""
    if loss >= marks.blunder:
        return "blunder"
    if loss >= marks.mistake:
        return "mistake"
    if loss >= marks.inaccuracy:
        return "inaccuracy"
    return None


def move_accuracy(loss: float, marks: Marks) -> float:
    """One decision's accuracy, 0 to 100: halved by every mistake threshold's worth of loss."""
    return float(100.0 * 2.0 ** (-loss / marks.mistake))


def accuracy(judgements: Iterable[Judgement], marks: Marks) -> dict[int, float]:
    """Each judged seat's accuracy: the mean of its unforced decisions' accuracies (100
    when every one of its decisions was forced)."""
    by_seat: dict[int, list[float]] = {}
    for judgement in judgements:
        scores = by_seat.setdefault(judgement.seat, [])
        if judgement.mark != "forced":
            scores.append(move_accuracy(judgement.loss, marks))
    return {
        seat: round(sum(scores) / len(scores), 1) if scores else 100.0
        for seat, scores in sorted(by_seat.items())
    }


def decisions(
    rules: Rules[Any],
    seats: int,
    seed: int | str,
    options: Mapping[str, Any] | None,
    deck: Sequence[str] | None,
    actions: Sequence[tuple[int, Action]],
) -> list[tuple[int, Any, int, Action]]:
    """Every decision of a match as ``(seq, state before it, seat, action played)``."""
    before = states(rules, seats, seed, options, deck, actions)
    return [
        (seq, state, seat, action)
        for seq, (state, (seat, action)) in enumerate(zip(before, actions, strict=False), start=1)
    ]


def analyse_match(
    rules: Rules[Any],
    seats: int,
    seed: int | str,
    options: Mapping[str, Any] | None,
    deck: Sequence[str] | None,
    actions: Sequence[tuple[int, Action]],
    *,
    only: Collection[int] | None = None,
    salt: int = 0,
    rounds: Rounds = ROUNDS,
    playout: int = PLAYOUT,
) -> list[Judgement]:
    """Every decision of a match judged (``only``: just the decisions with these seqs).

    The server judges decision by decision, in its worker pool; this is the same
    analysis in one call, for tests and benchmarks."""
    return [
        judge(rules, state, seat, action, seq, seed_for(seed, seq, salt), rounds, playout)
        for seq, state, seat, action in decisions(rules, seats, seed, options, deck, actions)
        if only is None or seq in only
    ]


def _margin(expected: Sequence[float], seat: int) -> float:
    """The seat's expected standing less the others' average."""
    others = [v for s, v in enumerate(expected) if s != seat]
    return expected[seat] - sum(others) / len(others)


def _values(
    rules: Rules[Any],
    state: Any,
    seat: int,
    candidates: Sequence[Action],
    played_at: int,
    seed: str,
    rounds: Rounds,
    playout: int,
    marks: Marks,
) -> list[list[float]]:
    """Each candidate's expected standing for every seat.

    Each round deals one world from the seat's information and plays every candidate in
    it, each followed by the same random numbers. Rounds come in batches, until the loss of
    the move played is clear of every mark's threshold by ``Rounds.certainty`` standard
    errors, or the most rounds are spent: a clear decision is settled soon, one near a
    threshold gets the whole budget."""
    knowledge = games.game(rules.name).sampler
    seats = len(knowledge.standing(state))
    totals = [[0.0] * seats for _ in candidates]
    margins: list[list[float]] = [[] for _ in candidates]
    dealer = random.Random(f"{seed}:worlds")
    most = rounds.most(len(candidates))
    done = 0
    while done < most:
        for number in range(done, min(done + rounds.batch, most)):
            world = knowledge.sample(state, seat, dealer)
            for total, margin, action in zip(totals, margins, candidates, strict=True):
                after = rules.apply(world, seat, action)
                after = random_playout(rules, after, random.Random(f"{seed}:{number}"), playout)
                standing = knowledge.standing(after)
                for s, value in enumerate(standing):
                    total[s] += value
                margin.append(_margin(standing, seat))
            done = number + 1
        if len(candidates) == 1 or _settled(margins, played_at, marks, rounds.certainty):
            break
    return [[value / done for value in total] for total in totals]


def _settled(margins: list[list[float]], played_at: int, marks: Marks, certainty: float) -> bool:
    """Whether the loss of the move played is clear of every threshold: farther from each
    than ``certainty`` standard errors of the paired difference with the best candidate."""
    means = [math.fsum(m) / len(m) for m in margins]
    best = max(range(len(means)), key=means.__getitem__)
    if best == played_at:
        runner_up = max((i for i in range(len(means)) if i != played_at), key=means.__getitem__)
        differences = [a - b for a, b in zip(margins[runner_up], margins[played_at], strict=True)]
    else:
        differences = [a - b for a, b in zip(margins[best], margins[played_at], strict=True)]
    count = len(differences)
    if count < 2:
        return False
    mean = math.fsum(differences) / count
    spread = math.fsum((d - mean) ** 2 for d in differences) / (count - 1)
    loss = max(0.0, mean)
    error = math.sqrt(spread / count)
    thresholds = (marks.inaccuracy, marks.mistake, marks.blunder)
    return all(abs(loss - threshold) > certainty * error for threshold in thresholds)


__all__ = [
    "MARKS",
    "Judgement",
    "Rounds",
    "accuracy",
    "analyse_match",
    "decisions",
    "judge",
    "mark_for",
    "move_accuracy",
    "seed_for",
]
