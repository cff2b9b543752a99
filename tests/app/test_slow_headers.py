"""A request whose headers never finish (slowloris) loses its connection after the header
deadline; a request that completes in time is served as usual."""

from __future__ import annotations

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
