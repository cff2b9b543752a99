"""Where the server's time goes: py-spy attached to the server during a saturated run, and
its raw stacks summed up by what they were doing (the ws route, the referee, the database,
sending, the HTTP API) and by package."""

from __future__ import annotations

import asyncio
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path

from bench.machine import ROOT


def start_profiler(pid: int, seconds: float, out: Path) -> subprocess.Popen[bytes] | None:
    spy = shutil.which("py-spy") or str(Path(sys.executable).parent / "py-spy")
    if not Path(spy).exists():
        print("profile: py-spy is not installed (pip install py-spy); skipped")
        return None
    command = [spy, "record", "-p", str(pid), "-d", str(int(seconds)), "-r", "250"]
    command += ["-f", "raw", "-o", str(out)]
    return subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)


async def wait_for_profiler(spy: subprocess.Popen[bytes] | None) -> None:
    """Let py-spy finish writing its stacks; say so if it failed."""
    if spy is None:
        return
    _, err = await asyncio.to_thread(spy.communicate)
    if spy.returncode:
        print(f"profile: py-spy failed: {err.decode()[-500:]}")


# Where the event loop's time goes: (label, function name, file) matched on any frame.
PROFILE_BUCKETS: list[tuple[str, str, str]] = [
    ("ws route: receive loop and everything it awaits", "play", "app/routes/ws.py"),
    ("  Referee.act (one action, under the room lock)", "Referee.act", "app/rooms/referee.py"),
    ("    EventLog.append (waiting for the group commit)", "EventLog.append", "app/rooms/"),
    ("    rules.apply (the game's own work)", ".apply", "games/"),
    ("    notifiers (hub, computer players, other processes)", "Notifiers.room_changed", "app/"),
    ("  ClientMessage.validate_json (pydantic)", ".validate_json", "pydantic"),
    ("  WebSocket.receive (starlette + uvicorn)", "WebSocket.receive", "starlette/"),
    ("Connection._run_sender (send loop)", "Connection._run_sender", "app/connections/hub.py"),
    ("  render.pending (what a connection has yet to see)", "pending", "app/rooms/render.py"),
    ("    rules.view (the seat's view)", ".view", "games/"),
    ("  WebSocket.send_text (starlette + uvicorn)", "WebSocket.send_text", "starlette/"),
    ("registry: loading rooms (replay of the log)", "RoomRegistry.get", "app/rooms/"),
    ("cluster: notices and forwarding", "", "app/cluster/"),
    ("HTTP API on the loop (rematch, start: setup)", "", "uvicorn/protocols/http/"),
    ("SQLAlchemy, anywhere on the loop", "", "sqlalchemy/"),
]
# Self time is shared out by the first of these its frame's path starts with.
PACKAGES = (
    "app/",
    "games/",
    "sqlalchemy/",
    "uvicorn/",
    "starlette/",
    "fastapi/",
    "websockets/",
    "pydantic",
    "asyncio/",
    "anyio/",
    "orjson",
    "dataclasses.py",
)


def summarise_profile(path: Path, top: int = 15) -> list[str]:
    """Where the event-loop thread spends its time, from py-spy raw (collapsed) stacks.

    Samples of other threads (anyio's pool, which runs the sync HTTP endpoints) are
    counted apart; py-spy sees their idle ``Condition.wait`` as busy, so those are dropped.
    """
    total = pool = 0
    own: Counter[str] = Counter()
    inclusive: Counter[str] = Counter()
    buckets: Counter[str] = Counter()
    packages: Counter[str] = Counter()
    for line in path.read_text().splitlines():
        stack, _, count_text = line.rpartition(" ")
        if not stack or not count_text.isdigit():
            continue
        count = int(count_text)
        frames = [_short(f) for f in stack.split(";")]
        if frames[0].startswith("Thread._bootstrap"):
            if not frames[-1].startswith(("Condition.wait", "Queue.get")):
                pool += count
            continue
        total += count
        own[frames[-1]] += count
        leaf = frames[-1].partition(" (")[2]
        packages[next((p for p in PACKAGES if leaf.startswith(p)), "other")] += count
        for name in set(frames):
            inclusive[name] += count
        for label, func, where in PROFILE_BUCKETS:
            if any(_matches(f, func, where) for f in frames):
                buckets[label] += count
    if not total:
        return ["profile: no samples"]
    lines = [
        f"profile: {total} samples of the server's event-loop thread (py-spy, 250 Hz, busy only)"
        f" + {pool} busy samples in worker threads (sync HTTP endpoints)",
        "  share of the event loop's busy time, inclusive:",
    ]
    for label, _, _ in PROFILE_BUCKETS:
        lines.append(f"    {100 * buckets[label] / total:5.1f}%  {label}")
    lines.append("  self time by package:")
    shares = [f"{name.strip('/')} {100 * n / total:.0f}%" for name, n in packages.most_common()]
    lines.append("    " + ", ".join(shares))
    lines.append("  top self time:")
    for name, count in own.most_common(top):
        lines.append(f"    {100 * count / total:5.1f}%  {name}")
    lines.append("  top inclusive in app/ and games/:")
    ours = [(n, c) for n, c in inclusive.most_common() if "(app/" in n or "(games/" in n]
    for name, count in ours[:top]:
        lines.append(f"    {100 * count / total:5.1f}%  {name}")
    return lines


def _matches(frame: str, func: str, where: str) -> bool:
    name, _, path = frame.partition(" (")
    if where not in path:
        return False
    return not func or name == func or (func.startswith(".") and name.endswith(func))


def _short(frame: str) -> str:
    """'func (/long/path/site-packages/pkg/mod.py:12)' -> 'func (pkg/mod.py)'."""
    match = re.match(r"^(.*) \((.*?)(?::\d+)?\)$", frame)
    if not match:
        return frame
    name, path = match.groups()
    for marker in ("site-packages/", "python3.11/", str(ROOT) + "/"):
        if marker in path:
            path = path.split(marker, 1)[1]
    return f"{name} ({path})"
