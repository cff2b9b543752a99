"""The load benchmark's command line: ``python -m bench.load [--runs ...]`` makes the runs,
prints their figures and records them under bench/results/."""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

import bench.load
from bench.load.measure import machine
from bench.load.report import result_entry
from bench.load.runs import Runs
from bench.load.servers import APP, WS_IMPL, Launcher, raise_fd_limit
from bench.machine import RESULTS, command_line, commit, now, shown, stamp, write_result

# The package docstring's first line: what the benchmark measures.
DESCRIPTION = (bench.load.__doc__ or "").split("\n")[0]


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.load", description=DESCRIPTION)
    p.add_argument(
        "--runs",
        default="saturated,baseline,paced,idle",
        help="comma list of saturated, baseline, sharing, paced, paced-baseline, crowd, idle,"
        " profile, stalls, restart, memory (default: saturated,baseline,paced,idle)",
    )
    p.add_argument("--database-url", help="server database (default: fresh SQLite file)")
    p.add_argument(
        "--reset-postgres",
        action="store_true",
        help="drop and recreate schema public of --database-url first (not database 'test')",
    )
    p.add_argument(
        "--processes",
        type=int,
        default=1,
        help="server processes sharing the rooms (saturated, sharing and paced runs; needs Redis)",
    )
    p.add_argument(
        "--seats",
        choices=("split", "referee"),
        default="split",
        help="with --processes > 1, where a room's seats connect: split, one on each process,"
        " so that every move crosses between them (the default); or referee, all on the"
        " process that opened the room and referees it, where the proxy sends them",
    )
    p.add_argument(
        "--redis-url",
        default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0"),
        help="Redis for --processes > 1 (default: REDIS_URL, else the local one)",
    )
    p.add_argument(
        "--games", default="cupid", help="comma list of games, each at its fewest seats (cupid)"
    )
    p.add_argument(
        "--target",
        type=int,
        help="match target points (default: the game's own; fewer for shorter matches)",
    )
    p.add_argument("--rooms", type=int, default=100, help="rooms in saturated runs (100)")
    p.add_argument("--paced-rooms", type=int, default=500, help="rooms in the paced run (500)")
    p.add_argument("--pace", type=float, default=2.0, help="paced: seconds between acts (2)")
    p.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring (5)")
    p.add_argument("--duration", type=float, default=20.0, help="saturated seconds (20)")
    p.add_argument("--paced-duration", type=float, default=60.0, help="paced seconds (60)")
    p.add_argument("--idle", type=int, default=2000, help="idle connections (2000)")
    p.add_argument(
        "--crowd-rooms", type=int, default=5000, help="rooms in the crowd run, one process (5000)"
    )
    p.add_argument(
        "--crowd-pace", type=float, default=10.0, help="crowd: seconds between acts (10)"
    )
    p.add_argument(
        "--settle",
        type=float,
        default=10.0,
        help="restart run: seconds a restarted process serves before the next stops (10)",
    )
    p.add_argument(
        "--sharing-rounds",
        type=int,
        default=3,
        help="sharing run: rounds of one process then --processes, each saturated (3)",
    )
    p.add_argument("--profile-duration", type=float, default=15.0, help="profiled seconds (15)")
    p.add_argument(
        "--profile-paced",
        action="store_true",
        help="profile the paced load (--paced-rooms, --pace) instead of the saturated one",
    )
    p.add_argument("--sample-every", type=float, default=5.0, help="RSS sample period (5 s)")
    p.add_argument(
        "--app",
        default=APP,
        help="server app factory (default app.main:create_app; set PYTHONPATH for others)",
    )
    p.add_argument(
        "--ws", default=WS_IMPL, help="uvicorn --ws for both servers (default: as `make run`)"
    )
    p.add_argument(
        "--quiet-wait",
        type=float,
        default=0.0,
        help="before measuring, wait up to this many s for other processes to go quiet",
    )
    p.add_argument(
        "--results-dir",
        type=Path,
        default=RESULTS,
        help="where to record the run (default: bench/results)",
    )
    p.add_argument("--no-write", action="store_true", help="print only; record nothing")
    p.add_argument("--note", default="", help="a line to add to the recorded run")
    return p.parse_args(argv)


async def main(args: argparse.Namespace, command: str) -> int:
    """Make the runs ``args`` asks for, record them; 1 if any had errors."""
    workdir = Path(tempfile.mkdtemp(prefix="parlour-bench-"))
    raise_fd_limit()
    launcher = Launcher(
        workdir,
        database_url=str(args.database_url) if args.database_url else None,
        reset_postgres=args.reset_postgres,
        processes=args.processes,
        redis_url=args.redis_url,
        app=args.app,
        ws=args.ws,
    )
    runs = Runs(args, launcher)
    when = now()
    print(
        f"bench.load: {stamp(when)}; {machine()}; commit {commit()}; workdir {workdir}",
        flush=True,
    )
    try:
        await runs.run([r.strip() for r in args.runs.split(",") if r.strip()])
    except BaseException:
        print(f"server logs and databases kept in {workdir}", flush=True)
        raise

    if not args.no_write and runs.shown:
        db_label = launcher.database_label
        entry = result_entry(
            args,
            command,
            when,
            db_label,
            runs.results,
            runs.saturated_result,
            runs.baseline_result,
            runs.idles,
            runs.sharing_lines
            + runs.profile_lines
            + runs.stall_lines
            + runs.restart_lines
            + runs.memory_lines,
        )
        kind = "load-" + (re.sub(r"[^a-z0-9]+", "-", db_label.lower()).strip("-") or "db")
        path = write_result(args.results_dir, when, kind, entry)
        print(f"recorded in {shown(path)}")
    bad = runs.error_count
    if bad or runs.profile_lines:
        # Worth a look: the server logs after errors, the raw stacks of a profile.
        print(f"server logs and databases kept in {workdir}")
    else:
        shutil.rmtree(workdir, ignore_errors=True)
    return 1 if bad else 0


def cli(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = parse_args(argv)
    command = command_line("bench.load", argv)
    try:
        import uvloop
    except ImportError:  # the generator keeps up far worse on the default event loop
        return asyncio.run(main(args, command))
    return uvloop.run(main(args, command))
