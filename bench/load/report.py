"""How a load run is told: the figures printed as each run ends, and the recorded entry (a
Markdown file under bench/results/ with the command, the machine and every figure)."""

from __future__ import annotations

import argparse
import datetime as dt
from statistics import median
from typing import Any

from bench.load.drive import IdleResult, Result
from bench.load.measure import machine
from bench.load.servers import SATURATED_RATE
from bench.machine import commit, stamp


def speed_ratio(real: Result, base: Result) -> float:
    """The real server's actions a second over the echo baseline's round trips a second."""
    return real.actions_per_s / base.actions_per_s if base.actions_per_s else 0.0


def format_result(r: Result) -> list[str]:
    errors = ", ".join(f"{k}={v}" for k, v in sorted(r.errors.items())) or "none"
    lines = [
        f"{r.label}: {r.mode}, {r.rooms} rooms, {r.connections} connections, {r.seconds:.1f} s",
        f"  actions/s            {r.actions_per_s:10.1f}   ({r.actions} in the window)",
        f"  latency ms           p50 {r.p50_ms:.2f}  p95 {r.p95_ms:.2f}  p99 {r.p99_ms:.2f}"
        f"  max {r.max_ms:.2f}",
        f"  errors               {r.error_count} ({errors})",
        f"  server CPU           {r.server_cpu_pct:.1f}% of a core,"
        f" {r.server_cpu_us_per_action:.0f} us per action; the event loop's thread"
        f" {r.server_main_thread_cpu_pct:.1f}%, the other threads"
        f" {max(0.0, r.server_cpu_pct - r.server_main_thread_cpu_pct):.1f}%",
        f"  server RSS           {r.server_rss_mb:.1f} MB, {r.server_rss_kb_per_conn:.1f} KB"
        f" per connection; {r.added_kb_per_conn:.1f} KB per connection over the"
        f" {r.server_rss_start_mb:.1f} MB it held before the tables",
        f"  generator CPU        {r.generator_cpu_pct:.1f}% of a core"
        + ("  (SATURATED: the generator limits this run)" if r.generator_cpu_pct > 90 else ""),
        f"  database CPU         {r.db_cpu_pct:.1f}% of a core (local PostgreSQL processes)",
        f"  other processes CPU  {max(0.0, r.other_cpu_pct):.1f}% of a core (machine is shared)",
        f"  state message        {r.mean_state_bytes:.0f} bytes on average;"
        f" {r.messages_per_action:.2f} messages received per action per connection",
        f"  matches              {r.matches_finished} finished in the window;"
        f" {r.rematches} rematches in the whole run",
    ]
    if (drift := r.rss_drift()) is not None:
        lines.append(
            f"  server RSS over time {drift.first:.1f} -> {drift.last:.1f} MB"
            f" (peak {drift.peak:.1f}), {drift.per_minute:+.2f} MB/min"
        )
    return lines


def format_sharing(one: list[Result], shared: list[Result], processes: int) -> list[str]:
    """The sharing run's verdict: server CPU per action of one process and of
    ``processes`` sharing the rooms, the median of each run's figure, and their ratio."""
    alone = median(r.server_cpu_us_per_action for r in one)
    together = median(r.server_cpu_us_per_action for r in shared)
    ratio = together / alone if alone else float("nan")
    each = ", ".join(
        f"{a.server_cpu_us_per_action:.0f}/{b.server_cpu_us_per_action:.0f}"
        for a, b in zip(one, shared, strict=True)
    )
    return [
        f"sharing: server CPU per action, one process / {processes} processes added up,"
        f" round by round: {each} us",
        f"  medians {alone:.0f} / {together:.0f} us: {processes} processes cost"
        f" {ratio:.2f} x one process (target <= 1.2)",
    ]


def format_idle(idle: IdleResult) -> str:
    errors = sum(idle.errors.values())
    return (
        f"idle {idle.label}: {idle.connections} connections: server RSS"
        f" {idle.rss_before_mb:.1f} -> {idle.rss_after_mb:.1f} MB,"
        f" {idle.kb_per_connection:.1f} KB per connection (target <= 30), errors {errors}"
        + (f" {idle.errors}" if errors else "")
    )


def format_memory(added: dict[str, Any], connections: int) -> list[str]:
    """The memory probe's answer (bench/memory_probe.py): what the heap held beyond its
    state before the tables, in bytes per connection, by where it was allocated and by
    whose it is."""
    if "error" in added:
        return [f"memory probe: {added['error']}"]
    per = max(1, connections)
    total = added["added_bytes"] / per
    lines = [
        f"memory probe: {total / 1024:.1f} KB per connection traced by tracemalloc beyond the"
        f" heap before the tables ({connections} connections)",
    ]
    for title, key in (("by where it was allocated", "by_place"), ("by whose it is", "by_owner")):
        lines.append(f"  {title}:")
        for entry in added[key]["places"]:
            lines.append(
                f"  {entry['bytes'] / per:8.0f} B {entry['blocks'] / per:6.1f} blocks"
                f"  {entry['where']}"
            )
        rest = added[key]["rest"]
        lines.append(f"  {rest['bytes'] / per:8.0f} B in {rest['places']} other places")
    return lines


def table_row(r: Result, db: str) -> str:
    errors = r.error_count
    return (
        f"| {r.label} | {db} | {r.mode} | {r.rooms} | {r.actions_per_s:,.0f} | {r.p50_ms:.2f} |"
        f" {r.p95_ms:.2f} | {r.p99_ms:.2f} | {errors} | {r.server_cpu_pct:.0f}% |"
        f" {r.server_cpu_us_per_action:.0f} | {r.server_rss_mb:.0f} MB |"
        f" {r.server_rss_kb_per_conn:.0f} KB | {r.generator_cpu_pct:.0f}% |"
        f" {r.db_cpu_pct:.0f}% | {max(0.0, r.other_cpu_pct):.0f}% |"
    )


def result_entry(
    args: argparse.Namespace,
    command: str,
    when: dt.datetime,
    db: str,
    results: list[Result],
    real_sat: Result | None,
    base: Result | None,
    idles: list[IdleResult],
    reports: list[str],
) -> list[str]:
    """The recorded run: a Markdown file with the command, the machine and every figure."""
    out = [
        f"# Load benchmark, {stamp(when)} — {db}, commit {commit()}",
        "",
        f"Command: `{command}`.",
        "",
        f"Machine: {machine()}. Games: {args.games}"
        + (f", target {args.target}" if args.target else "")
        + f". Warm-up {args.warmup:g} s.",
        "",
        f"Saturated runs raise the server's per-connection rate limit to {SATURATED_RATE} a"
        " second; paced runs keep its defaults. How the benchmark works: bench/README.md.",
    ]
    if args.note:
        out += ["", args.note]
    if results:
        out += [
            "",
            "| server | db | mode | rooms | actions/s | p50 ms | p95 ms | p99 ms | errors |"
            " server CPU | µs/action | server RSS | RSS/conn | generator CPU | DB CPU |"
            " other CPU |",
            "|---|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|",
        ]
        out += [table_row(r, "—" if r.label.startswith("echo") else db) for r in results]
    if real_sat and base and base.actions_per_s:
        ratio = speed_ratio(real_sat, base)
        out += ["", f"Ratio actions/s ÷ baseline round trips/s: **{ratio:.2f}** (target ≥ 0.5)."]
    for r in results:
        if (drift := r.rss_drift()) is not None:
            out += [
                "",
                f"Server RSS during the {r.label} {r.mode} run ({r.seconds:.0f} s):"
                f" {drift.first:.1f} → {drift.last:.1f} MB ({drift.per_minute:+.2f} MB/min);"
                f" {r.server_rss_start_mb:.1f} MB before the tables, so"
                f" {r.added_kb_per_conn:.1f} KB per connection added.",
            ]
    for idle in idles:
        out += ["", format_idle(idle)]
    if reports:  # the profile's and the stall probe's
        out += ["", "```", *reports, "```"]
    return out
