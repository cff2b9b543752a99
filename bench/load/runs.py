"""The runs a load benchmark can make, in the order it makes them: saturated, the echo
baseline, saturated on one process and on several in turn, paced, the echo baseline paced,
paced under the stall probe, paced with the processes restarted in turn, the crowd under
the memory probe, idle connections and a profiled saturated run. Each is shown as it ends
and kept for the record."""

from __future__ import annotations

import argparse
import asyncio
from itertools import cycle, islice
from typing import Any

import httpx

import games
from bench.load.drive import IdleResult, Result, drive, measure_idle
from bench.load.generator import ProtocolFactory
from bench.load.profiling import start_profiler, summarise_profile, wait_for_profiler
from bench.load.protocols import echo, parlour
from bench.load.report import (
    format_idle,
    format_memory,
    format_result,
    format_sharing,
    speed_ratio,
)
from bench.load.restarts import RestartResult, drive_restarts, format_restarts
from bench.load.servers import RATE_LIMIT_RAISED, Launcher, Server, stopped_after
from bench.load.stalls import STALL_MS, stall_report
from bench.memory_probe import PREFIX as MEMORY_PROBE


def game_tables(names: list[str], rooms: int) -> list[tuple[str, int]]:
    """``rooms`` tables, (game, seats), taking the games in turn, each at its fewest seats."""
    return [(name, games.get(name).min_seats) for name in islice(cycle(names), rooms)]


async def window_opened(run: asyncio.Future[Result], measuring: asyncio.Event) -> None:
    """Return once ``run`` (a ``drive`` given ``measuring``) opens its measured window;
    raise its error if it failed before."""
    opened = asyncio.ensure_future(measuring.wait())
    await asyncio.wait([run, opened], return_when=asyncio.FIRST_COMPLETED)
    opened.cancel()
    if run.done():
        await run  # its error (a run that ended well opened its window first)


class Runs:
    """One benchmark invocation's runs and everything they showed."""

    def __init__(self, args: argparse.Namespace, launcher: Launcher) -> None:
        self.args = args
        self.launcher = launcher
        self.games = [g.strip() for g in args.games.split(",") if g.strip()]
        options: dict[str, dict[str, Any]] = {}
        if args.target:
            options = {g: {"target": args.target} for g in self.games}
        self.parlour = parlour(options)
        self.results: list[Result] = []
        self.idles: list[IdleResult] = []
        self.saturated_result: Result | None = None  # the real server's, for the baseline
        self.baseline_result: Result | None = None
        self.profile_lines: list[str] = []
        self.stall_lines: list[str] = []
        self.memory_lines: list[str] = []
        self.restart_result: RestartResult | None = None
        self.restart_lines: list[str] = []
        self.sharing_lines: list[str] = []
        self.shown: list[str] = []

    @property
    def error_count(self) -> int:
        restarts = self.restart_result.error_count if self.restart_result else 0
        return (
            sum(r.error_count for r in self.results)
            + sum(sum(i.errors.values()) for i in self.idles)
            + restarts
        )

    def show(self, lines: list[str]) -> None:
        print("\n".join(lines), flush=True)
        self.shown.extend(lines)

    async def run(self, names: list[str]) -> None:
        """Make the runs named (in this order, whatever order they were named in)."""
        if "saturated" in names:
            await self.saturated()
        if "baseline" in names:
            await self.baseline()
        if self.saturated_result and self.baseline_result:
            ratio = speed_ratio(self.saturated_result, self.baseline_result)
            self.show([f"ratio actions/s / baseline round trips/s = {ratio:.2f} (target >= 0.5)"])
        if "sharing" in names:
            await self.sharing()
        if "paced" in names:
            await self.paced()
        if "paced-baseline" in names:
            await self.paced_baseline()
        if "crowd" in names:
            await self.crowd()
        if "stalls" in names:
            await self.stalls()
        if "restart" in names:
            await self.restart()
        if "memory" in names:
            await self.memory()
        if "idle" in names:
            await self.idle()
        if "profile" in names:
            await self.profile()

    async def measure(
        self,
        servers: list[Server],
        label: str,
        protocol: ProtocolFactory,
        *,
        paced: bool,
        rooms: int | None = None,
        pace: float | None = None,
    ) -> Result:
        """One run on ``servers`` (stopped after it), saturated or paced (``rooms`` and
        ``pace`` in place of the paced run's); shown and kept."""
        args = self.args
        if rooms is None:
            rooms = args.paced_rooms if paced else args.rooms
        if paced and pace is None:
            pace = args.pace
        with stopped_after(servers):
            result = await drive(
                servers,
                label=label,
                protocol=protocol,
                tables=game_tables(self.games, rooms),
                pace=pace,
                warmup=args.warmup,
                duration=args.paced_duration if paced else args.duration,
                sample_every=args.sample_every,
                quiet_wait=args.quiet_wait,
                seats_at_referee=args.seats == "referee",
            )
        self.results.append(result)
        self.show(format_result(result))
        return result

    def state_bytes(self, otherwise: int) -> int:
        """The saturated run's mean state message size, for the echo baseline to send."""
        size = int(self.saturated_result.mean_state_bytes) if self.saturated_result else 0
        return size or otherwise

    async def saturated(self) -> None:
        """Every seat acts the moment it may (the rate limit raised)."""
        servers = self.launcher.parlour("saturated", env=RATE_LIMIT_RAISED)
        self.saturated_result = await self.measure(servers, "parlour", self.parlour, paced=False)

    async def baseline(self) -> None:
        """The echo server under the same load."""
        protocol = echo(self.state_bytes(1400))
        servers = self.launcher.echo()
        self.baseline_result = await self.measure(servers, "echo baseline", protocol, paced=False)

    async def sharing(self) -> None:
        """Saturated on one process, then on ``--processes`` sharing every room, in turn,
        ``--sharing-rounds`` times: what sharing the rooms costs, as the ratio of the
        median server CPU per action of each (all processes added up), measured in this
        one run so that the machine's drift from minute to minute falls on both."""
        processes = self.launcher.processes
        if processes < 2 or not self.launcher.database_url:
            raise SystemExit("the sharing run needs --processes 2 or more and --database-url")
        one: list[Result] = []
        shared: list[Result] = []
        for _ in range(self.args.sharing_rounds):
            alone = self.launcher.parlour("sharing-one", one_process=True, env=RATE_LIMIT_RAISED)
            one.append(await self.measure(alone, "parlour, one process", self.parlour, paced=False))
            servers = self.launcher.parlour("sharing", env=RATE_LIMIT_RAISED)
            shared.append(await self.measure(servers, "parlour", self.parlour, paced=False))
        self.sharing_lines = format_sharing(one, shared, processes)
        self.show(self.sharing_lines)

    async def paced(self) -> None:
        """Every seat acts every ``--pace`` seconds when it may (the default limits)."""
        servers = self.launcher.parlour("paced")
        await self.measure(servers, "parlour", self.parlour, paced=True)

    async def paced_baseline(self) -> None:
        """The bare transport under the paced load: the latency floor of this machine, the
        generator and the stack, with no game and no database."""
        protocol = echo(self.state_bytes(900))
        await self.measure(self.launcher.echo(), "echo baseline", protocol, paced=True)

    async def crowd(self) -> None:
        """Many open sockets on one process: ``--crowd-rooms`` tables whose seats each act
        every ``--crowd-pace`` seconds (the default limits); memory per connection, latency
        and errors."""
        servers = self.launcher.parlour("crowd", one_process=True)
        args = self.args
        await self.measure(
            servers,
            "parlour (crowd)",
            self.parlour,
            paced=True,
            rooms=args.crowd_rooms,
            pace=args.crowd_pace,
        )

    async def stalls(self) -> None:
        """The paced run again with the stall probe wrapped around the server's app."""
        reports = self.launcher.workdir / "stalls"
        reports.mkdir(exist_ok=True)
        servers = self.launcher.parlour(
            "stalls",
            app="bench.stall_probe:create_app",
            env={
                "STALL_PROBE_APP": self.launcher.app,
                "STALL_REPORT": str(reports / "{pid}.json"),
                "STALL_MS": str(STALL_MS),
            },
        )
        label = "parlour (stall probe)"
        probed = await self.measure(servers, label, self.parlour, paced=True)
        self.stall_lines = stall_report(sorted(reports.glob("*.json")), probed.window)
        self.show(self.stall_lines)

    async def memory(self) -> None:
        """The crowd run under the memory probe (bench/memory_probe.py): what the server holds
        for its tables and sockets once every table plays, by where it was allocated.
        tracemalloc slows the server several times: the run's latency is not the crowd's."""
        args = self.args
        servers = self.launcher.parlour(
            "memory",
            one_process=True,
            app="bench.memory_probe:create_app",
            env={"MEMORY_PROBE_APP": self.launcher.app},
        )
        measuring = asyncio.Event()
        async with httpx.AsyncClient(base_url=servers[0].http, timeout=600) as probe:
            with stopped_after(servers):
                (await probe.get(MEMORY_PROBE + "before")).raise_for_status()
                run = asyncio.ensure_future(
                    drive(
                        servers,
                        label="parlour (memory probe)",
                        protocol=self.parlour,
                        tables=game_tables(self.games, args.crowd_rooms),
                        pace=args.crowd_pace,
                        warmup=args.warmup,
                        duration=args.paced_duration,
                        quiet_wait=args.quiet_wait,
                        measuring=measuring,
                    )
                )
                await window_opened(run, measuring)
                added = (await probe.get(MEMORY_PROBE + "after")).json()
                result = await run
        self.results.append(result)
        self.show(format_result(result))
        self.memory_lines = format_memory(added, result.connections)
        self.show(self.memory_lines)

    async def restart(self) -> None:
        """The paced load on ``--processes`` processes, each restarted in turn as a deploy
        restarts them (bench/load/restarts.py)."""
        args, launcher = self.args, self.launcher
        if launcher.processes < 2 or not launcher.database_url:
            raise SystemExit("the restart run needs --processes 2 or more and --database-url")
        servers = launcher.parlour("restart", graceful=True)
        with stopped_after(servers):
            self.restart_result = await drive_restarts(
                servers,
                label="parlour",
                protocol=self.parlour,
                tables=game_tables(self.games, args.paced_rooms),
                pace=args.pace,
                warmup=args.warmup,
                settle=args.settle,
                database_url=launcher.database_url,
            )
        self.restart_lines = format_restarts(self.restart_result, args.pace)
        self.show(self.restart_lines)

    async def idle(self) -> None:
        """``--idle`` connections that never act, on the real server then the echo server."""
        first, seats = game_tables(self.games, 1)[0]
        tables = game_tables([first], max(1, self.args.idle // seats))
        with stopped_after(self.launcher.parlour("idle", one_process=True)) as servers:
            self.idles.append(
                await measure_idle(servers[0], "parlour", self.parlour, tables, greeted=True)
            )
        with stopped_after(self.launcher.echo()) as servers:
            self.idles.append(
                await measure_idle(servers[0], "echo baseline", echo(0), tables, greeted=False)
            )
        for idle in self.idles:
            self.show([format_idle(idle)])

    async def profile(self) -> None:
        """An extra saturated run (paced with ``--profile-paced``) with py-spy attached to
        the server (not in the record's table): where the server's time goes."""
        args = self.args
        out = self.launcher.workdir / "profile.txt"
        paced = args.profile_paced
        servers = self.launcher.parlour(
            "profile", one_process=True, env=None if paced else RATE_LIMIT_RAISED
        )
        measuring = asyncio.Event()
        with stopped_after(servers):
            run = asyncio.ensure_future(
                drive(
                    servers,
                    label="parlour (profiled)",
                    protocol=self.parlour,
                    tables=game_tables(self.games, args.paced_rooms if paced else args.rooms),
                    pace=args.pace if paced else None,
                    warmup=args.warmup,
                    duration=args.profile_duration + 2,
                    measuring=measuring,
                )
            )
            # The profiler starts with the measured window, or not at all if the run
            # failed before it opened.
            await window_opened(run, measuring)
            spy = start_profiler(servers[0].pid, args.profile_duration, out)
            result = await run
            await wait_for_profiler(spy)
        self.show(format_result(result))
        if out.exists():
            self.profile_lines = summarise_profile(out)
            self.show(self.profile_lines)
            self.show([f"  raw stacks: {out}"])
