"""Lighthouse on every kind of page, as a phone on a slow network sees it.

    python -m bench.lighthouse                 # every page, once
    python -m bench.lighthouse --pages review,watch --runs 2

Starts the server (``python -m app.serve``, as `make run` does) on a fresh SQLite database
in a temporary directory, seeds it through the HTTP API and the play socket — two accounts
who played a rated Coins match (so there is a review, a history, a player page and a
leaderboard), a lobby waiting for players, and a Coins table in play where it is the
account "ada"'s turn — then runs Lighthouse (the npm package, version ``LIGHTHOUSE``,
installed on first use into ``.lighthouse/``, which git ignores) with its default mobile
preset (a mid-range phone, simulated slow 4G, a CPU 4 times slower) in the Chromium at
``CHROME_PATH`` (default /usr/bin/chromium) on each page: the home page, the lobby, the
table as ada (her session cookie sent with every request) and as a watcher, the review,
the history, ada's player page, the leaderboard and a rules page.

Prints, per page, the four category scores (0-100), the cumulative layout shift, the largest
and first contentful paints and the total blocking time (the performance score's most
changeable part: the main thread's long tasks, which a busy machine lengthens), with the
machine's load average before and after, and records the run under bench/results/. Each
page's full report (JSON) is kept in the temporary directory when ``--keep`` is given.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import websockets

from bench.machine import (
    RESULTS,
    ROOT,
    command_line,
    describe,
    node_bin,
    now,
    run_npm,
    shown,
    write_result,
)

LIGHTHOUSE = "12.2.3"
TOOLS = ROOT / ".lighthouse"
CLI = TOOLS / "node_modules" / "lighthouse" / "cli" / "index.js"
CATEGORIES = ("performance", "accessibility", "best-practices", "seo")
PASSWORD = "correct horse battery"
TARGETS = "performance ≥ 95, accessibility 100, best practices 100, SEO 100, CLS < 0.05"


@dataclass(frozen=True)
class Target:
    name: str
    path: str
    cookie: str | None = None  # the session cookie to send (a player's page)


@dataclass(frozen=True)
class Figures:
    scores: dict[str, int]
    cls: float
    lcp_ms: float
    fcp_ms: float
    tbt_ms: float


def install_lighthouse() -> None:
    """Lighthouse into .lighthouse/ (git-ignored), once, with the virtualenv's npm."""
    if CLI.exists():
        version = json.loads((CLI.parent.parent / "package.json").read_text())["version"]
        if version == LIGHTHOUSE:
            return
    TOOLS.mkdir(exist_ok=True)
    print(f"installing lighthouse {LIGHTHOUSE} into {shown(TOOLS)} ...", flush=True)
    run_npm(
        ["install", "--prefix", str(TOOLS), "--no-save", "--no-audit", "--no-fund",
         "--loglevel=error", f"lighthouse@{LIGHTHOUSE}"]
    )  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@contextmanager
def server(workdir: Path) -> Iterator[str]:
    """The server on a fresh SQLite database (migrated by app.serve); its base URL."""
    port = free_port()
    env = {
        **os.environ,
        "DATABASE_URL": f"sqlite:///{workdir / 'parlour.db'}",
        "DATA_DIR": str(workdir),
        "SECRET_KEY": "lighthouse-bench-secret",
        "ACCESS_LOG": "false",
        "BOT_DELAY": "0.05",
        # Every request comes from 127.0.0.1.
        "GUESTS_PER_HOUR_PER_ADDRESS": "1000",
        "SIGNUPS_PER_HOUR_PER_ADDRESS": "1000",
    }
    log = (workdir / "server.log").open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "app.serve", "--host", "127.0.0.1", "--port", str(port)],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if httpx.get(f"{url}/api/games", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"the server did not start; see {workdir / 'server.log'}")
            time.sleep(0.2)
        yield url
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def signed_up(url: str, username: str) -> httpx.Client:
    client = httpx.Client(base_url=url, timeout=30)
    client.post("/api/session", json={"name": username}).raise_for_status()
    response = client.post("/api/accounts", json={"username": username, "password": PASSWORD})
    response.raise_for_status()
    return client


async def play_until(
    url: str, room_id: str, players: list[httpx.Client], stop_at: int | None
) -> None:
    """The players (seats 0..) play their first legal action until the match is over, or
    (``stop_at``) until it is that seat's turn."""
    ws_url = url.replace("http://", "ws://") + f"/ws/rooms/{room_id}"
    sockets = [
        await websockets.connect(
            ws_url,
            additional_headers={"Cookie": "; ".join(f"{k}={v}" for k, v in p.cookies.items())},
        )
        for p in players
    ]
    try:

        async def newest(seat: int) -> dict[str, Any]:
            while True:
                message = json.loads(await sockets[seat].recv())
                if message.get("type") == "state":
                    return dict(message)

        states = [await newest(seat) for seat in range(len(sockets))]
        while True:
            view = states[0]["view"]
            if view["over"]:
                return
            mover = view["to_act"][0]
            if stop_at is not None and mover == stop_at:
                return
            if mover < len(sockets) and states[mover]["version"] == states[0]["version"]:
                action = states[mover]["view"]["legal_actions"][0]
                message = {"type": "act", "version": states[mover]["version"], "action": action}
                await sockets[mover].send(json.dumps(message))
            states = [await newest(seat) for seat in range(len(sockets))]
    finally:
        for s in sockets:
            await s.close()


def answer(response: httpx.Response) -> dict[str, Any]:
    """A seeding call's answer; a refusal stops the run with the server's words."""
    if response.is_error:
        raise RuntimeError(f"{response.request.url}: {response.status_code} {response.text}")
    return dict(response.json())


def seed(url: str) -> list[Target]:
    """The pages to measure, with what they show made first."""
    ada, bob, cleo = (signed_up(url, name) for name in ("ada", "bob", "cleo"))
    body = {"game": "coins", "seats": 3, "rated": True, "options": {"target": 10}}
    rated = answer(ada.post("/api/rooms", json=body))
    for guest in (bob, cleo):
        answer(guest.post(f"/api/rooms/{rated['id']}/join", json={}))
    started = answer(ada.post(f"/api/rooms/{rated['id']}/start"))
    asyncio.run(play_until(url, rated["id"], [ada, bob, cleo], None))
    # A lobby: Bob waits at a Cupid table for a second player.
    lobby = answer(bob.post("/api/rooms", json={"game": "cupid"}))
    # A table in play: Ada against two computers, her turn.
    live = answer(ada.post("/api/rooms", json={"game": "coins", "seats": 3}))
    for seat in (1, 2):
        ada.post(f"/api/rooms/{live['id']}/bots", json={"seat": seat}).raise_for_status()
    ada.post(f"/api/rooms/{live['id']}/start").raise_for_status()
    asyncio.run(play_until(url, live["id"], [ada], 0))
    cookie = "; ".join(f"{k}={v}" for k, v in ada.cookies.items())
    return [
        Target("home", "/"),
        Target("lobby", f"/rooms/{lobby['id']}"),
        Target("table (player)", f"/rooms/{live['id']}", cookie),
        Target("table (watcher)", f"/rooms/{live['id']}/watch"),
        Target("review", f"/matches/{started['match_id']}"),
        Target("history", "/history"),
        Target("player", "/players/ada"),
        Target("leaderboard", "/leaderboard?game=coins"),
        Target("rules", "/rules/cupid"),
    ]


def lighthouse(url: str, target: Target, report: Path, chrome: str) -> Figures:
    command = [
        str(node_bin()),
        str(CLI),
        url + target.path,
        "--quiet",
        "--output=json",
        f"--output-path={report}",
        f"--only-categories={','.join(CATEGORIES)}",
        "--chrome-flags=--headless=new --no-sandbox --disable-dev-shm-usage",
    ]
    if target.cookie:
        command.append("--extra-headers=" + json.dumps({"Cookie": target.cookie}))
    subprocess.run(command, check=True, env={**os.environ, "CHROME_PATH": chrome})
    data = json.loads(report.read_text())
    audits = data["audits"]
    return Figures(
        scores={c: round(100 * (data["categories"][c]["score"] or 0)) for c in CATEGORIES},
        cls=float(audits["cumulative-layout-shift"]["numericValue"]),
        lcp_ms=float(audits["largest-contentful-paint"]["numericValue"]),
        fcp_ms=float(audits["first-contentful-paint"]["numericValue"]),
        tbt_ms=float(audits["total-blocking-time"]["numericValue"]),
    )


def failing_audits(report: Path) -> list[str]:
    """The audits that lost points outside performance (what to fix), by their ids."""
    data = json.loads(report.read_text())
    out = []
    for category in CATEGORIES[1:]:
        for ref in data["categories"][category]["auditRefs"]:
            audit = data["audits"][ref["id"]]
            if ref["weight"] > 0 and audit["score"] is not None and audit["score"] < 1:
                out.append(f"{category}: {ref['id']}")
    return out


def table(rows: list[tuple[str, Figures]]) -> list[str]:
    lines = [
        "| page | performance | accessibility | best practices | SEO | CLS | LCP | FCP | TBT |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for name, f in rows:
        s = f.scores
        lines.append(
            f"| {name} | {s['performance']} | {s['accessibility']} | {s['best-practices']} "
            f"| {s['seo']} | {f.cls:.3f} | {f.lcp_ms / 1000:.1f} s | {f.fcp_ms / 1000:.1f} s "
            f"| {f.tbt_ms:.0f} ms |"
        )
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--pages", help="comma-separated page names (default: all)")
    parser.add_argument("--runs", type=int, default=1, help="Lighthouse runs per page")
    parser.add_argument("--keep", action="store_true", help="keep the reports and the database")
    parser.add_argument("--no-record", action="store_true", help="do not write bench/results/")
    args = parser.parse_args(argv)
    chrome = os.environ.get("CHROME_PATH", "/usr/bin/chromium")
    install_lighthouse()
    load_before = os.getloadavg()[0]
    workdir = Path(tempfile.mkdtemp(prefix="parlour-lighthouse-"))
    rows: list[tuple[str, Figures]] = []
    problems: list[str] = []
    with server(workdir) as url:
        targets = seed(url)
        wanted = set(args.pages.split(",")) if args.pages else None
        for target in targets:
            if wanted is not None and not {target.name, target.name.split()[0]} & wanted:
                continue
            for run in range(1, args.runs + 1):
                report = workdir / f"{target.name.replace(' ', '-')}-{run}.json"
                figures = lighthouse(url, target, report, chrome)
                name = target.name if args.runs == 1 else f"{target.name} #{run}"
                rows.append((name, figures))
                problems += [f"{target.name}: {p}" for p in failing_audits(report)]
                print(table([(name, figures)])[-1], flush=True)
    when = now()
    lines = [
        f"# Lighthouse {LIGHTHOUSE}, mobile preset",
        "",
        describe(when),
        "",
        f"Load average (1 min) before: {load_before:.1f}, after: {os.getloadavg()[0]:.1f}.",
        "",
        f"Command: `{command_line('bench.lighthouse', sys.argv[1:] if argv is None else argv)}`",
        f"Targets: {TARGETS}.",
        "",
        *table(rows),
        "",
        *(
            ["Audits that lost points:", "", *(f"- {p}" for p in sorted(set(problems)))]
            if problems
            else []
        ),
    ]
    print("\n".join(lines))
    if not args.no_record:
        print("recorded in", shown(write_result(RESULTS, when, "lighthouse", lines)))
    if args.keep:
        print("reports and database kept in", workdir)
    else:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
