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

SIGTERM stops a server process gracefully: it hands its rooms and sockets on
(app/departure.py) and exits 0 within 15 s. SIGHUP to the process that runs several
restarts them one at a time that way, each new one serving before the next is stopped.
"""

from __future__ import annotations

import argparse
import contextlib
import logging
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from types import FrameType

import uvicorn
from uvicorn.config import STARTUP_FAILURE

from app.config import get_settings, settings_or_exit
from app.http.protocol import with_header_timeout
from app.http.websocket_protocol import PROTOCOL_PATH
from app.observability import logs
from app.observability.metrics_directory import metrics_directory, process_exited

log = logging.getLogger("parlour.serve")

# Small frames only, and no per-message deflate: it costs 25-40 % of the server's CPU on
# Parlour's small JSON messages (docs/architecture.md, "Measured"). No proxy headers: the
# app believes X-Forwarded-For from the proxies TRUSTED_PROXIES names, and from no one
# else (app/http/forwarded.py); uvicorn's own reading would trust any local caller.
SERVER_OPTIONS: dict[str, object] = {
    "factory": True,
    # uvicorn's sans-I/O WebSocket protocol, holding less per open socket.
    "ws": PROTOCOL_PATH,
    "ws_max_size": 65_536,
    "ws_per_message_deflate": False,
    "proxy_headers": False,
}

# uvicorn's setting for the proxies it believes, no longer read: a server that still has
# it would count every visitor as its proxy's address.
UVICORN_PROXIES = "FORWARDED_ALLOW_IPS"


# Seconds uvicorn gives the connections left after the departure (app/departure.py, at
# most 10 s) before it cancels them: the process exits within 15 s of its SIGTERM.
GRACEFUL_SHUTDOWN_SECONDS = 3
# How long a supervisor waits for a stopping process (docker-compose.yml: stop_grace_period)
# and for a new one to listen (migrations done, its open rooms loaded).
STOP_WAIT_SECONDS = 20
READY_WAIT_SECONDS = 120


class GracefulServer(uvicorn.Server):
    """uvicorn's server, handing the app's rooms and sockets on before its own shutdown.

    uvicorn's shutdown closes the listening sockets, closes every connection (a socket
    with 1012, but without what is queued for it), waits for the requests under way, then
    runs the lifespan's shutdown. The departure (app/departure.py) must come between the
    first step and the second: no new connection, but the sockets still open to be told
    their last acknowledgements and the reason they close.
    """

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        for server in self.servers:
            server.close()  # no new connection from here on
        depart = getattr(self.config.loaded_app, "depart", None)
        if depart is not None:
            await depart()
        await super().shutdown(sockets)


def stopped_by_signal(_signal: int, _frame: FrameType | None) -> None:
    """SIGTERM ends the process with status 0: a stop asked for, done cleanly. (uvicorn
    restores this handler after its graceful shutdown and raises the signal again.)"""
    raise SystemExit(0)


def serve_one(host: str, port: int) -> None:
    settings = get_settings()
    # uvicorn takes SIGTERM while it serves, shuts down gracefully, then raises the signal
    # again with the handler it found: this one, so that the process ends as a normal exit
    # — status 0, its clean-up (the metrics directory) done — rather than killed by it.
    signal.signal(signal.SIGTERM, stopped_by_signal)
    http = with_header_timeout(settings.header_timeout)
    config = uvicorn.Config(
        "app.main:create_app",
        host=host,
        port=port,
        http=http,
        timeout_keep_alive=settings.idle_timeout,
        timeout_graceful_shutdown=GRACEFUL_SHUTDOWN_SECONDS,
        access_log=settings.access_log,
        # Logging is set up already (app/observability/logs.py): uvicorn's lines go
        # through the same formatter as the app's.
        log_config=None,
        **SERVER_OPTIONS,  # type: ignore[arg-type]
    )
    server = GracefulServer(config)
    server.run()
    if not server.started:
        raise SystemExit(STARTUP_FAILURE)


class Supervisor:
    """``count`` server processes on ports ``port`` .. ``port + count - 1``, each started
    again if it exits; restarted one at a time on request (a deploy)."""

    def __init__(self, host: str, port: int, count: int) -> None:
        self.host = host
        self.ports = range(port, port + count)
        self.command = [sys.executable, "-m", "app.serve", "--host", host, "--no-migrate"]
        self.processes: dict[int, subprocess.Popen[bytes]] = {}

    def start(self, port: int) -> None:
        self.processes[port] = subprocess.Popen([*self.command, "--port", str(port)])

    def restart_all(self, stopping: Callable[[], bool]) -> None:
        """Restart the processes in turn: each is stopped with SIGTERM (it hands its rooms
        to the others and exits), started again, and serving before the next is stopped."""
        for port in self.ports:
            if stopping():
                return
            log.info("restarting the process on port %d", port)
            self.stop(port)
            self.start(port)
            if not self.wait_until_serving(port, stopping):
                log.error("the process on port %d did not start; stopping the restart", port)
                return
        log.info("every process restarted")

    def stop(self, port: int) -> None:
        process = self.processes[port]
        process.terminate()
        try:
            process.wait(STOP_WAIT_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        process_exited(process.pid)  # its live gauges leave the metrics with it

    def wait_until_serving(self, port: int, stopping: Callable[[], bool]) -> bool:
        """Whether the process on ``port`` accepts connections (uvicorn listens only once
        the app has started) before it exits or READY_WAIT_SECONDS pass."""
        deadline = time.monotonic() + READY_WAIT_SECONDS
        address = "127.0.0.1" if self.host in ("0.0.0.0", "") else self.host
        while time.monotonic() < deadline and not stopping():
            if self.processes[port].poll() is not None:
                return False
            with contextlib.suppress(OSError), socket.create_connection((address, port), 1):
                return True
            time.sleep(0.1)
        return False

    def keep_running(self) -> None:
        """Start any process that exited."""
        for port, process in list(self.processes.items()):
            if process.poll() is not None:
                log.warning(
                    "the process on port %d exited (%d); starting it again",
                    port,
                    process.returncode,
                )
                process_exited(process.pid)
                self.start(port)

    def stop_all(self) -> None:
        for process in self.processes.values():
            process.terminate()
        for process in self.processes.values():
            try:
                process.wait(STOP_WAIT_SECONDS)
            except subprocess.TimeoutExpired:
                process.kill()


def serve_many(host: str, port: int, count: int) -> None:
    """``count`` processes on ports ``port`` .. ``port + count - 1``, each restarted if it
    exits; restarted one at a time on SIGHUP; all stopped on SIGINT or SIGTERM."""
    supervisor = Supervisor(host, port, count)
    for p in supervisor.ports:
        supervisor.start(p)
    stopping = False
    restart = False

    def stop(_signal: int, _frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    def ask_restart(_signal: int, _frame: FrameType | None) -> None:
        nonlocal restart
        restart = True

    signal.signal(signal.SIGINT, stop)
    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGHUP, ask_restart)
    log.info(
        "serving %d processes on http://%s:%d .. :%d; `kill -HUP %d` restarts them one at a time",
        count,
        host,
        port,
        port + count - 1,
        os.getpid(),
    )
    while not stopping:
        time.sleep(0.5)
        if restart:
            restart = False
            supervisor.restart_all(lambda: stopping)
        if not stopping:
            supervisor.keep_running()
    supervisor.stop_all()


def reachable_host(host: str) -> str:
    """The address a browser on this machine reaches a server listening on ``host`` by."""
    if host in ("", "0.0.0.0"):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


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
    # Links in e-mails, webhooks and pushes lead where this server is reached unless
    # PUBLIC_URL says otherwise (behind a proxy it must); the processes of --processes N
    # inherit the first one's address.
    os.environ.setdefault("PUBLIC_URL", f"http://{reachable_host(args.host)}:{args.port}")
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
