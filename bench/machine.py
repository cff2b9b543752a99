"""Facts about the machine and the checkout, printed with every benchmark figure."""

from __future__ import annotations

import os
import platform
import subprocess
from datetime import UTC, datetime
from pathlib import Path


def cpu_model() -> str:
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown CPU"


def commit() -> str:
    """The short commit hash, marked when the tree has uncommitted changes."""

    def git(*args: str) -> str:
        try:
            out = subprocess.run(["git", *args], capture_output=True, text=True, check=False)
        except OSError:
            return ""
        return out.stdout.strip()

    head = git("rev-parse", "--short", "HEAD") or "unknown"
    return head + (" (with uncommitted changes)" if git("status", "--porcelain") else "")


def describe() -> str:
    """One line: date, CPU, cores, Python, commit."""
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"{now} · {cpu_model()} · {os.cpu_count()} cores · Python {platform.python_version()}"
        f" · commit {commit()}"
    )


def replace_section(path: Path, heading: str, body: str) -> None:
    """Write ``body`` under ``heading`` in a Markdown file, replacing that section only."""
    text = path.read_text() if path.exists() else "# Benchmarks\n"
    lines = text.splitlines()
    start = next((i for i, line in enumerate(lines) if line.strip() == heading), None)
    if start is None:
        new = [*lines, "", heading, "", *body.strip().splitlines()]
    else:
        end = next(
            (i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines)
        )
        new = [*lines[:start], heading, "", *body.strip().splitlines(), "", *lines[end:]]
    path.write_text("\n".join(new).rstrip() + "\n")
