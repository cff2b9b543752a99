"""Computer-player benchmark: how the levels fare against each other, and how long they think.

For every game and seat count, seeded matches of one player of the level under test (it
changes seat from match to match) against the others, all of one opposing kind: strong
against heuristic and against random, normal against heuristic. Two-player tables report
the share of matches won (a shared win counts half), with a 95 % Wilson interval; larger
tables the mean placing of the player under test (1 is first; ties share the better place)
with a 95 % interval, beside the placing an equal player would average. Every decision of
the searching levels is timed — mean and 99th percentile — with the wall-time limits the
server gives them (app/rooms/thinking.py).

Matches run in a process pool, one worker per core (``--workers``). Full matches of these
games are long, so the default tables are shortened (``SHORT``: a lower target, one hand or
round; ``--full`` plays them at the games' defaults), and a match still going after
``--max-actions`` actions is judged by the scores at that point (the table says how many
were). Records the run as a new file in bench/results/ (``<date>-<time>-bots.md``) unless
``--no-write``.

    python -m bench.bots [--matches 200] [--only cupid,usurp] [--full] [--max-actions 400]
                         [--workers N] [--no-write]
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import games
from app.rooms.thinking import THINKING_SECONDS, machine_workers
from bench import machine
from games.bots import SEARCHING, choose
from games.kit.base import top_scorers

# (game, seats) tables, every seat count of every game.
TABLES: list[tuple[str, int]] = [
    (bundle.name, seats)
    for bundle in games.GAMES
    for seats in range(bundle.rules.min_seats, bundle.rules.max_seats + 1)
]
# (level under test, opposing kind).
PAIRINGS: list[tuple[str, str]] = [
    ("strong", "heuristic"),
    ("strong", "random"),
    ("normal", "heuristic"),
]
# Shortened matches: a lower target, or a single hand or round (each game's own).
SHORT: dict[str, dict[str, Any]] = {bundle.name: dict(bundle.short_match) for bundle in games.GAMES}
Z = 1.959964  # the 97.5th percentile of the normal distribution


@dataclass(frozen=True)
class Outcome:
    """One match: the place of the player under test, whether it won, its decision times,
    and whether it was cut short (judged by the scores after ``max_actions``)."""

    place: float
    won: float
    seconds: list[float]
    cut: bool


def play(
    game: str,
    seats: int,
    options: dict[str, Any],
    level: str,
    rival: str,
    i: int,
    max_actions: int,
) -> Outcome:
    """Match ``i``: ``level`` in seat ``i % seats``, ``rival`` in the others."""
    rules = games.get(game)
    subject = i % seats
    state = rules.new_game(seats, f"bench:{i}", options)
    seconds: list[float] = []
    chooser = random.Random(i)
    for step in range(max_actions):
        awaited = rules.to_act(state)
        if not awaited:
            break
        seat = chooser.choice(awaited)
        kind = level if seat == subject else rival
        seed = f"bench:{i}:{step}:{seat}"
        if kind in SEARCHING:
            deadline = time.monotonic() + THINKING_SECONDS[kind]
            started = time.perf_counter()
            action = choose(
                rules, state, seat, seed, kind, out_of_time=lambda d=deadline: time.monotonic() >= d
            )
            if seat == subject:
                seconds.append(time.perf_counter() - started)
        else:
            action = choose(rules, state, seat, seed, kind)
        state = rules.apply(state, seat, action)
    cut = not rules.is_over(state)
    if cut:
        winners = set(top_scorers(rules.scores(state), lowest=rules.lower_scores_win))
    else:
        winners = set(rules.winners(state))
    sign = -1 if rules.lower_scores_win else 1
    scores = [sign * s for s in rules.scores(state)]

    def ahead(a: int, b: int) -> bool:
        if (a in winners) != (b in winners):
            return a in winners
        return scores[a] > scores[b]

    others = [s for s in range(seats) if s != subject]
    better = sum(1 for s in others if ahead(s, subject))
    won = 0.0 if subject not in winners else 1.0 / len(winners)
    return Outcome(1.0 + better, won, seconds, cut)


def wilson(successes: float, n: int) -> tuple[float, float]:
    """The 95 % Wilson score interval of a proportion."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + Z * Z / (2 * n)) / (1 + Z * Z / n)
    half = Z * math.sqrt(p * (1 - p) / n + Z * Z / (4 * n * n)) / (1 + Z * Z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """The mean with a 95 % normal-approximation interval."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, mean, mean
    half = Z * statistics.stdev(values) / math.sqrt(len(values))
    return mean, mean - half, mean + half


def p99(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.99 * len(ordered)) - 1)]


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    parser = argparse.ArgumentParser(
        prog="python -m bench.bots",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--matches", type=int, default=200, help="matches per table and pairing")
    parser.add_argument("--only", help="only these games, comma-separated (still recorded)")
    parser.add_argument(
        "--max-actions", type=int, default=400, help="judge a match by its scores after this"
    )
    parser.add_argument("--full", action="store_true", help="full-length matches (no SHORT)")
    parser.add_argument("--workers", type=int, default=0, help="processes (default: one per core)")
    parser.add_argument(
        "--results-dir", type=Path, default=machine.RESULTS, help="where to record the run"
    )
    parser.add_argument("--no-write", action="store_true", help="print only; record nothing")
    args = parser.parse_args(argv)

    when = machine.now()
    workers = args.workers or machine_workers()
    print(f"Computer-player benchmark — {machine.describe(when)}; {workers} worker processes")
    only = set(args.only.split(",")) if args.only else None
    tables = [t for t in TABLES if only is None or t[0] in only]
    rows = [
        "| game | seats | level vs others | matches (cut short) | won (95 % CI) "
        "| mean place (95 % CI) | an equal player's place |",
        "|---|---:|---|---:|---|---|---:|",
    ]
    times: dict[str, list[float]] = {level: [] for level in SEARCHING}
    started = time.perf_counter()
    with ProcessPoolExecutor(workers) as pool:
        jobs = {
            (game, seats, level, rival): [
                pool.submit(
                    play,
                    game,
                    seats,
                    {} if args.full else SHORT[game],
                    level,
                    rival,
                    i,
                    args.max_actions,
                )
                for i in range(args.matches)
            ]
            for game, seats in tables
            for level, rival in PAIRINGS
        }
        for (game, seats, level, rival), futures in jobs.items():
            outcomes = [f.result() for f in futures]
            for outcome in outcomes:
                times[level].extend(outcome.seconds)
            n = len(outcomes)
            won = sum(o.won for o in outcomes)
            low, high = wilson(won, n)
            place, place_low, place_high = mean_interval([o.place for o in outcomes])
            row = (
                f"| {games.get(game).title} | {seats} | {level} vs {rival} "
                f"| {n} ({sum(o.cut for o in outcomes)}) "
                f"| {won / n:.0%} ({low:.0%} to {high:.0%}) "
                f"| {place:.2f} ({place_low:.2f} to {place_high:.2f}) | {(seats + 1) / 2:.1f} |"
            )
            rows.append(row)
            print(row, flush=True)
    elapsed = time.perf_counter() - started
    timing = [
        "| level | decisions timed | mean | p99 | wall-time limit |",
        "|---|---:|---:|---:|---:|",
    ]
    for level in sorted(times):
        values = times[level]
        if values:
            timing.append(
                f"| {level} | {len(values):,} | {statistics.fmean(values):.3f} s "
                f"| {p99(values):.3f} s | {THINKING_SECONDS[level]} s |"
            )
    print(*timing, sep="\n")
    print(f"{elapsed:.0f} s in all")
    if not args.no_write:
        lines = [
            f"# Computer-player benchmark, {machine.stamp(when)}, commit {machine.commit()}",
            "",
            f"Command: `{machine.command_line('bench.bots', argv)}`.",
            "",
            f"Measured {machine.describe(when)}, {workers} worker processes, {elapsed:.0f} s.",
            "Matches: "
            + ("full length" if args.full else f"shortened ({SHORT})")
            + f", judged by the scores after {args.max_actions} actions if still going.",
            "",
            *rows,
            "",
            "Time per decision of the level under test:",
            "",
            *timing,
        ]
        path = machine.write_result(args.results_dir, when, "bots", lines)
        print(f"recorded in {machine.shown(path)}")


if __name__ == "__main__":
    main()
