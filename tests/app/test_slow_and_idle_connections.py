"""A request whose headers never finish (slowloris) loses its connection after the header
deadline; a request that completes in time is served as usual; a kept-alive connection
that sits idle is closed after the idle timeout."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Callable

import httpx

from tests.conftest import LiveServer


def closed_by_server(sock: socket.socket) -> bool:
    try:
        return sock.recv(1024) == b""
    except ConnectionResetError:
        return True
    except TimeoutError:
        return False


def test_unfinished_headers_lose_their_connection(
    live_server_factory: Callable[..., LiveServer],
) -> None:
    server = live_server_factory(HEADER_TIMEOUT="0.5")
    sockets = []
    for _ in range(50):
        sock = socket.create_connection(("127.0.0.1", server.port), timeout=0.2)
        sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\nX-Slow: ")
        sockets.append(sock)
    deadline = time.monotonic() + 15
    open_ = list(sockets)
    while open_ and time.monotonic() < deadline:
        open_ = [sock for sock in open_ if not closed_by_server(sock)]
    for sock in sockets:
        sock.close()
    assert not open_, f"{len(open_)} of 50 connections with unfinished headers stayed open"
    # A normal request is unaffected.
    assert httpx.get(f"{server.url}/api/games").status_code == 200


def test_an_idle_kept_alive_connection_is_closed(
    live_server_factory: Callable[..., LiveServer],
) -> None:
    server = live_server_factory(IDLE_TIMEOUT="1")
    sock = socket.create_connection(("127.0.0.1", server.port), timeout=0.2)
    sock.sendall(b"GET /api/games HTTP/1.1\r\nHost: localhost\r\n\r\n")
    answer = b""
    deadline = time.monotonic() + 10
    while b"\r\n\r\n" not in answer and time.monotonic() < deadline:
        with contextlib.suppress(TimeoutError):
            answer += sock.recv(65536)
    assert answer.startswith(b"HTTP/1.1 200"), answer[:80]
    # The answer kept the connection alive; sent nothing more, the server closes it after
    # IDLE_TIMEOUT (1 s here; uvicorn's own default would be 5 s).
    started = time.monotonic()
    closed = False
    while not closed and time.monotonic() - started < 4:
        closed = closed_by_server(sock)
    sock.close()
    assert closed, "an idle kept-alive connection outlived IDLE_TIMEOUT=1 by 3 s"
