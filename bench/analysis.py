"""Analysis benchmark: how long the computer's analysis of a match takes, per game, and how
stable its marks are.

For every game, seeded matches at the fewest seats: seat 0 is "the person" (the easy
computer player, which makes real mistakes), every other seat the ``--rival`` level (strong
by default). Seat 0's decisions are analysed as the server analyses a person's
(games.bots.analysis, the server's budget), in one process: the server gives the analysis
one worker at a time on a two-core machine (app/rooms/thinking.py). Then the same decisions
are analysed again with another salt (other worlds, other random play): the share of
decisions whose mark differs is the instability of the marks. Printed per game: matches,
decisions analysed per match, seconds per match (wall and CPU: on a shared machine the
CPU time is the steadier figure), marks given, and the share of marks that differ.
Records the run in bench/results/ (``<date>-<time>-analysis.md``) unless ``--no-write``.

    python -m bench.analysis [--matches 1] [--only cupid,usurp] [--full] [--rival strong]
                             [--no-write]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import games
from bench import machine
from games.bots import KINDS, choose
from games.bots.analysis import ROUNDS, accuracy, analyse_match

# A match still going after this many actions is analysed as far as it went.
MAX_ACTIONS = 2_000


@dataclass(frozen=True)
class Run:
    """One match analysed twice: decisions, seconds of the first analysis (wall and CPU),
    its marks, how many marks the second analysis changed, and seat 0's accuracy."""

    decisions: int
    seconds: float
    cpu: float
    marks: Counter[str]
    differ: int
    accuracy: float


def run(game: str, options: dict[str, Any], rival: str, seed: int) -> Run:
    """Match ``seed`` of ``game``: played, then seat 0's decisions analysed twice."""
    rules = games.get(game)
    seats = rules.min_seats
    state = rules.new_game(seats, seed, options)
    log: list[tuple[int, dict[str, Any]]] = []
    while not rules.is_over(state) and len(log) < MAX_ACTIONS:
        seat = rules.to_act(state)[0]
        kind = "heuristic" if seat == 0 else rival
        action = choose(rules, state, seat, f"bench:{seed}:{len(log)}", kind)
        log.append((seat, action))
        state = rules.apply(state, seat, action)
    person = {seq for seq, (seat, _) in enumerate(log, start=1) if seat == 0}
    started, cpu = time.perf_counter(), time.process_time()
    first = analyse_match(rules, seats, seed, options, None, log, only=person)
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    second = analyse_match(rules, seats, seed, options, None, log, only=person, salt=1)
    differ = sum(a.mark != b.mark for a, b in zip(first, second, strict=True))
    marks = Counter(j.mark or "none" for j in first)
    figure = accuracy(first, games.game(game).marks).get(0, 100.0)
    return Run(len(first), seconds, cpu, marks, differ, figure)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=1, help="matches per game")
    parser.add_argument("--only", default="", help="comma-separated games (default: all)")
    parser.add_argument("--full", action="store_true", help="the games' default options")
    parser.add_argument("--rival", default="strong", choices=KINDS, help="the other seats")
    parser.add_argument(
        "--results-dir", type=Path, default=machine.RESULTS, help="where to record the run"
    )
    parser.add_argument("--no-write", action="store_true", help="print only; record nothing")
    argv = sys.argv[1:] if argv is None else argv
    args = parser.parse_args(argv)
    chosen = [name for name in args.only.split(",") if name] or sorted(games.REGISTRY)
    when = machine.now()
    print(f"Analysis benchmark — {machine.describe(when)}; budget {ROUNDS}")
    header = [
        "| game | matches | decisions per match | seconds per match (mean, most) "
        "| CPU seconds per match (mean, most) | CPU seconds per decision "
        "| marks (first analysis) | marks that differ | accuracy |",
        "|---|---:|---:|---:|---:|---:|---|---:|---:|",
    ]
    print(*header, sep="\n")
    rows = []
    started = time.perf_counter()
    for game in chosen:
        options = {} if args.full else dict(games.game(game).short_match)
        runs = [run(game, options, args.rival, seed) for seed in range(1, args.matches + 1)]
        decisions = sum(r.decisions for r in runs)
        seconds = [r.seconds for r in runs]
        cpu = [r.cpu for r in runs]
        marks: Counter[str] = sum((r.marks for r in runs), Counter())
        differ = sum(r.differ for r in runs)
        row = (
            f"| {games.get(game).title} | {len(runs)} | {decisions / len(runs):.0f} "
            f"| {statistics.fmean(seconds):.1f} s, {max(seconds):.1f} s "
            f"| {statistics.fmean(cpu):.1f} s, {max(cpu):.1f} s "
            f"| {sum(cpu) / max(decisions, 1):.2f} s "
            f"| {', '.join(f'{k} {v}' for k, v in sorted(marks.items()))} "
            f"| {differ / max(decisions, 1):.1%} ({differ} of {decisions}) "
            f"| {statistics.fmean(r.accuracy for r in runs):.1f} |"
        )
        rows.append(row)
        print(row, flush=True)
    elapsed = time.perf_counter() - started
    print(f"{elapsed:.0f} s in all")
    if not args.no_write:
        lines = [
            f"# Analysis benchmark, {machine.stamp(when)}, commit {machine.commit()}",
            "",
            f"Command: `{machine.command_line('bench.analysis', argv)}`.",
            "",
            f"Measured {machine.describe(when)}, one process, {elapsed:.0f} s. Budget: {ROUNDS}.",
            "Matches: "
            + ("full length" if args.full else "shortened (each game's short_match)")
            + f"; seat 0 the easy computer, the others {args.rival}.",
            "",
            *header,
            *rows,
        ]
        path = machine.write_result(args.results_dir, when, "analysis", lines)
        print(f"recorded in {machine.shown(path)}")


if __name__ == "__main__":
    main()
