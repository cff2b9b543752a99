"""Start Parlour's server: migrate the database, then serve — one process, or several.

    python -m app.serve [--host 127.0.0.1] [--port 8000]               # `make run`
    python -m app.serve --processes 3 [--port 8000]                     # ports 8000-8002

Settings come from the environment (DATABASE_URL, REDIS_URL, SECRET_KEY, ...; see the
README). Several processes share the rooms through PostgreSQL and Redis, so they need
REDIS_URL; each is a separate uvicorn process on the next port, restarted if it dies, and
a reverse proxy in front spreads people over them (no sticky sessions needed).

Every process logs through one structured formatter (app/observability/logs.py), and the
processes of one ``app.serve`` keep their metrics in one directory, so that ``/metrics``
of any of them reports them all (app/observability/metrics_directory.py).
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import time
from types import FrameType

import uvicorn

from app.config import get_settings, settings_or_exit
from app.http.protocol import with_header_timeout
from app.observability import logs
from app.observability.metrics_directory import metrics_directory, process_exited

log = logging.getLogger("parlour.serve")

# Small frames only, and no per-message deflate: it costs 25-40 % of the server's CPU on
# Parlour's small JSON messages (docs/architecture.md, "Measured"). No proxy headers: the
# app believes X-Forwarded-For from the proxies TRUSTED_PROXIES names, and from no one
# else (app/http/forwarded.py); uvicorn's own reading would trust any local caller.
SERVER_OPTIONS: dict[str, object] = {
    "factory": True,
    "ws_max_size": 65_536,
    "ws_per_message_deflate": False,
    "proxy_headers": False,
}

# uvicorn's setting for the proxies it believes, no longer read: a server that still has
# it would count every visitor as its proxy's address.
UVICORN_PROXIES = "FORWARDED_ALLOW_IPS"


def exit_normally(_signal: int, _frame: FrameType | None) -> None:
    raise SystemExit(0)


def serve_one(host: str, port: int) -> None:
    settings = get_settings()
    # uvicorn takes SIGTERM while it serves, shuts down gracefully, then raises the signal
    # again with the handler it found: this one, so that the process ends as a normal exit
    # — status 0, its clean-up (the metrics directory) done — rather than killed by it.
    signal.signal(signal.SIGTERM, exit_normally)
    http = with_header_timeout(settings.header_timeout)
    uvicorn.run(
        "app.main:create_app",
        host=host,
        port=port,
        http=http,
        timeout_keep_alive=settings.idle_timeout,
        access_log=settings.access_log,
        # Logging is set up already (app/observability/logs.py): uvicorn's lines go
        # through the same formatter as the app's.
        log_config=None,
        **SERVER_OPTIONS,  # type: ignore[arg-type]
    )


def serve_many(host: str, port: int, count: int) -> None:
    """``count`` processes on ports ``port`` .. ``port + count - 1``, each restarted if it
    exits; all stopped on SIGINT or SIGTERM."""
    command = [sys.executable, "-m", "app.serve", "--host", host, "--no-migrate", "--port"]
    processes = {p: subprocess.Popen([*command, str(p)]) for p in range(port, port + count)}
    stopping = False

    def stop(_signal: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    log.info("serving %d processes on http://%s:%d .. :%d", count, host, port, port + count - 1)
    while not stopping:
        time.sleep(0.5)
        for p, process in list(processes.items()):
            if process.poll() is not None and not stopping:
                log.warning(
                    "the process on port %d exited (%d); starting it again", p, process.returncode
                )
                process_exited(process.pid)
                processes[p] = subprocess.Popen([*command, str(p)])
    for process in processes.values():
        process.terminate()
    for process in processes.values():
        process.wait(15)


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m app.serve", description=__doc__)
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--no-migrate", action="store_true", help="the database is migrated")
    args = parser.parse_args(argv)
    if UVICORN_PROXIES in os.environ:
        raise SystemExit(
            f"Parlour will not start: {UVICORN_PROXIES} is not read; name the reverse "
            "proxies whose X-Forwarded-For is believed in TRUSTED_PROXIES instead."
        )
    settings = settings_or_exit()
    if args.processes > 1 and not settings.redis_url:
        raise SystemExit("Several processes share the rooms through Redis: set REDIS_URL.")
    logs.configure(settings.environment)
    # Before anything imports prometheus_client (the app, the migrations' models): it
    # chooses where metrics live when it is first imported.
    with metrics_directory():
        if not args.no_migrate:
            from app.db import upgrade_to_head  # the app's modules, after the directory

            upgrade_to_head(settings.database_url)
        if args.processes > 1:
            serve_many(args.host, args.port, args.processes)
        else:
            serve_one(args.host, args.port)


if __name__ == "__main__":
    main(sys.argv[1:])
