"""Parlour beside boardgame.io 0.50.2: the same game, the same generator, one run, one machine.

``python -m bench.versus`` plays Cupid to the end of each match, a fresh room and fresh
sockets per match, on three servers in turn: boardgame.io's own server (bench/bgio/:
Cupid written as a boardgame.io game, koa + socket.io, in-memory storage, so it stores
nothing), Parlour on SQLite and Parlour on PostgreSQL (every move committed before it is
acknowledged). Each is driven saturated (every seat acts the moment it may; Parlour's
per-connection rate limit raised) and paced (every seat acts every ``--pace`` seconds when
it may), by the load benchmark's generator, drive and measures (bench/load/): moves a
second, latency from sending a move to the last seat of its room seeing a state at least
that new (p50, p99), and the server process's CPU per move. Then one table: every figure
beside boardgame.io's, with how much of a core the server and the other processes used and
the machine's load average over each run (the machine may be shared).

On a shared machine the same run minutes apart has differed by half, so ``--rounds N`` runs
the contenders of each mode in turn N times: each ratio is taken between runs of one round,
minutes apart at most, and a second table gives every contender's median over the rounds,
its ratios the medians of the rounds' own.

boardgame.io is installed by ``npm ci`` from bench/bgio/package-lock.json into
bench/bgio/node_modules (git-ignored) on first use. The run is recorded in bench/results/
(``<date>-<time>-versus.md``) unless ``--no-write``.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from statistics import median

from bench.load.bgio import bgio
from bench.load.drive import Result, drive
from bench.load.generator import ProtocolFactory
from bench.load.measure import machine
from bench.load.protocols import parlour
from bench.load.report import format_result
from bench.load.runs import game_tables
from bench.load.servers import (
    BGIO_VERSION,
    RATE_LIMIT_RAISED,
    SATURATED_RATE,
    Launcher,
    Server,
    raise_fd_limit,
    stopped_after,
)
from bench.machine import RESULTS, command_line, commit, node_bin, now, shown, stamp, write_result

GAME = "cupid"
BGIO = f"boardgame.io {BGIO_VERSION}, in memory"
DEFAULT_DATABASE = os.environ.get(
    "BENCH_DATABASE_URL", "postgresql+psycopg://postgres@127.0.0.1:5432/bench"
)


@dataclass
class Contender:
    """One server the run compares: how it is started, and what its seats say."""

    label: str
    start: Callable[[str, bool], list[Server]]  # (run, saturated?) -> its started servers
    protocol: ProtocolFactory


@dataclass
class Measured:
    """One contender's run and the machine's 1-minute load average before and after it."""

    result: Result
    load: tuple[float, float]
    round: int = 1


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(
        prog="python -m bench.versus", description=(__doc__ or "").split("\n")[0]
    )
    p.add_argument(
        "--modes", default="saturated,paced", help="comma list of saturated, paced (both)"
    )
    p.add_argument(
        "--servers",
        default="bgio,sqlite,postgresql",
        help="comma list of bgio, sqlite, postgresql (all three)",
    )
    p.add_argument(
        "--database-url",
        default=DEFAULT_DATABASE,
        help="Parlour's PostgreSQL (default: BENCH_DATABASE_URL, else the local 'bench')",
    )
    p.add_argument(
        "--reset-postgres",
        action="store_true",
        help="drop and recreate schema public of --database-url first (not database 'test')",
    )
    p.add_argument("--target", type=int, help="match target points (default: Cupid's 121)")
    p.add_argument("--rooms", type=int, default=100, help="rooms in saturated runs (100)")
    p.add_argument("--paced-rooms", type=int, default=500, help="rooms in paced runs (500)")
    p.add_argument("--pace", type=float, default=2.0, help="paced: seconds between acts (2)")
    p.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="run each mode's servers in turn this many times; medians of the rounds (1)",
    )
    p.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring (5)")
    p.add_argument("--duration", type=float, default=20.0, help="saturated seconds (20)")
    p.add_argument("--paced-duration", type=float, default=60.0, help="paced seconds (60)")
    p.add_argument(
        "--quiet-wait",
        type=float,
        default=0.0,
        help="before measuring, wait up to this many s for other processes to go quiet",
    )
    p.add_argument("--node", default=str(node_bin()), help="the Node.js binary for boardgame.io")
    p.add_argument("--results-dir", type=Path, default=RESULTS, help="default: bench/results")
    p.add_argument("--no-write", action="store_true", help="print only; record nothing")
    p.add_argument("--note", default="", help="a line to add to the recorded run")
    return p.parse_args(argv)


def contenders(args: argparse.Namespace, workdir: Path) -> list[Contender]:
    """The servers ``--servers`` names, in the order given."""
    sqlite = Launcher(workdir)
    postgres = Launcher(workdir, database_url=args.database_url, reset_postgres=args.reset_postgres)
    options = {"target": args.target} if args.target else {}
    real = parlour({GAME: options})

    def parlour_on(launcher: Launcher) -> Callable[[str, bool], list[Server]]:
        def start(run: str, saturated: bool) -> list[Server]:
            return launcher.parlour(run, env=RATE_LIMIT_RAISED if saturated else None)

        return start

    known = {
        "bgio": Contender(BGIO, lambda run, saturated: sqlite.bgio(args.node), bgio(options)),
        "sqlite": Contender("Parlour on SQLite", parlour_on(sqlite), real),
        "postgresql": Contender("Parlour on PostgreSQL", parlour_on(postgres), real),
    }
    names = [n.strip() for n in args.servers.split(",") if n.strip()]
    unknown = [n for n in names if n not in known]
    if unknown:
        raise SystemExit(f"--servers: unknown {', '.join(unknown)} (bgio, sqlite, postgresql)")
    return [known[name] for name in names]


async def measure(
    args: argparse.Namespace, contender: Contender, saturated: bool, round_: int = 1
) -> Measured:
    """One contender, saturated or paced, in round ``round_``; its server stopped after."""
    run = "saturated" if saturated else "paced"
    load0 = os.getloadavg()[0]
    with stopped_after(contender.start(run, saturated)) as servers:
        result = await drive(
            servers,
            label=contender.label,
            protocol=contender.protocol,
            tables=game_tables([GAME], args.rooms if saturated else args.paced_rooms),
            pace=None if saturated else args.pace,
            warmup=args.warmup,
            duration=args.duration if saturated else args.paced_duration,
            quiet_wait=args.quiet_wait,
        )
    return Measured(result, (load0, os.getloadavg()[0]), round_)


def times(value: float, base: float) -> str:
    """``value`` as a multiple of ``base``."""
    return f"{value / base:.2f}x" if base and base == base else "—"


def baselines(measured: list[Measured]) -> dict[tuple[str, int], Result]:
    """boardgame.io's run of each mode and round, which the others of it are set beside."""
    return {(m.result.mode, m.round): m.result for m in measured if m.result.label == BGIO}


def comparison(measured: list[Measured]) -> list[str]:
    """The Markdown table: each run beside boardgame.io's run of the same mode and round."""
    base = baselines(measured)
    rounds = max((m.round for m in measured), default=1) > 1
    out = [
        ("| round " if rounds else "")
        + "| run | mode | rooms | moves/s | x bgio | p50 ms | p99 ms | p99 x bgio |"
        " server µs CPU/move | x bgio | server CPU | other CPU | errors | load avg |",
        ("|--:" if rounds else "") + "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for m in measured:
        r, b = m.result, base.get((m.result.mode, m.round))
        out.append(
            (f"| {m.round} " if rounds else "")
            + f"| {r.label} | {r.mode} | {r.rooms} | {r.actions_per_s:,.0f} |"
            f" {times(r.actions_per_s, b.actions_per_s) if b else '—'} | {r.p50_ms:.2f} |"
            f" {r.p99_ms:.2f} | {times(r.p99_ms, b.p99_ms) if b else '—'} |"
            f" {r.server_cpu_us_per_action:.0f} |"
            f" {times(r.server_cpu_us_per_action, b.server_cpu_us_per_action) if b else '—'} |"
            f" {r.server_cpu_pct:.0f}% | {max(0.0, r.other_cpu_pct):.0f}% |"
            f" {r.error_count} | {m.load[0]:.2f} → {m.load[1]:.2f} |"
        )
    return out


def median_ratio(paired: list[tuple[Result, Result]], figure: Callable[[Result], float]) -> str:
    """The median over rounds of a run's ``figure`` divided by boardgame.io's of its round."""
    ratios = [figure(r) / figure(b) for r, b in paired if figure(b)]
    return f"{median(ratios):.2f}x" if ratios else "—"


def medians(measured: list[Measured]) -> list[str]:
    """The Markdown table of several rounds: each contender's median figures over them, and
    the median of its ratios to boardgame.io's run of the same round."""
    base = baselines(measured)
    runs: dict[tuple[str, str], list[Measured]] = {}
    for m in measured:
        runs.setdefault((m.result.mode, m.result.label), []).append(m)
    out = [
        "| run | mode | rounds | moves/s | x bgio | p99 ms | p99 x bgio |"
        " server µs CPU/move | x bgio | errors |",
        "|---|---|--:|--:|--:|--:|--:|--:|--:|--:|",
    ]
    for (mode, label), each in runs.items():
        results = [m.result for m in each]
        paired = [(m.result, base[(mode, m.round)]) for m in each if (mode, m.round) in base]
        out.append(
            f"| {label} | {mode} | {len(each)} |"
            f" {median(r.actions_per_s for r in results):,.0f} |"
            f" {median_ratio(paired, lambda r: r.actions_per_s)} |"
            f" {median(r.p99_ms for r in results):.2f} |"
            f" {median_ratio(paired, lambda r: r.p99_ms)} |"
            f" {median(r.server_cpu_us_per_action for r in results):.0f} |"
            f" {median_ratio(paired, lambda r: r.server_cpu_us_per_action)} |"
            f" {sum(r.error_count for r in results)} |"
        )
    return out


def tables(measured: list[Measured]) -> list[str]:
    """Every run beside boardgame.io's; with several rounds, their medians after."""
    out = comparison(measured)
    if max((m.round for m in measured), default=1) > 1:
        out += ["", *medians(measured)]
    return out


def node_version(node: str) -> str:
    try:
        out = subprocess.run([node, "--version"], capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return out.stdout.strip()


def entry(
    args: argparse.Namespace, command: str, when: datetime, measured: list[Measured]
) -> list[str]:
    """The recorded run: the command, the machine, every figure and the table."""
    out = [
        f"# Beside boardgame.io {BGIO_VERSION}, {stamp(when)} — commit {commit()}",
        "",
        f"Command: `{command}`.",
        "",
        f"Machine: {machine()}; Node.js {node_version(args.node)}. Game: Cupid to"
        f" {args.target or 121} points. Warm-up {args.warmup:g} s. Saturated runs raise"
        f" Parlour's per-connection rate limit to {SATURATED_RATE} a second. How the"
        " benchmark works: bench/README.md.",
    ]
    if args.note:
        out += ["", args.note]
    out += ["", *tables(measured), "", "```"]
    for m in measured:
        out += format_result(m.result)
    return [*out, "```"]


async def main(args: argparse.Namespace, command: str) -> int:
    workdir = Path(tempfile.mkdtemp(prefix="parlour-versus-"))
    raise_fd_limit()
    when = now()
    print(f"bench.versus: {stamp(when)}; {machine()}; commit {commit()}", flush=True)
    modes = [m.strip() for m in args.modes.split(",") if m.strip()]
    if set(modes) - {"saturated", "paced"}:
        raise SystemExit("--modes: saturated, paced")
    if args.rounds < 1:
        raise SystemExit("--rounds: 1 or more")
    measured: list[Measured] = []
    try:
        for mode in modes:
            for round_ in range(1, args.rounds + 1):
                for contender in contenders(args, workdir):
                    m = await measure(args, contender, mode == "saturated", round_)
                    measured.append(m)
                    lines = format_result(m.result)
                    if args.rounds > 1:
                        lines.append(f"  round                {round_} of {args.rounds}")
                    lines.append(f"  load average         {m.load[0]:.2f} -> {m.load[1]:.2f}")
                    print("\n".join(lines), flush=True)
    except BaseException:
        print(f"server logs and databases kept in {workdir}", flush=True)
        raise
    print("\n".join(["", *tables(measured)]), flush=True)
    if not args.no_write and measured:
        path = write_result(args.results_dir, when, "versus", entry(args, command, when, measured))
        print(f"recorded in {shown(path)}")
    errors = sum(m.result.error_count for m in measured)
    if errors:
        print(f"server logs and databases kept in {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    return 1 if errors else 0


def cli(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    command = command_line("bench.versus", argv)
    try:
        import uvloop
    except ImportError:  # the generator keeps up far worse on the default event loop
        return asyncio.run(main(args, command))
    return uvloop.run(main(args, command))


if __name__ == "__main__":
    sys.exit(cli())
